package dev.ovnj.bench;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Host;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.ProbeReport;
import dev.ovnj.testkit.Prober;
import dev.ovnj.testkit.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Issue 51's figures on a real data plane ({@link Chassis}: ovn-northd, ovs-vswitchd's userspace
 * datapath, ovn-controller): the time from {@code apply()} to the first answered request, split into
 * ovnj (until the Northbound commit: {@code apply()} completes), ovn-northd (until
 * {@code ovn-nbctl --wait=sb sync} returns, started at the commit) and ovn-controller (until a
 * client's request every 10 ms is first answered); and the blackout of a VIP per deletion of its
 * row (a client's request every 10 ms, the longest run of failures), p50 and p99 over N deletions,
 * repaired by the engine (with its repair latency) and, as the floor, by a script that re-creates
 * the row the moment its delete commits ({@code ovn-nbctl lb-del ... && ovn-nbctl lb-add ...}, no
 * monitor, no engine).
 *
 * <pre>{@code bench/dataplane.sh [deletions=20] [applies=5]}</pre>
 */
public final class DataPlaneBench {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration INTERVAL = Duration.ofMillis(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    private static final String OWNER = "bench";
    private static final String VIP = "172.30.0.10";

    private DataPlaneBench() {
    }

    /**
     * Runs the measurements and prints them.
     *
     * @param args {@code deletions=N}, {@code applies=N}
     * @throws Exception when a step fails
     */
    public static void main(String[] args) throws Exception {
        int deletions = 20;
        int applies = 5;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            switch (kv[0]) {
                case "deletions" -> deletions = Integer.parseInt(kv[1]);
                case "applies" -> applies = Integer.parseInt(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        try (Chassis chassis = Chassis.start()) {
            Host client = seed(chassis);
            System.out.println("data plane: OVN " + OvnRelease.current().ovnVersion() + ", chassis " + chassis.name());
            String db = chassis.northbound().remote();
            List<Long> floor = new ArrayList<>();
            chassis.nbctl().run("lb-add", "web-tcp", VIP + ":80", "10.0.0.11:8080,10.0.0.12:8080", "tcp",
                    "--", "lr-lb-add", "r1", "web-tcp", "--", "ls-lb-add", "sw1", "web-tcp");
            for (int i = 0; i < deletions; i++) {
                floor.add(floorBlackout(chassis, client, db));
            }
            chassis.nbctl().run("lb-del", "web-tcp");
            BlockingQueue<RepairEvent> repairs = new LinkedBlockingQueue<>();
            try (OvsdbClient ovsdb = OvsdbClient.builder().remotes(db).monitor(LoadBalancerEngine.monitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(ovsdb).build()) {
                engine.addListener(new EngineListener() {
                    @Override
                    public void onRepair(RepairEvent event) {
                        repairs.add(event);
                    }
                });
                engine.start();
                ovsdb.startAndWait(WAIT);
                List<LoadBalancerSpec> specs = new ArrayList<>();
                List<long[]> splits = new ArrayList<>();
                for (int i = 0; i < applies; i++) {
                    specs.add(spec("app" + i, "172.30.0." + (20 + i)));
                    splits.add(applyToAnswer(chassis, client, engine, specs, "172.30.0." + (20 + i)));
                }
                specs.add(spec("web", VIP));
                engine.apply(OWNER, specs).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                List<Long> blackouts = new ArrayList<>();
                List<Long> repairsMs = new ArrayList<>();
                for (int i = 0; i < deletions; i++) {
                    long[] r = engineBlackout(chassis, client, repairs);
                    blackouts.add(r[0]);
                    repairsMs.add(r[1]);
                }
                print(splits, blackouts, repairsMs, floor);
            }
        }
    }

    private static LoadBalancerSpec spec(String name, String vip) {
        return LoadBalancerSpec.builder(name).routers("r1").switches("sw1").tcp(vip + ":80", "10.0.0.11:8080", "10.0.0.12:8080").build();
    }

    /** The seeds' topology: router r1 with its gateway port on ext, switch sw1 with two backends, a client on ext. */
    private static Host seed(Chassis chassis) {
        chassis.nbctl().run("ls-add", "ext", "--", "lsp-add", "ext", "ext-r1", "--", "lsp-set-type", "ext-r1", "router",
                "--", "lsp-set-addresses", "ext-r1", "router", "--", "lsp-set-options", "ext-r1", "router-port=r1-ext",
                "--", "lsp-add", "ext", "cl1", "--", "lsp-set-addresses", "cl1", "0a:00:00:00:03:64 172.30.0.100",
                "--", "lr-add", "r1", "--", "lrp-add", "r1", "r1-ext", "02:00:00:00:00:01", "172.30.0.1/24",
                "--", "lrp-set-gateway-chassis", "r1-ext", chassis.name(), "10",
                "--", "lrp-add", "r1", "r1-int", "02:00:00:00:00:02", "10.0.0.1/24",
                "--", "ls-add", "sw1", "--", "lsp-add", "sw1", "sw1-r1", "--", "lsp-set-type", "sw1-r1", "router",
                "--", "lsp-set-addresses", "sw1-r1", "router", "--", "lsp-set-options", "sw1-r1", "router-port=r1-int",
                "--", "lsp-add", "sw1", "be1", "--", "lsp-set-addresses", "be1", "0a:00:00:00:02:0b 10.0.0.11",
                "--", "lsp-add", "sw1", "be2", "--", "lsp-set-addresses", "be2", "0a:00:00:00:02:0c 10.0.0.12");
        chassis.host("be1").port("be1").mac("0a:00:00:00:02:0b").ipv4("10.0.0.11/24", "10.0.0.1").start().serve(8080);
        chassis.host("be2").port("be2").mac("0a:00:00:00:02:0c").ipv4("10.0.0.12/24", "10.0.0.1").start().serve(8080);
        return chassis.host("client").port("cl1").mac("0a:00:00:00:03:64").ipv4("172.30.0.100/24", "172.30.0.1").start();
    }

    /** One apply of one more spec: ovnj, ovn-northd and ovn-controller's shares of the time to the first answer (ms). */
    private static long[] applyToAnswer(Chassis chassis, Host client, LoadBalancerEngine engine, List<LoadBalancerSpec> specs,
                                        String vip) throws Exception {
        try (Prober p = client.probe(Transport.TCP, vip, 80, INTERVAL, REQUEST_TIMEOUT)) {
            long t0 = System.nanoTime();
            ApplyResult r = engine.apply(OWNER, List.copyOf(specs)).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            long t1 = System.nanoTime();
            if (!r.allApplied()) {
                throw new IllegalStateException("not applied: " + r.statuses());
            }
            chassis.nbctl().run("--wait=sb", "sync");
            long t2 = System.nanoTime();
            if (!p.awaitAnswer(WAIT)) {
                throw new IllegalStateException(vip + " never answered");
            }
            long t3 = System.nanoTime();
            return new long[] {(t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000};
        }
    }

    /** The engine repairs a deleted row: the blackout the client saw (ms) and the engine's repair latency (ms). */
    private static long[] engineBlackout(Chassis chassis, Host client, BlockingQueue<RepairEvent> repairs) throws Exception {
        try (Prober p = client.probe(Transport.TCP, VIP, 80, INTERVAL, REQUEST_TIMEOUT)) {
            if (!p.awaitAnswer(WAIT)) {
                throw new IllegalStateException(VIP + " does not answer before the deletion");
            }
            repairs.clear();
            chassis.nbctl().run("lb-del", "web-tcp");
            RepairEvent e;
            do {
                e = repairs.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                if (e == null) {
                    throw new IllegalStateException("no repair of web-tcp within " + WAIT);
                }
            } while (!e.row().equals("web-tcp"));
            ProbeReport r = settle(p);
            return new long[] {r.blackout().toMillis(), e.latency().toMillis()};
        }
    }

    /** No engine: a script deletes the row and re-creates it the moment the delete has committed. */
    private static long floorBlackout(Chassis chassis, Host client, String db) throws InterruptedException {
        try (Prober p = client.probe(Transport.TCP, VIP, 80, INTERVAL, REQUEST_TIMEOUT)) {
            if (!p.awaitAnswer(WAIT)) {
                throw new IllegalStateException(VIP + " does not answer before the deletion");
            }
            String nbctl = String.join(" ", OvnRelease.current().command("ovn-nbctl", "--db=" + db));
            Command.of("bash", "-c", nbctl + " lb-del web-tcp && " + nbctl + " lb-add web-tcp " + VIP + ":80 10.0.0.11:8080,10.0.0.12:8080 tcp"
                    + " -- lr-lb-add r1 web-tcp -- ls-lb-add sw1 web-tcp").check();
            return settle(p).blackout().toMillis();
        }
    }

    /** Waits until the probe has been answered for a second in a row, then stops it. */
    private static ProbeReport settle(Prober p) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            List<ProbeReport.Sample> s = p.report().samples();
            int i = s.size() - 1;
            while (i >= 0 && s.get(i).reply().answered()) {
                i--;
            }
            long from = i >= 0 ? s.get(i).sentMillis() : (s.isEmpty() ? Long.MAX_VALUE : s.get(0).sentMillis());
            if (!s.isEmpty() && i < s.size() - 1 && s.get(s.size() - 1).sentMillis() - from >= 1000) {
                break;
            }
            Thread.sleep(50);
        }
        return p.stop();
    }

    private static void print(List<long[]> splits, List<Long> blackouts, List<Long> repairs, List<Long> floor) {
        System.out.println("apply() to first answer (ms): ovnj / ovn-northd / ovn-controller / total");
        for (long[] s : splits) {
            System.out.println(String.format(Locale.ROOT, "  %d / %d / %d / %d", s[0], s[1], s[2], s[0] + s[1] + s[2]));
        }
        System.out.println(String.format(Locale.ROOT, "blackout per deletion, engine: p50 %d ms, p99 %d ms (repair latency p50 %d ms,"
                + " p99 %d ms); floor (script): p50 %d ms, p99 %d ms; ratio of p50 %.2f, of p99 %.2f (n=%d)",
                pct(blackouts, 50), pct(blackouts, 99), pct(repairs, 50), pct(repairs, 99), pct(floor, 50), pct(floor, 99),
                ratio(pct(blackouts, 50), pct(floor, 50)), ratio(pct(blackouts, 99), pct(floor, 99)), blackouts.size()));
        System.out.println("engine blackouts " + blackouts + ", repairs " + repairs + ", floor " + floor);
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.NaN : (double) a / b;
    }

    /** The nearest-rank percentile. */
    private static long pct(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
