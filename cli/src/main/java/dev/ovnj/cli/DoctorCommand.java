package dev.ovnj.cli;

import dev.ovnj.lb.diagnosis.Diagnosis;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.NorthboundFacts;
import dev.ovnj.lb.diagnosis.OvnTrace;
import dev.ovnj.lb.diagnosis.SouthboundFacts;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ovnj doctor}: the load-balancer troubleshooting runbook across the Northbound and
 * Southbound databases, automated. Read-only; built on {@link Diagnosis}.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Diagnose load balancers: existence, attachment, VIP networks, gateway, northd sync, logical flows, "
                + "backend health, conflicts and (with --trace) ovn-trace. Read-only; reports root causes only.",
                "Exit 0: no errors (warnings allowed); 1: errors found; 2: could not check (database unreachable, bad file)."})
final class DoctorCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private SouthboundOption southbound;

    @Mixin
    private OwnerOption owner;

    @Mixin
    private DesiredStateFile stateFile;

    @Option(names = "--lb", paramLabel = "NAME", description = "Only this load balancer (spec name, or any Load_Balancer row's name).")
    private String lb;

    @Option(names = "--vip", paramLabel = "IP:PORT", description = "Only load balancers serving this VIP, and only this VIP of them.")
    private String vip;

    @Option(names = "--trace", description = "Also run ovn-trace from the gateway port to each router VIP (needs --sb and ovn-trace).")
    private boolean trace;

    @Option(names = "--trace-command", paramLabel = "COMMAND",
            description = "Run ovn-trace by this command line (split at spaces), e.g. the ovn-trace of the Southbound database's own"
                    + " OVN release or of a container (default: ovn-trace from PATH).")
    private String traceCommand;

    @Mixin
    private OutputOption output;

    /** The option's first spelling, kept so that scripts written for it go on working. */
    @Option(names = "--json", hidden = true, description = "Same as --output json.")
    private boolean json;

    @Override
    public Integer call() {
        DesiredState state = stateFile.readIfGiven();
        String who = owner.or(state);
        Diagnosis.Builder b = Diagnosis.builder();
        if (who != null) {
            b.owner(who);
        }
        if (state != null) {
            EffectiveSpecs specs = EffectiveSpecs.of(state, who);
            if (!specs.problems().isEmpty()) {
                // A spec the engine would not apply cannot be diagnosed against what it should be.
                throw new CliFailure(String.join("\n", specs.problems()));
            }
            b.specs(specs.specs());
        }
        if (lb != null) {
            b.loadBalancer(lb);
        }
        if (vip != null) {
            try {
                b.vip(vip);
            } catch (IllegalArgumentException e) {
                throw new CliFailure("--vip: " + e.getMessage(), e);
            }
        }
        if (trace) {
            if (southbound.remotes().isEmpty()) {
                throw new CliFailure("--trace needs the Southbound database: pass --sb REMOTES");
            }
            OvnTrace onPath = OvnTrace.of(southbound.remotes().get());
            OvnTrace tracer = traceCommand == null || traceCommand.isBlank() ? onPath
                    : onPath.withCommand(java.util.List.of(traceCommand.trim().split("\\s+")));
            Optional<List<Path>> tls = db.tlsFiles();
            b.tracer(tls.map(t -> tracer.withTls(t.get(0), t.get(1), t.get(2))).orElse(tracer));
        }
        DiagnosisReport report;
        try (OvsdbClient nb = db.connect(db.remotes(), "OVN_Northbound", NorthboundFacts.monitorRequest(), "--db")) {
            NorthboundFacts nbFacts = NorthboundFacts.read(nb.cache());
            if (southbound.remotes().isEmpty()) {
                report = b.build().run(nbFacts, Optional.empty());
            } else {
                try (OvsdbClient sb = db.connect(southbound.remotes().get(), "OVN_Southbound",
                        SouthboundFacts.monitorRequest(), "--sb")) {
                    report = b.build().run(nbFacts, Optional.of(SouthboundFacts.read(sb.cache())));
                }
            }
        }
        if (report.checked() == 0 && owner.name().isPresent() && state == null && lb == null && vip == null) {
            // Most likely a mistyped --owner: "0 load balancers checked" and exit 0 would read as healthy.
            throw new CliFailure("owner " + owner.name().get() + " has no load balancers in the Northbound database (is --owner spelled as the"
                    + " rows' external_ids:ovnj.owner?)");
        }
        (json || output.json() ? DoctorOutput.json(report) : DoctorOutput.text(report)).forEach(System.out::println);
        System.out.flush();
        return report.errors() == 0 ? 0 : 1;
    }
}
