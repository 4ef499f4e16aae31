package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.WAIT;
import static dev.ovnj.bench.Scenarios.backends;
import static dev.ovnj.bench.Scenarios.check;
import static dev.ovnj.bench.Scenarios.client;
import static dev.ovnj.bench.Scenarios.javaCommand;
import static dev.ovnj.bench.Scenarios.pipelined;
import static dev.ovnj.bench.Scenarios.secondsSince;
import static dev.ovnj.bench.Scenarios.vip;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.bench.Scenarios.Sizes;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.ClientStats;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The sync scenario: one server holding {@code sync} load balancers, synced by each client
 * {@link #SYNC_RUNS} times; each figure is the median, with the fastest and slowest sync as
 * {@code sync_s_min}/{@code sync_s_max}. The Java clients are first warmed with full-size syncs
 * until {@link JitWarmth} counts them warm (ovnj here, OpenDaylight in its own JVM). A client
 * that parses nothing ({@code ovsdb-server-sync}, a {@link DrainingMonitor} with ovnj's
 * request) gives the server's share: the time to the first and the last byte of the reply.
 * ovnj's timeline: {@code handshake_s} (connect, {@code _Server} check, s.schema(); a client that
 * monitors nothing), {@code sync_s} (reply received, parsed, cache built), {@code engine_idle_s}
 * (the engine has mapped the sync's rows).
 */
final class SyncScenario {
    private final Scenarios s;
    private final Results results;
    private final Sizes sizes;

    SyncScenario(Scenarios s) {
        this.s = s;
        this.results = s.results();
        this.sizes = s.sizes();
    }

    /** Measured syncs per client in the sync scenario; each figure is their median. */
    static final int SYNC_RUNS = 3;

    void run() throws Exception {
        int n = sizes.get("sync");
        try (OvsdbServer server = OvsdbServer.start()) {
            try (OvsdbClient writer = client(server.remote(), MonitorRequest.tables("NB_Global"))) {
                writer.startAndWait(WAIT);
                long t0 = System.nanoTime();
                int per = 1000;
                int failures = pipelined(writer, (n + per - 1) / per, 4, t -> {
                    Transaction.Builder b = writer.transaction();
                    for (int i = t * per; i < Math.min(n, (t + 1) * per); i++) {
                        b.add(Operations.insert("Load_Balancer").value("name", "sync-lb-" + i)
                                .value("vips", Map.of(vip(i, 18), backends(i, 10, 0)))
                                .value("protocol", Set.of("tcp")));
                    }
                    return b.build();
                });
                check(failures == 0, "populating the sync database failed");
                System.out.printf(Locale.ROOT, "  populated %d load balancers in %.1f s%n", n, secondsSince(t0));
            }
            syncOvnj(server, n);
            syncServerShare(server, n);
            syncPython(server, n);
            syncOdl(server, n);
        }
    }

    /** The sync of a client that parses nothing: the server's serialisation and the transfer. */
    private void syncServerShare(OvsdbServer server, int n) {
        DatabaseSchema db = DatabaseSchema.parse(s.schema());
        SyncRuns runs = new SyncRuns("ovsdb-server-sync");
        for (int k = 0; k < SYNC_RUNS; k++) {
            double srv0 = Proc.cpuSeconds(server.pid());
            try (DrainingMonitor raw = DrainingMonitor.open(server.port(), db, LoadBalancerEngine.monitorRequest())) {
                runs.add("sync_s", raw.replySeconds());
                runs.add("first_byte_s", raw.firstByteSeconds());
                runs.add("json_bytes_per_row", raw.replyBytes() / (double) n);
                runs.add("server_cpu_s", Proc.cpuSeconds(server.pid()) - srv0);
            }
        }
        runs.record();
    }

    /**
     * ovnj with the engine: warm passes, then {@link #SYNC_RUNS} measured syncs, each from a new
     * client whose predecessor's cache has been collected, each with its heap and timeline.
     */
    private void syncOvnj(OvsdbServer server, int n) throws Exception {
        int passes = JitWarmth.warm(pass -> {
            long t0 = System.nanoTime();
            // In its own method: a dead local in this (interpreted) frame would keep the client alive.
            awaitCollected(warmSync(server.remote()), "the warm-up client's cache");
            return secondsSince(t0);
        });
        SyncRuns runs = new SyncRuns("ovnj-engine");
        for (int k = 0; k < SYNC_RUNS; k++) {
            awaitCollected(syncOvnjOnce(server, n, runs, k == 0), "the engine client's cache");
            // The timeline's first step: connect and handshake (a client monitoring no table).
            long t0 = System.nanoTime();
            try (OvsdbClient bare = client(server.remote(), MonitorRequest.of())) {
                bare.startAndWait(WAIT);
                runs.add("handshake_s", secondsSince(t0));
            }
        }
        runs.record();
        results.add("sync", "ovnj-engine", "warm_passes", passes);
        results.add("sync", "ovnj-engine", "rss_growth_mb", runs.rssGrowthOfFirst);
        // The same without the engine, to separate the engine's cache indexes from the rows.
        long bare0 = Proc.usedHeapAfterGc();
        try (OvsdbClient bare = client(server.remote(), LoadBalancerEngine.monitorRequest())) {
            bare.startAndWait(WAIT);
            long bare1 = Proc.usedHeapAfterGc();
            results.add("sync", "ovnj-engine", "heap_bytes_per_row_without_engine_indexes",
                    (bare1 - bare0) / (double) bare.cache().table("Load_Balancer").size());
        }
    }

    private java.lang.ref.WeakReference<Object> syncOvnjOnce(OvsdbServer server, int n, SyncRuns runs, boolean first)
            throws Exception {
        long heap0 = Proc.usedHeapAfterGc();
        double rss0 = Proc.rssMb();
        double cpu0 = Proc.jvmCpuSeconds();
        double srv0 = Proc.cpuSeconds(server.pid());
        long t0 = System.nanoTime();
        OvsdbClient c = client(server.remote(), LoadBalancerEngine.monitorRequest());
        LoadBalancerEngine engine = LoadBalancerEngine.builder(c).build().start();
        try {
            c.startAndWait(WAIT);
            double wall = secondsSince(t0);
            double cpu = Proc.jvmCpuSeconds() - cpu0;
            double srv = Proc.cpuSeconds(server.pid()) - srv0;
            int rows = c.cache().table("Load_Balancer").size();
            check(rows == n, "ovnj synced " + rows + " rows");
            runs.add("sync_s", wall);
            runs.add("cpu_s", cpu);
            // The engine maps the sync's events on its own thread after startAndWait returns;
            // measured while it still runs, the figure counted its garbage (3,428 B/row at 50,000).
            Proc.awaitThreadsQuiet("ovnj-engine");
            // awaitThreadsQuiet returns 300 ms (+ one 50 ms poll) after the engine's last CPU use.
            runs.add("engine_idle_s", Math.max(wall, secondsSince(t0) - 0.3));
            long heap1 = Proc.usedHeapAfterGc();
            double rss1 = Proc.rssMb();
            ClientStats st = c.stats();
            runs.add("heap_bytes_per_row", (heap1 - heap0) / (double) rows);
            runs.add("json_bytes_per_row", st.lastSyncBytes() / (double) rows);
            if (first) {
                // Later syncs reuse the pages the first one touched: only the first shows growth.
                runs.rssGrowthOfFirst = rss1 - rss0;
            }
            runs.add("server_cpu_s", srv);
        } finally {
            engine.close();
            c.close();
        }
        return new java.lang.ref.WeakReference<>(c.cache());
    }

    private void syncPython(OvsdbServer server, int n) {
        SyncRuns runs = new SyncRuns("python-idl");
        for (int k = 0; k < SYNC_RUNS; k++) {
            double srv0 = Proc.cpuSeconds(server.pid());
            JsonNode py = s.peer(List.of("/usr/bin/python3", s.peers().resolve("python_idl.py").toString(), "sync",
                    server.remote(), s.schema().toString()));
            double srv = Proc.cpuSeconds(server.pid()) - srv0;
            check(py.get("rows").asInt() == n, "python synced " + py);
            runs.add("sync_s", py.get("sync_s").asDouble());
            runs.add("cpu_s", py.get("cpu_s").asDouble());
            runs.add("rss_growth_mb", py.get("rss_growth_mb").asDouble());
            runs.add("server_cpu_s", srv);
        }
        runs.record();
    }

    private void syncOdl(OvsdbServer server, int n) {
        try {
            List<String> command = new ArrayList<>(javaCommand());
            command.addAll(List.of("dev.ovnj.bench.odl.OdlPeer", "sync", "127.0.0.1:" + server.port(), String.valueOf(SYNC_RUNS)));
            double srv0 = Proc.cpuSeconds(server.pid());
            JsonNode odl = s.peer(command);
            double srv = Proc.cpuSeconds(server.pid()) - srv0;
            check(odl.get("rows").asInt() == n, "odl synced " + odl);
            results.add("sync", "odl", "sync_s", odl.get("sync_s").asDouble());
            results.add("sync", "odl", "sync_s_min", odl.get("sync_s_min").asDouble());
            results.add("sync", "odl", "sync_s_max", odl.get("sync_s_max").asDouble());
            results.add("sync", "odl", "cpu_s", odl.get("cpu_s").asDouble());
            results.add("sync", "odl", "heap_bytes_per_row", odl.get("heap_bytes_per_row").asDouble());
            results.add("sync", "odl", "warm_passes", odl.get("warm_passes").asDouble());
            // The driver's warm-up and measured syncs all ran against the server: the mean per sync.
            results.add("sync-server", "odl", "cpu_s", srv / odl.get("syncs").asInt());
        } catch (RuntimeException e) {
            results.note("sync odl FAILED: " + e);
            e.printStackTrace();
        }
    }

    /** The measured syncs of one client: each metric's median goes to the table, sync_s with its spread. */
    private final class SyncRuns {
        private final String client;
        private final Map<String, List<Double>> values = new java.util.LinkedHashMap<>();
        /** ovnj's RSS growth in its first measured sync (later ones reuse the pages it touched). */
        double rssGrowthOfFirst;

        SyncRuns(String client) {
            this.client = client;
        }

        void add(String metric, double value) {
            values.computeIfAbsent(metric, m -> new ArrayList<>()).add(value);
        }

        void record() {
            values.forEach((metric, v) -> {
                double[] sorted = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                double median = sorted[sorted.length / 2];
                if (metric.equals("server_cpu_s")) {
                    results.add("sync-server", client, "cpu_s", median);
                } else {
                    results.add("sync", client, metric, median);
                }
                if (metric.equals("sync_s")) {
                    results.add("sync", client, "sync_s_min", sorted[0]);
                    results.add("sync", client, "sync_s_max", sorted[sorted.length - 1]);
                }
            });
        }
    }

    private static java.lang.ref.WeakReference<Object> warmSync(String remote) {
        OvsdbClient warm = client(remote, LoadBalancerEngine.monitorRequest());
        LoadBalancerEngine engine = LoadBalancerEngine.builder(warm).build().start();
        try {
            warm.startAndWait(WAIT);
            Proc.awaitThreadsQuiet("ovnj-engine");
        } finally {
            engine.close();
            warm.close();
        }
        return new java.lang.ref.WeakReference<>(warm.cache());
    }

    /** Waits until a closed client's cache is garbage; notes it when it stays reachable. */
    private void awaitCollected(java.lang.ref.WeakReference<Object> ref, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(200);
        }
        if (ref.get() != null) {
            results.note("sync: " + what + " was still reachable 15 s after close(); heap baselines include it");
        }
    }
}
