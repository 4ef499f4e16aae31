package dev.ovnj.bench;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.diagnosis.NorthboundFacts;
import dev.ovnj.lb.diagnosis.SouthboundFacts;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.InactivityTimeoutException;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Northd;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The figures issue 36 asks of each OVS/OVN release, and its probes-under-load check, on the release
 * the testkit runs ({@link OvnRelease#current()}: {@code OVNJ_RELEASE_ROOT} or the host):
 * <ul>
 *   <li>{@code sync=N}: a Northbound database of N load balancers (as the {@code sync} scenario
 *       seeds it) synced by a client with the engine's monitor, median of three after a warm-up;
 *       the heap the synced cache holds, after full collections.</li>
 *   <li>{@code central=N}: N owned load balancers on a router and a switch (the {@code doctor}
 *       scenario's topology) with a real ovn-northd producing the Southbound, both databases on
 *       unix sockets; then {@code runs} whole {@code ovnj doctor --sb} processes (time, and every
 *       inactivity-probe disconnect in their output) and {@code pairs} in-process syncs of a
 *       Northbound and a Southbound client started together, counting the probe disconnects
 *       either saw.</li>
 * </ul>
 * Not part of {@code bench/run.sh}: it needs minutes per release ({@code bench/releases.sh} runs it
 * per release and prints one line each).
 *
 * <p>Arguments: {@code [sync=N] [central=N] [ports=0|1] [runs=R] [pairs=R] [hold=SECONDS] [nb=REMOTE sb=REMOTE] [out=FILE]};
 * a zero size skips that part; {@code nb} and {@code sb} run the doctor runs and paired syncs against a
 * central that another run holds ({@code hold}), {@code central} then being its number of load balancers.
 */
public final class ReleaseLoad {
    private static final Duration NORTHD_WAIT = Duration.ofMinutes(30);
    private static final Duration SYNC_WAIT = Duration.ofMinutes(10);
    private static final int SYNC_RUNS = 3;
    /** Load balancers per seeding transaction: large transactions, as ovn-northd recomputes per commit. */
    private static final int PER_TX = 5_000;
    private static final String PROBE_MESSAGE = "InactivityProbe";
    private static final String OVNJ_PROPERTY = "release.ovnj";

    private ReleaseLoad() {
    }

    /**
     * Runs the parts the arguments ask for and prints (and optionally writes) the figures.
     *
     * @param args {@code key=value} sizes
     * @throws Exception when a part cannot run
     */
    public static void main(String[] args) throws Exception {
        Map<String, Integer> sizes = new LinkedHashMap<>(Map.of("sync", 50_000, "central", 10_000, "runs", 5, "pairs", 5,
                "hold", 0, "ports", 1));
        Path out = null;
        String nbRemote = null;
        String sbRemote = null;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("expected key=value, got " + a);
            }
            if (kv[0].equals("out")) {
                out = Path.of(kv[1]);
            } else if (kv[0].equals("nb")) {
                nbRemote = kv[1];
            } else if (kv[0].equals("sb")) {
                sbRemote = kv[1];
            } else if (sizes.containsKey(kv[0])) {
                sizes.put(kv[0], Integer.parseInt(kv[1]));
            } else {
                throw new IllegalArgumentException("unknown argument " + kv[0] + "; known: " + sizes.keySet() + ", out, nb, sb");
            }
        }
        OvnRelease release = OvnRelease.current();
        String label = "ovs " + release.ovsVersion() + " ovn " + release.ovnVersion();
        Results results = new Results(Scenarios.machine()).echo();
        results.note("release: " + label + " (" + release + ")");
        System.out.println("release-load " + sizes + " on " + label);
        try {
            if (sizes.get("sync") > 0) {
                sync(sizes.get("sync"), results);
            }
            if (nbRemote != null && sbRemote != null) {
                // A central another run holds: only the doctor runs and paired syncs, against it.
                doctorRuns(sizes.get("central"), sizes.get("runs"), nbRemote, sbRemote, results);
                pairedSyncs(sizes.get("central"), sizes.get("pairs"), nbRemote, sbRemote, results);
            } else if (sizes.get("central") > 0) {
                central(sizes.get("central"), sizes.get("ports") != 0, sizes.get("runs"), sizes.get("pairs"), sizes.get("hold"), results);
            }
            if (out != null) {
                Files.writeString(out, results.toJson(), StandardCharsets.UTF_8);
            }
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        // Closed clients' threads must not keep the JVM alive.
        System.exit(0);
    }

    /** Northbound sync time and heap at {@code n} load balancers. */
    static void sync(int n, Results results) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            try (OvsdbClient writer = Scenarios.client(server.remote(), MonitorRequest.tables("NB_Global"))) {
                writer.startAndWait(Scenarios.WAIT);
                int failures = Scenarios.pipelined(writer, (n + 999) / 1000, 4, t -> {
                    Transaction.Builder b = writer.transaction();
                    for (int i = t * 1000; i < Math.min(n, (t + 1) * 1000); i++) {
                        b.add(Operations.insert("Load_Balancer").value("name", "sync-lb-" + i)
                                .value("vips", Map.of(Scenarios.vip(i, 18), Scenarios.backends(i, 10, 0)))
                                .value("protocol", Set.of("tcp")));
                    }
                    return b.build();
                });
                Scenarios.check(failures == 0, "populating the sync database failed");
            }
            // One unmeasured sync warms the decoder and the engine.
            awaitCollected(syncOnce(server, n, new double[2]));
            double[] seconds = new double[SYNC_RUNS];
            double[] heapMb = new double[SYNC_RUNS];
            for (int k = 0; k < SYNC_RUNS; k++) {
                double[] r = new double[2];
                awaitCollected(syncOnce(server, n, r));
                seconds[k] = r[0];
                heapMb[k] = r[1];
            }
            Arrays.sort(seconds);
            Arrays.sort(heapMb);
            results.add("release-sync", "ovnj-engine", "sync_s", Scenarios.percentile(seconds, 50));
            results.add("release-sync", "ovnj-engine", "heap_mb", Scenarios.percentile(heapMb, 50));
            results.note(Proc.fmt("release-sync: %d load balancers (10 backends each, as the sync scenario), a client with"
                    + " the engine, median of %d syncs; heap_mb: used heap after full collections with the engine synced and idle,"
                    + " minus before", n, SYNC_RUNS));
        }
    }

    /**
     * One sync of a new client with the engine: {@code out[0]} its seconds, {@code out[1]} the heap
     * it holds (MB). Returns a reference to its cache, to wait for its collection before the next.
     */
    private static WeakReference<Object> syncOnce(OvsdbServer server, int n, double[] out) throws Exception {
        long heap0 = Proc.usedHeapAfterGc();
        long t0 = System.nanoTime();
        OvsdbClient c = Scenarios.client(server.remote(), LoadBalancerEngine.monitorRequest());
        LoadBalancerEngine engine = LoadBalancerEngine.builder(c).build().start();
        try {
            c.startAndWait(SYNC_WAIT);
            out[0] = Scenarios.secondsSince(t0);
            Scenarios.check(c.cache().table("Load_Balancer").size() == n, "sync: not every load balancer in the cache");
            // The engine maps the sync's events on its own thread after startAndWait returns.
            Proc.awaitThreadsQuiet("ovnj-engine");
            out[1] = (Proc.usedHeapAfterGc() - heap0) / 1e6;
        } finally {
            engine.close();
            c.close();
        }
        return new WeakReference<>(c.cache());
    }

    /** Waits (15 s at most) until a closed client's cache is collected, so that the next heap baseline excludes it. */
    private static void awaitCollected(WeakReference<Object> ref) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(200);
        }
        Scenarios.check(ref.get() == null, "release-sync: a closed client's cache was still reachable after 15 s");
    }

    /** ovn-northd between two unix-socket databases with {@code n} load balancers; doctor runs and paired syncs. */
    static void central(int n, boolean ports, int runs, int pairs, int holdSeconds, Results results) throws Exception {
        Path dir = Files.createTempDirectory("ovnj-release-load-");
        try (OvsdbServer nb = OvsdbServer.builder().unixSocket(true).start();
             OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).unixSocket(true).start()) {
            Northd northd = Northd.start(nb, sb);
            String nbRemote = nb.unixRemote().orElseThrow();
            String sbRemote = sb.unixRemote().orElseThrow();
            seed(nb, sb, n, ports);
            long t0 = System.nanoTime();
            waitForNorthd(nb);
            results.add("release-central", "ovn-northd", "translate_s", Scenarios.secondsSince(t0));
            results.add("release-central", "ovsdb-server", "sb_file_mb", Files.size(sb.databaseFile()) / 1e6);
            // ovn-northd stays connected, as in a deployment, but idle: nothing changes from here on.
            try {
                doctorRuns(n, runs, nbRemote, sbRemote, results);
                pairedSyncs(n, pairs, nbRemote, sbRemote, results);
                hold(holdSeconds, nbRemote, sbRemote);
            } finally {
                northd.close();
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Keeps the central running for other processes (nb=... sb=... runs of this class, a profiler)
     * until the time is up or the file {@code /tmp/ovnj-release-load.stop} appears: seeding 100,000
     * load balancers and their translation take longer than the runs against them.
     */
    private static void hold(int seconds, String nbRemote, String sbRemote) throws InterruptedException {
        if (seconds <= 0) {
            return;
        }
        Path stop = Path.of("/tmp/ovnj-release-load.stop");
        System.out.println("  holding nb=" + nbRemote + " sb=" + sbRemote + " for " + seconds + " s (or until " + stop + " exists)");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end && !Files.exists(stop)) {
            Thread.sleep(1000);
        }
    }

    /** The doctor scenario's router and switch, the gateway bound while the Southbound is small, then n load balancers. */
    private static void seed(OvsdbServer nb, OvsdbServer sb, int n, boolean ports) throws InterruptedException {
        Command.of("ovn-nbctl", "--db=" + nb.remote(), "lr-add", "lr0",
                "--", "lrp-add", "lr0", "lrp-ext", "00:00:00:00:01:01", "172.20.0.1/16",
                "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/8",
                "--", "lrp-set-gateway-chassis", "lrp-ext", "gw1", "10",
                "--", "ls-add", "ls0", "--", "lsp-add", "ls0", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int").check();
        Command.of("ovn-sbctl", "--db=" + sb.remote(), "chassis-add", "gw1", "geneve", "127.0.0.1").check();
        waitForNorthd(nb);
        Command.of("ovn-sbctl", "--db=" + sb.remote(), "lsp-bind", "cr-lrp-ext", "gw1").check();
        long t0 = System.nanoTime();
        try (OvsdbClient writer = Scenarios.client(nb.remote(), MonitorRequest.tables("NB_Global"))) {
            writer.startAndWait(Scenarios.WAIT);
            int failures = Scenarios.pipelined(writer, (n + PER_TX - 1) / PER_TX, 1, t -> seedTx(writer, t * PER_TX, Math.min(n, (t + 1) * PER_TX), ports));
            Scenarios.check(failures == 0, "release-central: seeding failed");
        }
        System.out.printf(Locale.ROOT, "  seeded %d load balancers in %.1f s%n", n, Scenarios.secondsSince(t0));
    }

    /**
     * Owned load balancers {@code from..to-1} on lr0 and ls0, each with a port on ls0 holding its
     * three backends; without {@code ports} on ls0 only and without ports, a lighter load for
     * ovn-northd (100,000 with ports took it more than 30 minutes on the shared 2-core machine).
     */
    private static Transaction seedTx(OvsdbClient c, int from, int to, boolean withPorts) {
        Transaction.Builder b = c.transaction();
        Set<Object> lbs = new HashSet<>();
        Set<Object> ports = new HashSet<>();
        for (int i = from; i < to; i++) {
            String[] backends = Scenarios.backends(i, 3, 0).split(",");
            String ips = String.join(" ", Arrays.stream(backends).map(x -> x.substring(0, x.indexOf(':'))).toList());
            Insert lb = Operations.insert("Load_Balancer").uuidName("lb" + i)
                    .value("name", "svc-" + i + "-tcp")
                    .value("vips", Map.of(Scenarios.vip(i, 20), String.join(",", backends)))
                    .value("protocol", Set.of("tcp"))
                    .value("external_ids", Map.of("ovnj.owner", Scenarios.OWNER, "ovnj.spec", "svc-" + i));
            Insert port = Operations.insert("Logical_Switch_Port").uuidName("port" + i)
                    .value("name", "p" + i)
                    .value("addresses", Set.of(String.format(Locale.ROOT, "0a:%02x:%02x:%02x:%02x:01 %s",
                            (i >> 24) & 0xff, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff, ips)));
            b.add(lb);
            lbs.add(lb.reference());
            if (withPorts) {
                b.add(port);
                ports.add(port.reference());
            }
        }
        if (!withPorts) {
            return b.add(Operations.mutate("Logical_Switch").where(Condition.eq("name", "ls0"))
                    .mutation(Mutation.insert("load_balancer", lbs))).build();
        }
        return b.add(Operations.mutate("Logical_Router").where(Condition.eq("name", "lr0"))
                        .mutation(Mutation.insert("load_balancer", lbs)))
                .add(Operations.mutate("Logical_Switch").where(Condition.eq("name", "ls0"))
                        .mutation(Mutation.insert("load_balancer", lbs))
                        .mutation(Mutation.insert("ports", ports)))
                .build();
    }

    private static void waitForNorthd(OvsdbServer nb) {
        Command.of("ovn-nbctl", "--db=" + nb.remote(), "--timeout=" + NORTHD_WAIT.toSeconds(), "--wait=sb", "sync")
                .timeout(NORTHD_WAIT.plusMinutes(1)).check();
    }

    /** Whole {@code ovnj doctor --sb} processes: wall time, exit codes, probe disconnects in their output. */
    private static void doctorRuns(int n, int runs, String nbRemote, String sbRemote, Results results) throws Exception {
        if (runs <= 0) {
            return;
        }
        List<Double> ok = new ArrayList<>();
        int failed = 0;
        int probeClosures = 0;
        for (int k = 0; k < runs; k++) {
            Path log = Files.createTempFile("ovnj-release-doctor", ".txt");
            try {
                List<String> command = new ArrayList<>(ovnjCommand());
                command.addAll(List.of("doctor", "--db", nbRemote, "--sb", sbRemote, "--timeout", String.valueOf(SYNC_WAIT.toSeconds())));
                ProcessBuilder pb = new ProcessBuilder(command)
                        .redirectErrorStream(true).redirectOutput(log.toFile());
                pb.environment().remove("OVN_NB_DAEMON");
                long t0 = System.nanoTime();
                Process p = pb.start();
                p.getOutputStream().close();
                if (!p.waitFor(20, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("ovnj doctor did not finish within 20 minutes");
                }
                double wall = Scenarios.secondsSince(t0);
                String text = Files.readString(log, StandardCharsets.UTF_8);
                int closures = (int) text.lines().filter(l -> l.contains(PROBE_MESSAGE) && l.contains("closing connection")).count();
                probeClosures += closures;
                boolean healthy = p.exitValue() == 0 && text.contains(n + " load balancers");
                System.out.printf(Locale.ROOT, "  doctor run %d: exit %d, %.1f s, %d probe closures%n", k + 1, p.exitValue(), wall, closures);
                if (healthy) {
                    ok.add(wall);
                } else {
                    failed++;
                    System.out.println("  doctor output: " + text.lines().filter(l -> !l.isBlank()).limit(12).toList());
                }
            } finally {
                Files.deleteIfExists(log);
            }
        }
        double[] walls = ok.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (walls.length > 0) {
            results.add("release-doctor", "ovnj", "wall_s", Scenarios.percentile(walls, 50));
        }
        results.add("release-doctor", "ovnj", "runs", runs);
        results.add("release-doctor", "ovnj", "failed_runs", failed);
        results.add("release-doctor", "ovnj", "probe_closures", probeClosures);
        results.note(Proc.fmt("release-doctor: `ovnj doctor --db unix:NB --sb unix:SB` on %d load balancers with ovn-northd's"
                + " Southbound, whole processes; wall_s: median of the healthy runs", n));
    }

    /**
     * The {@code ovnj} command: the launcher, or the command line in the system property
     * {@value #OVNJ_PROPERTY} (split at spaces), e.g. {@code java -jar /tmp/ovnj-before.jar} to
     * measure a build kept aside while the worktree changes.
     */
    private static List<String> ovnjCommand() {
        String p = System.getProperty(OVNJ_PROPERTY, "");
        return p.isBlank() ? List.of(CliStartupScenario.launcher()) : List.of(p.trim().split(" +"));
    }

    /** A Northbound and a Southbound client started together in one process, as a controller that checks both does. */
    private static void pairedSyncs(int n, int pairs, String nbRemote, String sbRemote, Results results) {
        if (pairs <= 0) {
            return;
        }
        AtomicInteger probeClosures = new AtomicInteger();
        double[] seconds = new double[pairs];
        for (int k = 0; k < pairs; k++) {
            long t0 = System.nanoTime();
            // The request timeout is raised so that only the probe can cut a sync short: ovsdb-server
            // needs more than the default 30 s to compose a 100,000-load-balancer Southbound dump here.
            try (OvsdbClient nb = OvsdbClient.builder().remotes(nbRemote).monitor(NorthboundFacts.monitorRequest())
                         .requestTimeout(SYNC_WAIT).build();
                 OvsdbClient sb = OvsdbClient.builder().remotes(sbRemote).database("OVN_Southbound")
                         .monitor(SouthboundFacts.monitorRequest()).requestTimeout(SYNC_WAIT).build()) {
                for (OvsdbClient c : List.of(nb, sb)) {
                    c.addConnectionListener(e -> {
                        if (e.kind() == ConnectionEvent.Kind.DISCONNECTED && e.cause().filter(InactivityTimeoutException.class::isInstance).isPresent()) {
                            probeClosures.incrementAndGet();
                        }
                    });
                }
                CompletableFuture.allOf(nb.start(), sb.start()).get(SYNC_WAIT.toSeconds(), TimeUnit.SECONDS);
                seconds[k] = Scenarios.secondsSince(t0);
                Scenarios.check(nb.cache().table("Load_Balancer").size() >= n, "paired sync: Northbound load balancers missing");
                System.out.printf(Locale.ROOT, "  paired sync %d: %.1f s, %d SB logical flows, %d probe closures so far%n", k + 1, seconds[k],
                        sb.cache().table("Logical_Flow").size(), probeClosures.get());
            } catch (Exception e) {
                throw new IllegalStateException("paired sync " + (k + 1) + " failed", e);
            }
        }
        Arrays.sort(seconds);
        results.add("release-pair", "ovnj", "sync_s", Scenarios.percentile(seconds, 50));
        results.add("release-pair", "ovnj", "runs", pairs);
        results.add("release-pair", "ovnj", "probe_closures", probeClosures.get());
    }
}
