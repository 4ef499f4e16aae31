package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.OWNER;
import static dev.ovnj.bench.Scenarios.WAIT;
import static dev.ovnj.bench.Scenarios.check;
import static dev.ovnj.bench.Scenarios.client;
import static dev.ovnj.bench.Scenarios.notApplied;
import static dev.ovnj.bench.Scenarios.percentile;
import static dev.ovnj.bench.Scenarios.secondsSince;
import static dev.ovnj.bench.Scenarios.specs;
import static dev.ovnj.bench.Scenarios.vip;

import dev.ovnj.bench.Scenarios.EngineSetup;
import dev.ovnj.bench.Scenarios.Sizes;
import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine scenarios: {@code engine-converge} and {@code engine-converge-group} (N specs from
 * empty, directly attached or through a group, each after {@link JitWarmth} warm passes, then
 * re-applied: {@code engine-reapply}, {@code engine-reapply-group}, which must send nothing),
 * {@code incremental} (single-backend upserts on the converged group, one at a time) and
 * {@code drift-repair} (a foreign client deletes or changes an owned row; the time until the
 * engine's repair is seen by an observer).
 */
final class EngineScenario {
    private final Scenarios s;
    private final Results results;
    private final Sizes sizes;

    EngineScenario(Scenarios s) {
        this.s = s;
        this.results = s.results();
        this.sizes = s.sizes();
    }

    void run() throws Exception {
        int n = sizes.get("engine");
        warmConverges("engine-converge", "ovnj-engine", n, false);
        try (EngineSetup e = new EngineSetup()) {
            converge(e, "engine-converge", "ovnj-engine", specs(n, false));
        }
        warmConverges("engine-converge-group", "ovnj-engine", n, true);
        try (EngineSetup e = new EngineSetup()) {
            List<LoadBalancerSpec> specs = specs(n, true);
            converge(e, "engine-converge-group", "ovnj-engine", specs);
            // Each collects the garbage of what came before (the converges, its own warm-up) right
            // before its measured part, so those young collections do not land in the latencies.
            incremental(e, specs, "incremental", "ovnj-engine");
            driftRepair(e, specs);
        }
    }

    /**
     * Brings the engine's code to its steady state before a measured converge, as bulk-create does
     * for its Java clients: full-size converges of the same specs (with or without the group), each
     * on a throw-away server and engine, until {@link JitWarmth} counts the JIT settled. Measured
     * cold, the converge of 10,000 specs in a group spent most of its client CPU compiling and
     * interpreting the engine, which is not what a long-running controller pays. The first pass's
     * wall time is kept as {@code cold_wall_s}, the number of passes as {@code warm_passes}.
     */
    private void warmConverges(String scenario, String client, int n, boolean group) throws Exception {
        JitWarmth.warm(pass -> {
            System.out.println("  " + scenario + " warm pass " + pass + " (" + java.time.LocalTime.now() + ")");
            List<LoadBalancerSpec> specs = specs(n, group);
            double wall;
            try (EngineSetup e = new EngineSetup()) {
                long t0 = System.nanoTime();
                var result = e.engine.apply(OWNER, specs).get(600, TimeUnit.SECONDS);
                wall = secondsSince(t0);
                check(result.allApplied(), scenario + " warm pass: not all applied: " + notApplied(result));
            }
            if (pass == 1) {
                results.add(scenario, client, "cold_wall_s", wall);
            }
            results.add(scenario, client, "warm_passes", pass);
            return wall;
        });
        // The passes' garbage is collected now, not on the measured converge's CPU time.
        Proc.usedHeapAfterGc();
    }

    /** Converges {@code specs} from empty, records it, then re-applies them (which must send nothing). */
    private void converge(EngineSetup e, String scenario, String client, List<LoadBalancerSpec> specs) throws Exception {
        Duration wait = Duration.ofSeconds(600);
        // The time lets a profile (bench/profile.sh) keep the measured converge only.
        System.out.println("  " + scenario + " measured (" + java.time.LocalTime.now() + ")");
        EngineMetrics m0 = e.engine.metrics();
        double srv0 = Proc.cpuSeconds(e.server.pid());
        double cpu0 = Proc.jvmCpuSeconds();
        double jit0 = JitWarmth.compileSeconds();
        long alloc0 = Proc.allocatedBytes();
        long t0 = System.nanoTime();
        var result = e.engine.apply(OWNER, specs).get(wait.toSeconds(), TimeUnit.SECONDS);
        double wall = secondsSince(t0);
        double jitMs = (JitWarmth.compileSeconds() - jit0) * 1e3;
        double cpu = Proc.jvmCpuSeconds() - cpu0;
        double allocMb = (Proc.allocatedBytes() - alloc0) / 1e6;
        double srv = Proc.cpuSeconds(e.server.pid()) - srv0;
        EngineMetrics m1 = e.engine.metrics();
        check(result.allApplied(), scenario + ": not all applied: " + notApplied(result));
        int rows = e.client.cache().table("Load_Balancer").size();
        check(rows == specs.size(), scenario + ": " + rows + " load balancers for " + specs.size() + " specs");
        results.add(scenario, client, "wall_s", wall);
        results.add(scenario, client, "cpu_s", cpu);
        results.add(scenario, client, "alloc_mb", allocMb);
        // Compiling during the converge is CPU the second core then lacks: near 0 shows it warm.
        results.add(scenario, client, "jit_ms", jitMs);
        results.add(scenario, client, "txns", m1.transactions() - m0.transactions());
        results.add(scenario, "ovsdb-server", "cpu_s", srv);
        System.out.printf(Locale.ROOT, "  %d plans, %d ops, last plan %d us%n", m1.plans() - m0.plans(),
                m1.operations() - m0.operations(), m1.lastPlanMicros());

        long t1 = System.nanoTime();
        e.engine.apply(OWNER, specs).get(wait.toSeconds(), TimeUnit.SECONDS);
        double reWall = secondsSince(t1);
        long again = e.engine.metrics().transactions() - m1.transactions();
        String re = scenario.replace("converge", "reapply");
        results.add(re, client, "txns", again);
        results.add(re, client, "wall_s", reWall);
        if (again != 0) {
            results.note(re + ": re-applying the same specs sent " + again + " transactions (expected 0)");
        }
    }

    /** Single-backend changes to random specs with {@code upsert}, one at a time. */
    private void incremental(EngineSetup e, List<LoadBalancerSpec> specs, String scenario, String client) throws Exception {
        // Measured at the change path's steady state, as every scale size is: right after the
        // converge, C2 was still compiling it, and the tail followed the JIT, not the engine.
        SpecChanges changes = new SpecChanges(e, specs);
        results.add(scenario, client, "warm_changes", changes.warmUp(sizes.get("warm-changes"), client));
        Proc.usedHeapAfterGc();
        EngineMetrics m0 = e.engine.metrics();
        s.latencies(scenario, client, changes.make(sizes.get("incremental")), true);
        results.add(scenario, client, "txns", e.engine.metrics().transactions() - m0.transactions());
    }

    /** Unmeasured drifts per warm round of drift-repair (fewer if {@code warm-changes} is small). */
    private static final int DRIFT_WARM_ROUND = 500;

    /** Makes {@code count} drifts, adding each one's latency (ms) to {@code lat}. */
    private interface DriftRun {
        void run(int count, List<Double> lat) throws Exception;
    }

    private void driftRepair(EngineSetup e, List<LoadBalancerSpec> specs) throws Exception {
        try (OvsdbClient writer = client(e.server.remote(), MonitorRequest.tables("NB_Global"));
             OvsdbClient observer = client(e.server.remote(), MonitorRequest.tables("Load_Balancer"))) {
            writer.startAndWait(WAIT);
            AtomicReference<java.util.function.Predicate<CacheEvent>> want = new AtomicReference<>();
            AtomicReference<CompletableFuture<Long>> seen = new AtomicReference<>();
            observer.cache().addListener(events -> {
                long now = System.nanoTime();
                java.util.function.Predicate<CacheEvent> p = want.get();
                CompletableFuture<Long> f = seen.get();
                if (p != null && f != null && events.stream().anyMatch(p)) {
                    f.complete(now);
                }
            });
            observer.startAndWait(WAIT);
            Random random = new Random(7);
            int[] early = {0};
            DriftRun drifts = (count, lat) -> {
                for (int k = 0; k < count; k++) {
                    int i = random.nextInt(specs.size());
                    String row = specs.get(i).name() + "-tcp";
                    String key = vip(i, 20);
                    boolean delete = k % 2 == 0;
                    Transaction tx;
                    if (delete) {
                        want.set(ev -> ev instanceof CacheEvent.Inserted ins && row.equals(ins.row().get("name")));
                        tx = writer.transaction().add(Operations.delete("Load_Balancer").where(Condition.eq("name", row))).build();
                    } else {
                        want.set(ev -> ev instanceof CacheEvent.Updated up && row.equals(up.newRow().get("name"))
                                && vips(up.newRow()).containsKey(key) && !vips(up.oldRow()).containsKey(key));
                        tx = writer.transaction().add(Operations.mutate("Load_Balancer").where(Condition.eq("name", row))
                                .mutation(Mutation.delete("vips", Set.of(key)))).build();
                    }
                    CompletableFuture<Long> restored = new CompletableFuture<>();
                    seen.set(restored);
                    AtomicLong committed = new AtomicLong();
                    var result = writer.transact(tx).whenComplete((r, err) -> committed.set(System.nanoTime()));
                    var r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    check(r.results().size() == 1, "drift transaction: " + r);
                    long at = restored.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    double ms = (at - committed.get()) / 1e6;
                    if (ms < 0) {
                        early[0]++;
                        ms = 0;
                    }
                    lat.add(ms);
                    want.set(null);
                    // Let the engine finish its pass (status bookkeeping) before the next drift.
                    Thread.sleep(5);
                }
            };
            // The repair path measured at its steady state, as the changes are: unmeasured rounds of
            // drifts until one compiles for under 2% of its wall (at least 2, at most 6 rounds).
            int warmRound = Math.max(1, Math.min(DRIFT_WARM_ROUND, sizes.get("warm-changes") / 10));
            int rounds = JitWarmth.warm(pass -> {
                long tw = System.nanoTime();
                drifts.run(warmRound, new ArrayList<>());
                return secondsSince(tw);
            }, 2, 6);
            results.add("drift-repair", "ovnj-engine", "warm_drifts", rounds * warmRound);
            early[0] = 0;
            Proc.usedHeapAfterGc();
            List<Double> lat = new ArrayList<>();
            int repairsBefore = e.repairs.size();
            drifts.run(sizes.get("drift"), lat);
            s.latencies("drift-repair", "ovnj-engine", lat, true);
            if (early[0] > 0) {
                results.note("drift-repair: in " + early[0] + " of " + sizes.get("drift") + " cases the observer saw the restore before "
                        + "the drifting client's own transact future completed; counted as 0 ms");
            }
            List<RepairEvent> all;
            synchronized (e.repairs) {
                all = new ArrayList<>(e.repairs);
            }
            List<Double> engineSide = all.subList(repairsBefore, all.size()).stream()
                    .map(ev -> ev.latency().toNanos() / 1e6).toList();
            results.note(Proc.fmt("drift-repair: the engine's own RepairEvent latency (drift seen -> repair cached): p50 %.2f ms, p99 %.2f ms over %d events",
                    percentile(engineSide.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 50),
                    percentile(engineSide.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 99), engineSide.size()));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> vips(Row row) {
        Object v = row.get("vips");
        return v instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
    }
}
