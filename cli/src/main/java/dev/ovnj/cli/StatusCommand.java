package dev.ovnj.cli;

import dev.ovnj.lb.BackendHealthView;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Condition;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ovnj status}: the owned load balancers as the database holds them, and their problems.
 * Reads the client's cache only; without {@code --file} it starts no engine and monitors only what
 * the report reads ({@link #monitorRequest(String)}). The database does not record where a spec wanted to be attached,
 * so routers and switches that do not exist are found only when {@code --file} says what is wanted.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"List the load balancers ovnj owns: VIPs, backends, protocol, attachments and problems.",
                "With --file, also what the file wants that does not exist (routers, switches); with --sb, per backend of each"
                        + " health-checked VIP what OVN's service monitor says: online, offline, error or unknown (a UDP VIP's"
                        + " backends as IP:PORT/udp).",
                "Each load balancer and VIP has an operating status: online, degraded, error (no healthy backend), no_monitor"
                        + " (no health check), offline (no backends) or unknown (checked, but no verdict: without --sb, or the"
                        + " monitor's ovn-controller is gone).",
                "Exit 0: no problems; 1: problems listed (with --file: pending specs and conflicts, one 'conflict:' line each);"
                        + " 2: no database, or an invalid --file."})
final class StatusCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private OutputOption output;

    @Mixin
    private OwnerOption owner;

    @Mixin
    private DesiredStateFile stateFile;

    @Mixin
    private SouthboundOption southbound;

    @Override
    public Integer call() {
        DesiredState state = stateFile.readIfGiven();
        String who = owner.or(state);
        if (state == null) {
            // Nothing to plan: no engine (it would map and index every row for nothing), and only
            // the tables and columns the report reads.
            try (OvsdbClient nb = db.connect(db.remotes(), "OVN_Northbound", monitorRequest(who), "--db")) {
                return report(nb.cache(), who, Map.of(), List.of());
            }
        }
        try (NorthboundSession session = NorthboundSession.open(db)) {
            LoadBalancerPlan plan = session.engine().plan(who, EffectiveSpecs.of(state, who).specs());
            return report(session.client().cache(), who, plan.pending(), plan.conflicts());
        }
    }

    /**
     * What {@code ovnj status} without {@code --file} reads: of the load balancers the columns the
     * report prints (with {@code --owner}, only that owner's rows: the server filters them), and of
     * the routers, switches, groups and router ports only the columns that say what holds which load
     * balancer and the routers' networks. A switch's {@code ports} (often the largest column of a
     * Northbound database) is not among them.
     *
     * @param owner one owner, or null for every owner's rows
     * @return the monitor request
     */
    static MonitorRequest monitorRequest(String owner) {
        TableMonitor balancers = TableMonitor.all("Load_Balancer")
                .columns("name", "protocol", "vips", "options", "external_ids", "health_check", "ip_port_mappings");
        if (owner != null) {
            balancers = balancers.where(Condition.includes("external_ids", Map.of(DesiredRow.OWNER_KEY, owner)));
        }
        return MonitorRequest.of(balancers,
                TableMonitor.all("Load_Balancer_Health_Check"),
                TableMonitor.all("Load_Balancer_Group").columns("name", "load_balancer"),
                TableMonitor.all("Logical_Router").columns("name", "ports", "load_balancer", "load_balancer_group"),
                TableMonitor.all("Logical_Router_Port").columns("name", "networks"),
                TableMonitor.all("Logical_Switch").columns("name", "load_balancer", "load_balancer_group"))
                .withoutRowVersions();
    }

    private int report(RowCache nb, String who, Map<String, List<String>> pending, List<String> conflicts) {
        NorthboundSnapshot snapshot = NorthboundSnapshot.of(nb);
        Map<String, BackendHealthReport.RowHealth> health;
        if (southbound.remotes().isPresent()) {
            try (OvsdbClient sb = db.connect(southbound.remotes().get(), "OVN_Southbound",
                    LoadBalancerEngine.southboundMonitorRequest(), "--sb")) {
                BackendHealthView.INDEXES.forEach(sb.cache()::addIndex);
                health = BackendHealthReport.read(nb, sb.cache());
            }
        } else {
            health = BackendHealthReport.read(nb, null);
        }
        StatusReport report = StatusReport.of(snapshot, who, pending, conflicts, health);
        if (output.json()) {
            JsonDocument.print(System.out, StatusJson.of(snapshot, who, pending, conflicts, health));
        } else {
            // One write for the whole report: System.out flushes at every line, a system call
            // per load balancer.
            PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
            report.lines().forEach(out::println);
            out.flush();
        }
        System.out.flush();
        return report.problems() == 0 ? 0 : 1;
    }
}
