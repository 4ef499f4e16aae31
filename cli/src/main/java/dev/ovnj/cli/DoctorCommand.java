package dev.ovnj.cli;

import dev.ovnj.lb.diagnosis.Diagnosis;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.NorthboundFacts;
import dev.ovnj.lb.diagnosis.OvnTrace;
import dev.ovnj.lb.diagnosis.PathCheck;
import dev.ovnj.lb.diagnosis.PathFacts;
import dev.ovnj.lb.diagnosis.PathReport;
import dev.ovnj.lb.diagnosis.SouthboundFacts;
import dev.ovnj.lb.diagnosis.Tracer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ovnj doctor}: the load-balancer troubleshooting runbook across the Northbound and
 * Southbound databases, automated. Read-only; built on {@link Diagnosis}.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Diagnose load balancers: existence, attachment, VIP networks, gateway, northd sync, logical flows, "
                + "backend health, conflicts and (with --trace) ovn-trace. Read-only; reports root causes only.",
                "With --from (or --from-port) and VIP:PORT: trace that client's packets to the VIP with ovn-trace once per backend "
                        + "and name, per backend, where they are dropped and the Northbound row responsible (needs --sb).",
                "Exit 0: no errors (warnings allowed), or with --from every backend delivered; 1: errors found, or some backend not "
                        + "delivered; 2: could not check (database unreachable, bad file, bad --from, a VIP no load balancer has)."})
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

    @Option(names = "--from", paramLabel = "ADDRESS[:PORT]",
            description = "Trace packets from this client address (and source port, default " + PathCheck.DEFAULT_CLIENT_PORT
                    + ") to VIP:PORT; they enter the VIP's router by its gateway port unless --from-port says otherwise.")
    private String from;

    @Option(names = "--from-port", paramLabel = "NAME",
            description = "Trace packets entering by this logical switch port (the client's own, whose address is the default"
                    + " --from) or logical router port.")
    private String fromPort;

    @Option(names = "--protocol", paramLabel = "tcp|udp|sctp",
            description = "With --from: the VIP's protocol, when load balancers serve it for more than one (default: the one it has).")
    private String protocol;

    @Parameters(arity = "0..1", paramLabel = "VIP:PORT", description = "With --from or --from-port: the VIP to trace to.")
    private String target;

    @Mixin
    private OutputOption output;

    /** The option's first spelling, kept so that scripts written for it go on working. */
    @Option(names = "--json", hidden = true, description = "Same as --output json.")
    private boolean json;

    @Override
    public Integer call() {
        if (from != null || fromPort != null) {
            return tracePath();
        }
        if (target != null || protocol != null) {
            throw new CliFailure("VIP:PORT and --protocol go with --from or --from-port (to check one VIP of every load balancer: --vip)");
        }
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
            b.tracer(tracer());
        }
        DiagnosisReport report;
        try (CommandClient nb = new CommandClient(db.connect(db.remotes(), "OVN_Northbound", NorthboundFacts.monitorRequest(), "--db"))) {
            NorthboundFacts nbFacts = NorthboundFacts.read(nb.client().cache());
            if (southbound.remotes().isEmpty()) {
                report = b.build().run(nbFacts, Optional.empty());
            } else {
                try (CommandClient sb = new CommandClient(db.connect(southbound.remotes().get(), "OVN_Southbound",
                        SouthboundFacts.monitorRequest(), "--sb"))) {
                    report = b.build().run(nbFacts, Optional.of(SouthboundFacts.read(sb.client().cache())));
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

    private Tracer tracer() {
        OvnTrace onPath = OvnTrace.of(southbound.remotes().get());
        OvnTrace tracer = traceCommand == null || traceCommand.isBlank() ? onPath
                : onPath.withCommand(List.of(traceCommand.trim().split("\\s+")));
        Optional<List<Path>> tls = db.tlsFiles();
        return tls.map(t -> tracer.withTls(t.get(0), t.get(1), t.get(2))).orElse(tracer);
    }

    /** {@code --from}: the client's packets to one VIP, traced once per backend. */
    private int tracePath() {
        if (target == null) {
            throw new CliFailure("--from and --from-port need the VIP:PORT to trace to");
        }
        if (southbound.remotes().isEmpty()) {
            throw new CliFailure("--from needs the Southbound database, where ovn-trace runs: pass --sb REMOTES");
        }
        if (vip != null || lb != null || trace || stateFile.readIfGiven() != null) {
            throw new CliFailure("--from traces one VIP:PORT; it takes no --vip, --lb, --trace or --file");
        }
        PathCheck.Builder b = argument("VIP:PORT", () -> PathCheck.builder(target, tracer()));
        if (from != null) {
            argument("--from", () -> b.from(from));
        }
        if (fromPort != null) {
            b.fromPort(fromPort);
        }
        if (protocol != null) {
            argument("--protocol", () -> b.protocol(protocol));
        }
        PathCheck check = argument("--from", b::build);
        PathReport report;
        try (CommandClient nb = new CommandClient(db.connect(db.remotes(), "OVN_Northbound", PathFacts.northboundMonitorRequest(), "--db"));
             CommandClient sb = new CommandClient(db.connect(southbound.remotes().get(), "OVN_Southbound",
                     PathFacts.southboundMonitorRequest(), "--sb"))) {
            report = check.run(NorthboundFacts.read(nb.client().cache()), SouthboundFacts.read(sb.client().cache()),
                    PathFacts.read(nb.client().cache(), sb.client().cache()));
        } catch (IllegalArgumentException | Tracer.TraceException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        (json || output.json() ? DoctorPathOutput.json(report) : DoctorPathOutput.text(report)).forEach(System.out::println);
        System.out.flush();
        return report.allDelivered() ? 0 : 1;
    }

    /** Runs a step that checks an argument; its complaint becomes a usage error naming the argument (exit 2). */
    private static <T> T argument(String name, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw new CliFailure(name + ": " + e.getMessage(), e);
        }
    }
}
