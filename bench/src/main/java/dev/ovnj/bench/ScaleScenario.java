package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.OWNER;
import static dev.ovnj.bench.Scenarios.WAIT;
import static dev.ovnj.bench.Scenarios.check;
import static dev.ovnj.bench.Scenarios.client;
import static dev.ovnj.bench.Scenarios.label;
import static dev.ovnj.bench.Scenarios.notApplied;
import static dev.ovnj.bench.Scenarios.percentile;
import static dev.ovnj.bench.Scenarios.secondsSince;
import static dev.ovnj.bench.Scenarios.specs;

import dev.ovnj.bench.Scenarios.EngineSetup;
import dev.ovnj.bench.Scenarios.Sizes;
import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The scale scenario, the scale curve: each size measured by {@link #scaleSize} in a JVM of its own
 * ({@link ScaleFork}), its figures merged into this run's results.
 *
 * <p>Why forks, as JMH forks its benchmarks: measured one after another in one JVM, each size
 * ran on the JIT state and heap the sizes before it left (compiled code and profiles, a grown
 * old generation, the young generation's adaptive size), and the tails of the upserts, around
 * 1 ms, followed the order more than the number of specs: with 1,000 first in a fresh JVM its
 * p99 was 2.73 and 3.25 ms against 1.23 and 0.94 ms at 10,000 measured after it; with the order
 * 1,000 / 10,000 / 100,000, 0.61 / 1.49 / 1.37 ms. The 200 warm changes each size had were
 * far from enough: C2 kept compiling the change path for 14,000-19,000 changes, so a size
 * measured early ran partly in less optimized code, and a size measured later inherited the
 * earlier sizes' changes as warm-up. Each fork now starts from the same state: the same JVM
 * options as this one, the same warm-up (below, checked by {@code jit_ms}), a collected heap.
 *
 * <p>Each size is measured in {@code scale-forks} forks (3 in a full run), one after another,
 * and every figure is the median of the forks' (the latencies of all of them feed the plots;
 * {@code p99_ms_min}/{@code p99_ms_max} give the spread). One fork's p99 at 1,000 specs moved
 * between 0.50 and 0.71 ms from one quiet run to the next, which alone moved the target's ratio
 * between 1.77 and 1.31.
 */
final class ScaleScenario {
    private final Scenarios s;
    private final Results results;
    private final Sizes sizes;

    ScaleScenario(Scenarios s) {
        this.s = s;
        this.results = s.results();
        this.sizes = s.sizes();
    }

    /** The most specs a warm converge of the scale curve applies (the code is the same at any size). */
    private static final int SCALE_WARM_SPECS = 10_000;

    /** Measures every size of the curve, each in forks, and merges their medians into the results. */
    void run() throws Exception {
        int forks = sizes.get("scale-forks");
        for (int n : sizes.scale()) {
            List<Results> each = new ArrayList<>(forks);
            for (int k = 0; k < forks; k++) {
                Results fork = new Results(results.machine());
                ScaleFork.measure(n, sizes, fork);
                each.add(fork);
            }
            results.mergeMedians(each);
        }
    }

    /**
     * One size of the scale curve, in a JVM that measures nothing else ({@link ScaleFork}). First
     * converges through a group on throw-away engines ({@code min(n, 10,000)} specs) until
     * {@link JitWarmth} counts the JIT settled, as the engine scenario does; then converges a fresh
     * engine through a group ({@code wall_s}, {@code cpu_s}, {@code server_cpu_s},
     * {@code converge_txns}, {@code heap_mb} = heap the converged engine and its cache hold); then
     * unmeasured changes on it ({@link SpecChanges#warmUp}; {@code warm_changes}); then, after a full collection, {@code scale-changes} measured
     * ones ({@code p50_ms}, {@code p99_ms}, {@code max_ms}, {@code txns}) with what the JVM did
     * meanwhile: {@code jit_ms} compiling (near 0 shows the warm-up was enough), {@code cpu_us} of
     * its CPU time ({@code cpu_us_nojit} without the JIT compiler threads' share) and {@code alloc_kb} allocated per change, {@code young_gcs} and their pauses
     * {@code gc_ms}, {@code faults} = minor page faults per change (near 0 when the changes
     * allocate in heap pages already touched; see {@code bench/run.sh} on why the heap never
     * shrinks).
     */
    void scaleSize(int n) throws Exception {
        String client = "ovnj-engine-" + label(n);
        int warmSpecs = Math.min(n, SCALE_WARM_SPECS);
        JitWarmth.warm(pass -> {
            System.out.println("  " + client + " converge warm pass " + pass + " (" + java.time.LocalTime.now() + ")");
            try (EngineSetup e = new EngineSetup()) {
                long t0 = System.nanoTime();
                var result = e.engine.apply(OWNER, specs(warmSpecs, true)).get(600, TimeUnit.SECONDS);
                double wall = secondsSince(t0);
                check(result.allApplied(), "scale " + n + " warm pass: not all applied: " + notApplied(result));
                return wall;
            }
        });
        long heap0 = Proc.usedHeapAfterGc();
        try (EngineSetup e = new EngineSetup()) {
            List<LoadBalancerSpec> specs = specs(n, true);
            EngineMetrics m0 = e.engine.metrics();
            double srv0 = Proc.cpuSeconds(e.server.pid());
            double cpu0 = Proc.jvmCpuSeconds();
            long t0 = System.nanoTime();
            var result = e.engine.apply(OWNER, specs).get(600, TimeUnit.SECONDS);
            double wall = secondsSince(t0);
            double cpu = Proc.jvmCpuSeconds() - cpu0;
            double srv = Proc.cpuSeconds(e.server.pid()) - srv0;
            check(result.allApplied(), "scale " + n + ": not all applied: " + notApplied(result));
            check(e.client.cache().table("Load_Balancer").size() == n, "scale " + n + ": wrong row count");
            results.add("scale", client, "wall_s", wall);
            results.add("scale", client, "cpu_s", cpu);
            results.add("scale", client, "server_cpu_s", srv);
            results.add("scale", client, "converge_txns", e.engine.metrics().transactions() - m0.transactions());
            long heap1 = Proc.usedHeapAfterGc();
            results.add("scale", client, "heap_mb", (heap1 - heap0) / 1024.0 / 1024.0);

            SpecChanges changes = new SpecChanges(e, specs);
            results.add("scale", client, "warm_changes", changes.warmUp(sizes.get("warm-changes"), client));
            // Every size's measured changes begin on a collected heap, none with a young generation
            // half filled by the warm-up.
            Proc.usedHeapAfterGc();
            // The time lets a profile (bench/profile.sh) keep the measured changes only.
            System.out.println("  " + client + ": converged and warm; incremental changes from " + java.time.LocalTime.now());
            EngineMetrics m1 = e.engine.metrics();
            double jit0 = JitWarmth.compileSeconds();
            long alloc0 = Proc.allocatedBytes();
            double cpu1 = Proc.jvmCpuSeconds();
            double jitCpu1 = Proc.compilerCpuSeconds();
            long[] gc0 = Proc.youngCollections();
            long faults0 = Proc.minorFaults();
            int count = sizes.get("scale-changes");
            double srv1 = Proc.cpuSeconds(e.server.pid());
            List<Double> lat = changes.make(count);
            double serverUs = (Proc.cpuSeconds(e.server.pid()) - srv1) / count * 1e6;
            long faults = Proc.minorFaults() - faults0;
            long[] gc1 = Proc.youngCollections();
            double cpuUs = (Proc.jvmCpuSeconds() - cpu1) / count * 1e6;
            double jitCpuUs = (Proc.compilerCpuSeconds() - jitCpu1) / count * 1e6;
            double allocKb = (Proc.allocatedBytes() - alloc0) / 1024.0 / count;
            double jitMs = (JitWarmth.compileSeconds() - jit0) * 1e3;
            s.latencies("scale", client, lat, true);
            results.add("scale", client, "txns", e.engine.metrics().transactions() - m1.transactions());
            // The engine's thread hand-offs per change (EngineMetrics.handoffs; the client's own not included).
            results.add("scale", client, "handoffs", (double) (e.engine.metrics().handoffs() - m1.handoffs()) / count);
            results.add("scale", client, "jit_ms", jitMs);
            results.add("scale", client, "cpu_us", cpuUs);
            // The same without the JIT compiler threads: a controller that has run for a while has
            // compiled its change path, and what compiling remains during the measured changes
            // (jit_ms) moved cpu_us by up to 60 us per change from run to run.
            results.add("scale", client, "cpu_us_nojit", cpuUs - jitCpuUs);
            results.add("scale", client, "alloc_kb", allocKb);
            results.add("scale", client, "young_gcs", gc1[0] - gc0[0]);
            results.add("scale", client, "gc_ms", gc1[1] - gc0[1]);
            results.add("scale", client, "faults", (double) faults / count);
            results.add("scale", client, "server_cpu_us", serverUs);
            serverRoundTrips(e, client, count);
        }
    }

    /**
     * The server's own share of a change at this size: {@code count} transactions of a change's
     * shape (one VIP of one load balancer replaced, the engine's monitor receiving it) sent by a
     * plain client that keeps no cache, one at a time, each timed from the call to its reply
     * ({@code server_rtt_p50_ms}, {@code server_rtt_p99_ms}), and this JVM's CPU per transaction of
     * the second pass without the JIT's ({@code plain_client_cpu_us}). The row is one no spec owns or
     * declares a VIP of, so the engine maps its updates and writes nothing.
     */
    private void serverRoundTrips(EngineSetup e, String client, int count) throws Exception {
        try (OvsdbClient raw = client(e.server.remote(), MonitorRequest.tables("NB_Global"))) {
            raw.startAndWait(WAIT);
            String vip = "192.0.2.1:80";
            UUID probe = raw.transactAndWait(raw.transaction().add(Operations.insert("Load_Balancer").value("name", "scale-probe")
                    .value("vips", Map.of(vip, "192.0.2.10:80")).value("protocol", Set.of("tcp"))).build(), WAIT).insertedUuid(0);
            // Warmed as the engine's changes are, if not as long: the client's code is shared with them.
            List<Double> lat = new ArrayList<>(count);
            double cpu0 = 0;
            double jit0 = 0;
            for (int pass = 0; pass < 2; pass++) {
                lat.clear();
                cpu0 = Proc.jvmCpuSeconds();
                jit0 = Proc.compilerCpuSeconds();
                for (int c = 0; c < count; c++) {
                    Transaction tx = raw.transaction().add(Operations.mutate("Load_Balancer").where(Condition.eq("_uuid", probe))
                            .mutation(Mutation.delete("vips", Set.of(vip)),
                                    Mutation.insert("vips", Map.of(vip, "192.0.2." + (c % 200 + 10) + ":80")))).build();
                    long t0 = System.nanoTime();
                    raw.transactAndWait(tx, WAIT);
                    lat.add((System.nanoTime() - t0) / 1e6);
                }
            }
            // This JVM's CPU per such transaction, the JIT's excepted: the plain client's own cost of a
            // round trip (with the engine's monitor receiving the update), the floor under cpu_us_nojit
            // for a client of this design.
            double plainUs = ((Proc.jvmCpuSeconds() - cpu0) - (Proc.compilerCpuSeconds() - jit0)) / count * 1e6;
            double[] a = lat.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            results.add("scale", client, "server_rtt_p50_ms", percentile(a, 50));
            results.add("scale", client, "server_rtt_p99_ms", percentile(a, 99));
            results.add("scale", client, "plain_client_cpu_us", plainUs);
        }
    }
}
