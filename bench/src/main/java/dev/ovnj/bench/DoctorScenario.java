package dev.ovnj.bench;

import dev.ovnj.lb.diagnosis.Diagnosis;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.NorthboundFacts;
import dev.ovnj.lb.diagnosis.SouthboundFacts;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.OvnCentral;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code doctor} scenario: N owned load balancers (one VIP, three backends on one switch
 * port each) on a gateway router and a switch, turned into flows by a real ovn-northd; then both
 * databases are synced by ovnj clients and every load balancer is diagnosed, which must find
 * nothing. Records the clients' sync and the diagnosis (read both caches and check) times.
 */
final class DoctorScenario {
    private static final int WINDOW = 64;
    private static final Duration NORTHD_WAIT = Duration.ofMinutes(10);

    private DoctorScenario() {
    }

    static void run(int n, Results results) throws InterruptedException {
        try (OvnCentral ovn = OvnCentral.start()) {
            ovn.nbctl().run("lr-add", "lr0",
                    "--", "lrp-add", "lr0", "lrp-ext", "00:00:00:00:01:01", "172.20.0.1/16",
                    "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/8",
                    "--", "lrp-set-gateway-chassis", "lrp-ext", "gw1", "10",
                    "--", "ls-add", "ls0", "--", "lsp-add", "ls0", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                    "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int");
            String sb = ovn.southbound().remote();
            // The gateway's cr- port gets its chassis while the database is small: ovn-sbctl against a
            // Southbound busy with 10,000 load balancers' flows misses its inactivity probe. Only that
            // port needs one; no check here reads the backends' bindings.
            Command.of("ovn-sbctl", "--db=" + sb, "chassis-add", "gw1", "geneve", "127.0.0.1").check();
            waitForNorthd(ovn);
            Command.of("ovn-sbctl", "--db=" + sb, "lsp-bind", "cr-lrp-ext", "gw1").check();
            // ovnj's own pipelined transactions: ovn-nbctl re-reads and scans the growing database per call.
            try (OvsdbClient writer = Scenarios.client(ovn.northbound().remote(), MonitorRequest.tables("NB_Global"))) {
                writer.startAndWait(Scenarios.WAIT);
                int failures = Scenarios.pipelined(writer, n, WINDOW, i -> seedTx(writer, i));
                if (failures > 0) {
                    throw new IllegalStateException("doctor: " + failures + " seeding transactions failed");
                }
            }
            long t0 = System.nanoTime();
            waitForNorthd(ovn);
            results.add("doctor", "ovn-northd", "translate_s", Scenarios.secondsSince(t0));

            long t1 = System.nanoTime();
            try (OvsdbClient nb = OvsdbClient.builder().remotes(ovn.northbound().remote())
                    .monitor(NorthboundFacts.monitorRequest()).build().startAndWait(Scenarios.WAIT);
                 OvsdbClient south = OvsdbClient.builder().remotes(sb).database("OVN_Southbound")
                         .monitor(SouthboundFacts.monitorRequest()).build().startAndWait(Scenarios.WAIT)) {
                results.add("doctor", "ovnj", "sync_s", Scenarios.secondsSince(t1));
                results.add("doctor", "ovnj", "sb_lflows", south.cache().table("Logical_Flow").size());
                Diagnosis diagnosis = Diagnosis.builder().owner(Scenarios.OWNER).build();
                double[] seconds = new double[5];
                for (int k = 0; k < seconds.length; k++) {
                    long ts = System.nanoTime();
                    DiagnosisReport r = diagnosis.run(NorthboundFacts.read(nb.cache()), Optional.of(SouthboundFacts.read(south.cache())));
                    seconds[k] = Scenarios.secondsSince(ts);
                    if (r.checked() != n || !r.findings().isEmpty()) {
                        throw new IllegalStateException("doctor: expected " + n + " healthy load balancers, got " + r.checked()
                                + " checked and " + r.findings().size() + " findings, e.g. " + r.findings().stream().limit(3).toList());
                    }
                }
                Arrays.sort(seconds);
                results.add("doctor", "ovnj", "diagnose_s", Scenarios.percentile(seconds, 50));
                results.add("doctor", "ovnj", "diagnose_min_s", seconds[0]);
            }
        }
    }

    /** One owned load balancer on lr0 and ls0, and a port on ls0 holding its three backend addresses. */
    private static Transaction seedTx(OvsdbClient c, int i) {
        String[] backends = Scenarios.backends(i, 3, 0).split(",");
        String ips = String.join(" ", Arrays.stream(backends).map(b -> b.substring(0, b.indexOf(':'))).toList());
        Insert lb = Operations.insert("Load_Balancer").uuidName("lb")
                .value("name", "svc-" + i + "-tcp")
                .value("vips", Map.of(Scenarios.vip(i, 20), String.join(",", backends)))
                .value("protocol", Set.of("tcp"))
                .value("external_ids", Map.of("ovnj.owner", Scenarios.OWNER, "ovnj.spec", "svc-" + i));
        Insert port = Operations.insert("Logical_Switch_Port").uuidName("port")
                .value("name", "p" + i)
                .value("addresses", Set.of(String.format(Locale.ROOT, "0a:00:00:%02x:%02x:01 %s", (i >> 8) & 0xff, i & 0xff, ips)));
        return c.transaction()
                .add(lb)
                .add(port)
                .add(Operations.mutate("Logical_Router").where(Condition.eq("name", "lr0"))
                        .mutation(Mutation.insert("load_balancer", Set.of(lb.reference()))))
                .add(Operations.mutate("Logical_Switch").where(Condition.eq("name", "ls0"))
                        .mutation(Mutation.insert("load_balancer", Set.of(lb.reference())))
                        .mutation(Mutation.insert("ports", Set.of(port.reference()))))
                .build();
    }

    private static void waitForNorthd(OvnCentral ovn) {
        Command.of("ovn-nbctl", "--db=" + ovn.northbound().remote(), "--timeout=600", "--wait=sb", "sync")
                .timeout(NORTHD_WAIT).check();
    }
}
