package dev.ovnj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The bulk-create scenarios: N single-load-balancer transactions (insert, attach to one router and
 * one switch) by every client, each on a fresh seeded database, each checked by {@link WriteCheck}
 * before its figure is recorded. The floor is the lowest {@code ovsdb-server} CPU measured for the
 * same writes in the run; every client's {@code x_floor} is its wall time over that floor. The
 * monitor floor ({@code ovsdb-server-monitor}) is the server's CPU for the same writes while a
 * client that parses nothing keeps the cache-keeping clients' monitor: a monitor makes the server
 * diff the router's and the switch's growing {@code load_balancer} sets on every commit, so no
 * cache-keeping client can get under it; their {@code x_monitor_floor} is their wall over it.
 *
 * <ul>
 *   <li>{@code bulk-create}: ovnj without a monitor ({@code ovnj-writeonly}), with a cache of the
 *       three tables written ({@code ovnj-pipelined}, {@code ovnj-sequential}), OpenDaylight without a
 *       monitor ({@code odl-pipelined}, {@code odl-sequential}), the Python IDL, the ovn-nbctl
 *       daemon;</li>
 *   <li>{@code bulk-create-monitor}: the cache-keeping clients at a size the quadratic monitor
 *       of OpenDaylight survives ({@code odl-monitor});</li>
 *   <li>{@code bulk-create-cluster}: a 3-node RAFT cluster, each client connected to the leader
 *       only; server CPU is the sum over the three members (followers replicate every commit).</li>
 * </ul>
 */
final class BulkCreate {
    /** What a client's run measured. */
    record Measured(double wallS, double cpuS, double serverCpuS) {
    }

    /** Where a bulk-create client writes: a fresh, seeded standalone server or cluster. */
    interface Target extends AutoCloseable {
        /** The remotes an ovnj client is given. */
        String remotes();

        /** host:port of the server to write to (the leader, for a cluster). */
        String hostPort();

        /** CPU seconds the server process(es) have spent so far. */
        double serverCpu();

        @Override
        void close();
    }

    private static final class Standalone implements Target {
        final OvsdbServer server = Scenarios.seededServer();

        @Override
        public String remotes() {
            return server.remote();
        }

        @Override
        public String hostPort() {
            return "127.0.0.1:" + server.port();
        }

        @Override
        public double serverCpu() {
            return Proc.cpuSeconds(server.pid());
        }

        @Override
        public void close() {
            server.close();
        }
    }

    private static final class Cluster implements Target {
        final OvsdbCluster cluster = OvsdbCluster.start(3);
        final int leader;

        Cluster() {
            Nbctl.of(cluster).run(Scenarios.SEED);
            leader = cluster.awaitLeader();
        }

        @Override
        public String remotes() {
            return cluster.remotes();
        }

        @Override
        public String hostPort() {
            return "127.0.0.1:" + cluster.member(leader).port();
        }

