package dev.ovnj.bench;

import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Operations;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The incident ovnj exists for: another client deletes every owned load balancer in one
 * transaction, as a restarting controller's garbage collection does, and the engine must put all
 * of them back and attached. An observing client (its own connection) times each round from the
 * commit (the earlier of the deleting client's reply and the observer seeing the first delete)
 * until the observer's cache holds all {@code n} load balancers again and the group lists all of
 * them; every restored row's own time is kept for the latency distribution.
 *
 * <p>Results: scenario {@code gc-storm}, client {@code ovnj-engine}: {@code round1_s} ..
 * {@code round3_s}, {@code wall_s} (the slowest round), {@code cpu_s} and {@code server_cpu_s}
 * (mean per round, client CPU until the rows are back), {@code txns} (mean per round),
 * {@code settled_s} (from the last storm's commit until the engine has recorded every repair),
 * {@code p50_ms}/{@code p99_ms} per restored row.
 */
final class GcStorm {
    static final int ROUNDS = 3;
    private static final String CLIENT = "ovnj-engine";

    private final Scenarios s;
    private final Results results;

    GcStorm(Scenarios s) {
        this.s = s;
        this.results = s.results();
    }

    /** What the observer saw in one round. */
    private static final class Round {
        final int n;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final List<Long> restoredAt = new ArrayList<>();
        volatile long firstDeleteAt;
        int lbRows;
        int attached;

        Round(int n) {
            this.n = n;
            this.lbRows = n;
            this.attached = n;
        }

        // Called on the observer's callback thread only.
        synchronized void onEvents(List<CacheEvent> events) {
            long now = System.nanoTime();
            for (CacheEvent ev : events) {
                if (ev instanceof CacheEvent.Deleted d && d.table().equals("Load_Balancer")) {
                    if (firstDeleteAt == 0) {
                        firstDeleteAt = now;
                    }
                    lbRows--;
                } else if (ev instanceof CacheEvent.Inserted ins && ins.table().equals("Load_Balancer")) {
                    lbRows++;
                    restoredAt.add(now);
                } else if (ev instanceof CacheEvent.Updated up && up.table().equals("Load_Balancer_Group")) {
                    attached = sizeOf(up.newRow());
                }
            }
            if (firstDeleteAt != 0 && lbRows == n && attached == n) {
                done.complete(now);
            }
        }

        private static int sizeOf(Row group) {
            return group.get("load_balancer") instanceof Set<?> set ? set.size() : 0;
        }
    }

    void run() throws Exception {
        int n = s.sizes().get("gc");
        try (Scenarios.EngineSetup e = new Scenarios.EngineSetup();
             OvsdbClient deleter = Scenarios.client(e.server.remote(), MonitorRequest.of());
             OvsdbClient observer = Scenarios.client(e.server.remote(), MonitorRequest.tables("Load_Balancer", "Load_Balancer_Group"))) {
            List<LoadBalancerSpec> specs = Scenarios.specs(n, true);
            Scenarios.check(e.engine.apply(Scenarios.OWNER, specs).get(600, TimeUnit.SECONDS).allApplied(), "gc-storm: apply");
            deleter.startAndWait(Scenarios.WAIT);
            java.util.concurrent.atomic.AtomicReference<Round> current = new java.util.concurrent.atomic.AtomicReference<>();
            observer.cache().addListener(events -> {
                Round r = current.get();
                if (r != null) {
                    r.onEvents(events);
                }
            });
            observer.startAndWait(Scenarios.WAIT);
            Scenarios.check(observer.cache().table("Load_Balancer").size() == n, "gc-storm: observer does not see " + n + " rows");
            List<Double> all = new ArrayList<>();
            double slowest = 0;
            double cpuSum = 0;
            double srvSum = 0;
            EngineMetrics before = e.engine.metrics();
            long lastStart = 0;
            for (int round = 1; round <= ROUNDS; round++) {
                Round r = new Round(n);
                current.set(r);
                double cpu0 = Proc.jvmCpuSeconds();
                double srv0 = Proc.cpuSeconds(e.server.pid());
                var reply = deleter.transact(deleter.transaction().add(Operations.delete("Load_Balancer")).build())
                        .get(Scenarios.WAIT.toSeconds(), TimeUnit.SECONDS);
                long replied = System.nanoTime();
                Scenarios.check(reply.results().size() == 1, "gc-storm: delete failed: " + reply);
                long end = r.done.get(600, TimeUnit.SECONDS);
                long start = Math.min(replied, r.firstDeleteAt);
                lastStart = start;
                double secs = (end - start) / 1e9;
                double cpu = Proc.jvmCpuSeconds() - cpu0;
                double srv = Proc.cpuSeconds(e.server.pid()) - srv0;
                current.set(null);
                results.add("gc-storm", CLIENT, "round" + round + "_s", secs);
                slowest = Math.max(slowest, secs);
                cpuSum += cpu;
                srvSum += srv;
                synchronized (r) {
                    for (long t : r.restoredAt) {
                        all.add((t - start) / 1e6);
                    }
                }
                // The next storm comes a second after the rows are back, whether or not the engine
                // has finished its own bookkeeping of this one (a crash-looping controller does not wait).
                if (round < ROUNDS) {
                    Thread.sleep(1000);
                }
            }
            // settled_s: from the last storm's commit until the engine has recorded every repair of all
            // rounds (its loop is free again); txns are read only then, since the engine counts a
            // transaction on its loop after the rows are already back.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
            while (e.engine.metrics().repairs() - before.repairs() < (long) ROUNDS * n && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long repaired = e.engine.metrics().repairs() - before.repairs();
            if (repaired < (long) ROUNDS * n) {
                results.note("gc-storm: the engine recorded only " + repaired + " repairs of " + ROUNDS * n + " within 600 s");
            }
            results.add("gc-storm", CLIENT, "settled_s", (System.nanoTime() - lastStart) / 1e9);
            EngineMetrics after = e.engine.metrics();
            results.add("gc-storm", CLIENT, "wall_s", slowest);
            results.add("gc-storm", CLIENT, "cpu_s", cpuSum / ROUNDS);
            results.add("gc-storm", CLIENT, "server_cpu_s", srvSum / ROUNDS);
            results.add("gc-storm", CLIENT, "txns", (double) (after.transactions() - before.transactions()) / ROUNDS);
            results.samples("gc-storm", CLIENT, all.stream().mapToDouble(Double::doubleValue).toArray());
            double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            results.add("gc-storm", CLIENT, "p50_ms", Scenarios.percentile(sorted, 50));
            results.add("gc-storm", CLIENT, "p99_ms", Scenarios.percentile(sorted, 99));
            results.note(Proc.fmt("gc-storm: %d specs through a group; each round deletes all %d load balancers in one "
                    + "transaction; p50/p99 are per restored row, from the commit to the observer seeing it", n, n));
        }
    }
}
