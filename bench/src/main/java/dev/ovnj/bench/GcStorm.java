package dev.ovnj.bench;

import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Operations;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The incident ovnj exists for: another client deletes every owned load balancer in one
 * transaction, as a restarting controller's garbage collection does, and the engine must put all
 * of them back and attached. An observing client (its own connection) times each round from the
 * commit (the earlier of the deleting client's reply and the observer seeing the first delete)
 * until the observer's cache holds all {@code n} load balancers again and the group lists all of
 * them; every restored row's own time is kept for the latency distribution. The observer
 * monitors only the load balancers' names and the group's members: with whole rows the server
 * composed every change a second time for it and this JVM decoded every row again, about 0.07 s
 * of each 0.5 s round that was the harness's own cost, not the engine's.
 *
 * <p>Before the measured rounds come unmeasured storms on the same engine until the JIT has
 * settled ({@link JitWarmth}), as before every measured converge: {@code warm_storms} of them, the
 * first one's time kept as {@code cold_round_s}.
 *
 * <p>Results: scenario {@code gc-storm}, client {@code ovnj-engine}: {@code round1_s} ..
 * {@code round3_s}, {@code wall_s} (the slowest round), {@code cpu_s} and {@code server_cpu_s}
 * (mean per round, client CPU until the rows are back), {@code young_gcs} and {@code gc_ms} (the
 * young collections that fell inside the rounds, and their pauses: a round that pays for one
 * takes about that much longer), {@code txns} and {@code spec_plans} (mean per round: the
 * single-spec plans tell whether a slow round did more work or the same work more slowly),
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
             OvsdbClient observer = Scenarios.client(e.server.remote(), MonitorRequest.of(
                     TableMonitor.all("Load_Balancer").columns("name"),
                     TableMonitor.all("Load_Balancer_Group").columns("load_balancer")))) {
            List<LoadBalancerSpec> specs = Scenarios.specs(n, true);
            Scenarios.check(e.engine.apply(Scenarios.OWNER, specs).get(600, TimeUnit.SECONDS).allApplied(), "gc-storm: apply");
            deleter.startAndWait(Scenarios.WAIT);
            AtomicReference<Round> current = new AtomicReference<>();
            observer.cache().addListener(events -> {
                Round r = current.get();
                if (r != null) {
                    r.onEvents(events);
                }
            });
            observer.startAndWait(Scenarios.WAIT);
            Scenarios.check(observer.cache().table("Load_Balancer").size() == n, "gc-storm: observer does not see " + n + " rows");
            AtomicLong lastStart = new AtomicLong();
            // Storms before the measured rounds, on the same engine, until the JIT has settled: the
            // converge-group these rounds are compared with is measured warm too, and a cold first
            // round timed the compiler (the repair path runs only in a storm). The first one's time
            // is kept as cold_round_s.
            long repairs0 = e.engine.metrics().repairs();
            int warm = JitWarmth.warm(pass -> {
                System.out.println("  gc-storm warm storm " + pass + " (" + java.time.LocalTime.now() + ")");
                double secs = storm(deleter, current, n, lastStart).seconds;
                if (pass == 1) {
                    results.add("gc-storm", CLIENT, "cold_round_s", secs);
                }
                awaitRepairs(e, repairs0 + (long) pass * n);
                return secs;
            });
            results.add("gc-storm", CLIENT, "warm_storms", warm);
            // No collection here: round 1 starts as rounds 2 and 3 do, with the garbage of the storm
            // before it still on the heap.
            List<Double> all = new ArrayList<>();
            double slowest = 0;
            double cpuSum = 0;
            double srvSum = 0;
            long gcs = 0;
            long gcMs = 0;
            EngineMetrics before = e.engine.metrics();
            System.out.println("  gc-storm measured (" + java.time.LocalTime.now() + ")");
            for (int round = 1; round <= ROUNDS; round++) {
                double cpu0 = Proc.jvmCpuSeconds();
                double srv0 = Proc.cpuSeconds(e.server.pid());
                long[] gc0 = Proc.youngCollections();
                Storm storm = storm(deleter, current, n, lastStart);
                double cpu = Proc.jvmCpuSeconds() - cpu0;
                double srv = Proc.cpuSeconds(e.server.pid()) - srv0;
                long[] gc1 = Proc.youngCollections();
                gcs += gc1[0] - gc0[0];
                gcMs += gc1[1] - gc0[1];
                results.add("gc-storm", CLIENT, "round" + round + "_s", storm.seconds);
                slowest = Math.max(slowest, storm.seconds);
                cpuSum += cpu;
                srvSum += srv;
                all.addAll(storm.restoredMs);
                // The next storm comes a second after the rows are back, whether or not the engine
                // has finished its own bookkeeping of this one (a crash-looping controller does not wait).
                if (round < ROUNDS) {
                    Thread.sleep(1000);
                }
            }
            // settled_s: from the last storm's commit until the engine has recorded every repair of all
            // rounds (its loop is free again); txns are read only then, since the engine counts a
            // transaction on its loop after the rows are already back.
            long repaired = awaitRepairs(e, before.repairs() + (long) ROUNDS * n) - before.repairs();
            if (repaired < (long) ROUNDS * n) {
                results.note("gc-storm: the engine recorded only " + repaired + " repairs of " + ROUNDS * n + " within 600 s");
            }
            results.add("gc-storm", CLIENT, "settled_s", (System.nanoTime() - lastStart.get()) / 1e9);
            EngineMetrics after = e.engine.metrics();
            results.add("gc-storm", CLIENT, "wall_s", slowest);
            results.add("gc-storm", CLIENT, "cpu_s", cpuSum / ROUNDS);
            results.add("gc-storm", CLIENT, "server_cpu_s", srvSum / ROUNDS);
            results.add("gc-storm", CLIENT, "young_gcs", gcs);
            results.add("gc-storm", CLIENT, "gc_ms", gcMs);
            results.add("gc-storm", CLIENT, "txns", (double) (after.transactions() - before.transactions()) / ROUNDS);
            results.add("gc-storm", CLIENT, "spec_plans", (double) (after.specPlans() - before.specPlans()) / ROUNDS);
            results.samples("gc-storm", CLIENT, all.stream().mapToDouble(Double::doubleValue).toArray());
            double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            results.add("gc-storm", CLIENT, "p50_ms", Scenarios.percentile(sorted, 50));
            results.add("gc-storm", CLIENT, "p99_ms", Scenarios.percentile(sorted, 99));
            results.note(Proc.fmt("gc-storm: %d specs through a group; each round deletes all %d load balancers in one "
                    + "transaction; p50/p99 are per restored row, from the commit to the observer seeing it", n, n));
        }
    }

    /** One storm's time from its commit until all rows were back, and each restored row's time (ms). */
    private record Storm(double seconds, List<Double> restoredMs) {
    }

    /**
     * Deletes every load balancer in one transaction and waits until the observer sees all
     * {@code n} back and attached; {@code lastStart} gets the commit's time.
     */
    private static Storm storm(OvsdbClient deleter, AtomicReference<Round> current, int n,
            AtomicLong lastStart) throws Exception {
        Round r = new Round(n);
        current.set(r);
        var reply = deleter.transact(deleter.transaction().add(Operations.delete("Load_Balancer")).build())
                .get(Scenarios.WAIT.toSeconds(), TimeUnit.SECONDS);
        long replied = System.nanoTime();
        Scenarios.check(reply.results().size() == 1, "gc-storm: delete failed: " + reply);
        long end = r.done.get(600, TimeUnit.SECONDS);
        long start = Math.min(replied, r.firstDeleteAt);
        lastStart.set(start);
        current.set(null);
        List<Double> restored = new ArrayList<>();
        synchronized (r) {
            for (long t : r.restoredAt) {
                restored.add((t - start) / 1e6);
            }
        }
        return new Storm((end - start) / 1e9, restored);
    }

    /**
     * Waits (at most 600 s) until the engine has recorded {@code repairs} repairs in all, so its
     * loop is free again.
     *
     * @return the repairs it had recorded when the wait ended
     */
    private static long awaitRepairs(Scenarios.EngineSetup e, long repairs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
        while (e.engine.metrics().repairs() < repairs && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return e.engine.metrics().repairs();
    }
}