        @Override
        public double serverCpu() {
            return cluster.members().stream().mapToDouble(m -> Proc.cpuSeconds(m.pid())).sum();
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    /** One client: how it runs against a target. */
    @FunctionalInterface
    interface Run {
        Measured on(Target target) throws Exception;
    }

    /**
     * The monitor of the cache-keeping clients ({@code ovnj-pipelined}, {@code ovnj-sequential}) and
     * of the monitor floor: every column (but {@code _version}) of the three tables the writes
     * touch, the tables the Python IDL and {@code odl-monitor} keep. The engine's six further
     * tables, unchanged by these writes, still cost the server about 0.08 s of its ~2.1 s here
     * (four interleaved pairs of monitor floors, 10,000 writes), so a client of these writes does
     * not ask for them.
     */
    static final MonitorRequest CACHE_MONITOR = MonitorRequest.tables("Load_Balancer", "Logical_Router", "Logical_Switch")
            .withoutRowVersions();

    /** The clients that keep {@link #CACHE_MONITOR}; their wall over the monitor floor is {@code x_monitor_floor}. */
    private static final List<String> CACHE_CLIENTS = List.of("ovnj-pipelined", "ovnj-sequential");

    /** The client name of the monitor floor's row. */
    static final String MONITOR_FLOOR = "ovsdb-server-monitor";

    /** Below this much server CPU (20 clock ticks of 10 ms), ratios against the floor are tick noise. */
    static final double MEANINGFUL_FLOOR_S = 0.2;

    private final Scenarios s;
    private final Results results;
    private final List<String> failed = new ArrayList<>();
    /** Every measured pass so far, per scenario and client ({@code scenario/client}). */
    private final java.util.Map<String, List<Measured>> passes = new java.util.HashMap<>();

    BulkCreate(Scenarios s) {
        this.s = s;
        this.results = s.results();
    }

    void standalone() throws Exception {
        String scenario = "bulk-create";
        int n = s.sizes().get("bulk");
        int window = s.sizes().get("window");
        List<String> clients = new ArrayList<>();
        Run writeOnly = t -> ovnj(t, n, window, false);
        Run pipelined = t -> ovnj(t, n, window, true);
        Run odlPipelined = t -> odl(t, n, window, false);
        measureWarm(scenario, "ovnj-writeonly", false, n, writeOnly, clients);
        measureWarm(scenario, "ovnj-pipelined", false, n, pipelined, clients);
        measureWarm(scenario, "ovnj-sequential", false, n, t -> ovnj(t, n, 1, true), clients);
        monitorFloor(scenario, n, window);
        measure(scenario, "odl-pipelined", false, n, odlPipelined, clients);
        measure(scenario, "odl-sequential", false, n, t -> odl(t, n, 1, false), clients);
        // The pairs the targets compare get more passes, taken in turn: one pass each moved the
        // write-only wall between 1.02x and 1.15x of the floor from one quiet run to the next.
        for (int pass = 2; pass <= s.sizes().get("bulk-passes"); pass++) {
            measure(scenario, "ovnj-writeonly", false, n, writeOnly, clients);
            measure(scenario, "ovnj-pipelined", false, n, pipelined, clients);
            measure(scenario, "odl-pipelined", false, n, odlPipelined, clients);
        }
        measure(scenario, "python-idl", false, n, t -> peer(t, List.of("/usr/bin/python3",
                s.peers().resolve("python_idl.py").toString(), "bulk", t.remotes(), s.schema().toString(),
                String.valueOf(n), Scenarios.ROUTER, Scenarios.SWITCH)), clients);
        measure(scenario, "ovn-nbctl-daemon", false, n, t -> peer(t, List.of(s.peers().resolve("nbctl_daemon.sh").toString(),
                "bulk", t.remotes(), String.valueOf(n), Scenarios.ROUTER, Scenarios.SWITCH)), clients);
        results.get(scenario + "-server", "ovnj-writeonly", "cpu_s")
                .ifPresent(v -> results.add(scenario, "ovsdb-server-writeonly", "cpu_s", v));
        floor(scenario, clients);
    }

    void withMonitor() throws Exception {
        String scenario = "bulk-create-monitor";
        int n = s.sizes().get("monitor");
        int window = s.sizes().get("window");
        List<String> clients = new ArrayList<>();
        measureWarm(scenario, "ovnj-writeonly", false, n, t -> ovnj(t, n, window, false), clients);
        measureWarm(scenario, "ovnj-pipelined", false, n, t -> ovnj(t, n, window, true), clients);
        measure(scenario, "odl-monitor", false, n, t -> odl(t, n, window, true), clients);
        floor(scenario, clients);
    }

    void cluster() throws Exception {
        String scenario = "bulk-create-cluster";
        int n = s.sizes().get("cluster");
        int window = s.sizes().get("window");
        List<String> clients = new ArrayList<>();
        measureWarm(scenario, "ovnj-writeonly", true, n, t -> ovnj(t, n, window, false), clients);
        measureWarm(scenario, "ovnj-pipelined", true, n, t -> ovnj(t, n, window, true), clients);
        measure(scenario, "odl-pipelined", true, n, t -> odl(t, n, window, false), clients);
        measure(scenario, "python-idl", true, n, t -> peer(t, List.of("/usr/bin/python3",
                s.peers().resolve("python_idl.py").toString(), "bulk", t.remotes(), s.schema().toString(),
                String.valueOf(n), Scenarios.ROUTER, Scenarios.SWITCH)), clients);
        floor(scenario, clients);
    }

    /**
     * Measures a client of this JVM at its steady state: warm passes of the same client, the same
     * size, each on a throw-away target of the same kind, until {@link JitWarmth} counts it warm;
     * then the measured run. A smaller warm-up of both ovnj variants up
     * front left C2 compiling through the first measured client (compiler threads were 2.15 of its
     * 3.44 s of CPU at 10,000; the variants' type profiles differ), and one full-size pass still
     * left the first client measured at twice the CPU of the second. OpenDaylight gets the same
     * passes in its own JVM ({@code OdlPeer}); the Python and C peers need none. The first pass's
     * wall time is kept as {@code cold_wall_s}, the number of passes as {@code warm_passes}.
     */
    private void measureWarm(String scenario, String client, boolean cluster, int n, Run run, List<String> clients) {
        try {
            JitWarmth.warm(pass -> {
                System.out.println("  " + client + " warm pass " + pass + " (" + java.time.LocalTime.now() + ")");
                try (Target t = cluster ? new Cluster() : new Standalone()) {
                    Measured m = run.on(t);
                    // Also the check's own sync: the measured client must not be the first after it.
                    WriteCheck.bulkCreate(client + " (warm pass)", t.remotes(), n);
                    if (pass == 1) {
                        results.add(scenario, client, "cold_wall_s", m.wallS());
                    }
                    results.add(scenario, client, "warm_passes", pass);
                    return m.wallS();
                }
            });
        } catch (Throwable e) {
            results.note(scenario + " " + client + " warm pass FAILED: " + e);
            failed.add(client);
            e.printStackTrace();
            return;
        }
        measure(scenario, client, cluster, n, run, clients);
    }

    /**
     * One measured pass of a client on a fresh target, checked; a client measured more than once
     * (see {@code bulk-passes}) is recorded as the median pass by wall time, with its fastest and
     * slowest wall as {@code wall_s_min}/{@code wall_s_max} and the number of passes as
     * {@code passes}.
     */
    private void measure(String scenario, String client, boolean cluster, int n, Run run, List<String> clients) {
        // The previous client's garbage is collected now, not on this client's CPU time.
        Proc.usedHeapAfterGc();
        System.out.println("  " + client + " (" + java.time.LocalTime.now() + ")");
        try (Target t = cluster ? new Cluster() : new Standalone()) {
            Measured m = run.on(t);
            WriteCheck.bulkCreate(client, t.remotes(), n);
            List<Measured> all = passes.computeIfAbsent(scenario + "/" + client, k -> new ArrayList<>());
            all.add(m);
            List<Measured> byWall = all.stream().sorted(java.util.Comparator.comparingDouble(Measured::wallS)).toList();
            Measured median = byWall.get((byWall.size() - 1) / 2);
            results.add(scenario, client, "wall_s", median.wallS());
            results.add(scenario, client, "cpu_s", median.cpuS());
            results.add(scenario + "-server", client, "cpu_s", median.serverCpuS());
            if (all.size() > 1) {
                results.add(scenario, client, "passes", all.size());
                results.add(scenario, client, "wall_s_min", byWall.get(0).wallS());
                results.add(scenario, client, "wall_s_max", byWall.get(byWall.size() - 1).wallS());
            }
            if (!clients.contains(client)) {
                clients.add(client);
            }
        } catch (Throwable e) {
            // One client failing (a peer missing, a check failing) must not hide the others; the
            // scenario still fails at its end (see floor), so CI notices.
            results.note(scenario + " " + client + " FAILED: " + e);
            failed.add(client);
            e.printStackTrace();
        }
    }

    /**
     * Records the floor (lowest server CPU of the run) and every client's wall over it, then fails
     * the scenario if any client failed.
     */
    private void floor(String scenario, List<String> clients) {
        try {
            recordFloor(scenario, clients);
        } finally {
            if (!failed.isEmpty()) {
                List<String> names = List.copyOf(failed);
                failed.clear();
                throw new AssertionError(scenario + ": clients failed: " + names);
            }
        }
    }

    private void recordFloor(String scenario, List<String> clients) {
        Optional<String> lowest = clients.stream().filter(c -> results.get(scenario + "-server", c, "cpu_s").isPresent())
                .min((a, b) -> Double.compare(results.get(scenario + "-server", a, "cpu_s").orElseThrow(),
                        results.get(scenario + "-server", b, "cpu_s").orElseThrow()));
        if (lowest.isEmpty()) {
            return;
        }
        double floor = results.get(scenario + "-server", lowest.get(), "cpu_s").orElseThrow();
        results.add(scenario, "floor", "cpu_s", floor);
        results.note(Proc.fmt("%s: floor = %.2f s of ovsdb-server CPU, the lowest of the run (measured under %s)",
                scenario, floor, lowest.get()));
        if (floor < MEANINGFUL_FLOOR_S) {
            // /proc counts CPU in clock ticks (10 ms): a floor of a few ticks makes every ratio noise.
            results.note(Proc.fmt("%s: the floor is below %.1f s of CPU (20 clock ticks); no x_floor ratios at this size",
                    scenario, MEANINGFUL_FLOOR_S));
            return;
        }
        for (String c : clients) {
            results.get(scenario, c, "wall_s").ifPresent(w -> results.add(scenario, c, "x_floor", w / floor));
        }
        results.get(scenario, MONITOR_FLOOR, "cpu_s").ifPresent(monitorFloor -> {
            for (String c : CACHE_CLIENTS) {
                results.get(scenario, c, "wall_s").ifPresent(w -> results.add(scenario, c, "x_monitor_floor", w / monitorFloor));
            }
        });
    }

    /**
     * The monitor floor: {@code ovsdb-server}'s CPU for the same writes (by the warm write-only
     * client) while a {@link DrainingMonitor} keeps the cache-keeping clients' monitor, i.e. what the
     * server spends on any client that keeps that cache, recorded as client
     * {@code ovsdb-server-monitor}; the cache-keeping clients' wall over it is {@code x_monitor_floor}.
     * Not a floor candidate of {@link #recordFloor} (which stays the write-only server cost).
     */
    private void monitorFloor(String scenario, int n, int window) {
        String client = MONITOR_FLOOR;
        System.out.println("  " + client + " (" + java.time.LocalTime.now() + ")");
        Proc.usedHeapAfterGc();
        try (Standalone t = new Standalone();
             OvsdbClient c = Scenarios.client(t.remotes(), MonitorRequest.of());
             DrainingMonitor m = DrainingMonitor.open(t.server.port(), DatabaseSchema.parse(s.schema()), CACHE_MONITOR)) {
            c.startAndWait(Scenarios.WAIT);
            double srv0 = t.serverCpu();
            int failures = Scenarios.pipelined(c, n, window, i -> Scenarios.bulkTx(c, "lb-", i));
            m.awaitDrained();
            double srv = t.serverCpu() - srv0;
            Scenarios.check(failures == 0, failures + " transactions failed");
            WriteCheck.bulkCreate(client, t.remotes(), n);
            results.add(scenario, client, "cpu_s", srv);
            results.note(Proc.fmt("%s: %s received %.1f MB of updates for the writes", scenario, client, m.bytes() / 1e6));
        } catch (Throwable e) {
            results.note(scenario + " " + client + " FAILED: " + e);
            failed.add(client);
            e.printStackTrace();
        }
    }

    private static Measured ovnj(Target t, int n, int window, boolean cache) throws Exception {
        MonitorRequest monitor = cache ? CACHE_MONITOR : MonitorRequest.of();
        try (OvsdbClient c = Scenarios.client(t.remotes(), monitor)) {
            c.startAndWait(Scenarios.WAIT);
            double srv0 = t.serverCpu();
            double cpu0 = Proc.jvmCpuSeconds();
            long t0 = System.nanoTime();
            int failures = Scenarios.pipelined(c, n, window, i -> Scenarios.bulkTx(c, "lb-", i));
            double wall = Scenarios.secondsSince(t0);
            double cpu = Proc.jvmCpuSeconds() - cpu0;
            double srv = t.serverCpu() - srv0;
            Scenarios.check(failures == 0, failures + " transactions failed");
            if (cache) {
                cacheHoldsWrites(c, n);
            }
            return new Measured(wall, cpu, srv);
        }
    }

    /**
     * Fails unless a cache-keeping client's cache holds what it wrote (its transactions completed,
     * so the server sent their updates first): {@code n} load balancers, each attached to the
     * router and the switch, whose cached {@code load_balancer} sets hold exactly those rows.
     */
    private static void cacheHoldsWrites(OvsdbClient c, int n) {
        Set<UUID> lbs = new HashSet<>();
        c.cache().table("Load_Balancer").rows().forEach(r -> lbs.add(r.uuid()));
        Scenarios.check(lbs.size() == n, "the cache has " + lbs.size() + " load balancers, expected " + n);
        for (String[] owner : List.of(new String[] {"Logical_Router", Scenarios.ROUTER}, new String[] {"Logical_Switch", Scenarios.SWITCH})) {
            Set<?> attached = c.cache().table(owner[0]).rows().stream().filter(r -> owner[1].equals(r.get("name")))
                    .map(r -> r.get("load_balancer")).filter(Set.class::isInstance).map(Set.class::cast).findFirst().orElse(Set.of());
            Scenarios.check(attached.size() == n && lbs.containsAll(attached),
                    "the cached " + owner[0] + " " + owner[1] + " has " + attached.size() + " load balancers attached, expected the " + n + " cached");
        }
    }

    private Measured odl(Target t, int n, int window, boolean monitor) {
        try (Target warm = new Standalone()) {
            List<String> command = new ArrayList<>(Scenarios.javaCommand());
            command.addAll(List.of("dev.ovnj.bench.odl.OdlPeer", "bulk", t.hostPort(), warm.hostPort(), String.valueOf(n),
                    String.valueOf(window), Scenarios.ROUTER, Scenarios.SWITCH, "odl-lb-", String.valueOf(monitor)));
            return peer(t, command);
        }
    }

    /** Runs a peer process; the server CPU includes its connect and initial sync (small here). */
    private Measured peer(Target t, List<String> command) {
        double srv0 = t.serverCpu();
        JsonNode r = s.peer(command);
        double srv = t.serverCpu() - srv0;
        Scenarios.check(r.path("failures").asInt(0) == 0, "peer reported failures: " + r);
        return new Measured(r.get("wall_s").asDouble(), r.get("cpu_s").asDouble(), srv);
    }
}
