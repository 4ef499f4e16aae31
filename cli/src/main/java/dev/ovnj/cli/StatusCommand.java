package dev.ovnj.cli;

import dev.ovnj.lb.BackendHealthView;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ovnj status}: the owned load balancers as the database holds them, and their problems.
 * Reads the client's cache only. The database does not record where a spec wanted to be attached,
 * so routers and switches that do not exist are found only when {@code --file} says what is wanted.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"List the load balancers ovnj owns: VIPs, backends, protocol, attachments and problems.",
                "Exit 0: no problems; 1: problems listed (with --file: pending specs and conflicts, one 'conflict:' line each);"
                        + " 2: no database, or an invalid --file."})
final class StatusCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private OutputOption output;

    @Option(names = "--owner", paramLabel = "NAME", description = "Only this owner's load balancers (default: every owner's).")
    private String owner;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Also report what this desired state wants that does not exist (routers, switches).")
    private Path file;

    @Option(names = "--sb", paramLabel = "REMOTES",
            description = "Also read the OVN Southbound database and print, per backend of each health-checked VIP, what"
                    + " OVN's service monitor says: online, offline, error or unknown (a UDP VIP's backends as IP:PORT/udp).")
    private String southbound;

    @Override
    public Integer call() {
        DesiredState state = file == null ? null : DesiredStateReader.read(file);
        String who = state == null ? owner : state.ownerOr(owner);
        try (NorthboundSession session = NorthboundSession.open(db)) {
            NorthboundSnapshot snapshot = NorthboundSnapshot.of(session.client().cache());
            Map<String, List<String>> pending = Map.of();
            List<String> conflicts = List.of();
            if (state != null) {
                EffectiveSpecs specs = EffectiveSpecs.of(state, who);
                LoadBalancerPlan plan = session.engine().plan(who, specs.specs());
                pending = plan.pending();
                conflicts = plan.conflicts();
            }
            Map<String, Map<String, String>> health = Map.of();
            if (southbound != null) {
                try (OvsdbClient sb = db.connect(southbound, "OVN_Southbound", LoadBalancerEngine.southboundMonitorRequest(), "--sb")) {
                    sb.cache().addIndex(BackendHealthView.MONITOR_BY_IP);
                    health = BackendHealthReport.read(session.client().cache(), sb.cache());
                }
            }
            StatusReport report = StatusReport.of(snapshot, who, pending, conflicts, health);
            if (output.json()) {
                JsonDocument.print(System.out, StatusJson.of(snapshot, who, pending, conflicts, health));
            } else {
                report.lines().forEach(System.out::println);
            }
            System.out.flush();
            return report.problems() == 0 ? 0 : 1;
        }
    }
}
