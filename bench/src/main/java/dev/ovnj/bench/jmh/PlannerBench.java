package dev.ovnj.bench.jmh;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link Planner#plan} over a cache holding N owned load balancers that already match their
 * specs (attached directly to one router and one switch): the result is an empty plan. This is
 * the work of every engine pass, including the one after a single upsert.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PlannerBench {
    /** Specs the owner has, all in sync. */
    @Param({"1000", "10000"})
    public int n;

    private RowCache cache;
    private List<LoadBalancerSpec> specs;

    /** Fills a cache with the owner's rows, in sync with the specs. */
    @Setup
    public void setup() {
        specs = new ArrayList<>();
        Map<UUID, ObjectNode> lbs = new LinkedHashMap<>();
        List<UUID> uuids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LoadBalancerSpec s = BenchData.spec(i, 3);
            specs.add(s);
            UUID u = BenchData.uuid(1, i);
            uuids.add(u);
            lbs.put(u, BenchData.lbRow("bench", s));
        }
        Map<String, Map<UUID, ObjectNode>> tables = new LinkedHashMap<>();
        tables.put("Load_Balancer", lbs);
        tables.put("Logical_Router", Map.of(BenchData.uuid(2, 0), BenchData.holder("Logical_Router", "r", uuids)));
        tables.put("Logical_Switch", Map.of(BenchData.uuid(3, 0), BenchData.holder("Logical_Switch", "s", uuids)));
        cache = new RowCache();
        Planner.indexes().forEach(cache::addIndex);
        cache.replace(BenchData.NB, List.of("Load_Balancer", "Load_Balancer_Group", "Logical_Router", "Logical_Switch"),
                UpdateBatch.fromUpdates2(BenchData.initial(tables), Optional.empty()));
        LoadBalancerPlan plan = Planner.plan("bench", specs, cache);
        if (!plan.isEmpty()) {
            throw new IllegalStateException("the synthetic cache is not in sync: " + plan);
        }
    }

    /**
     * Plans the whole owner once.
     *
     * @return the (empty) plan
     */
    @Benchmark
    public LoadBalancerPlan planInSync() {
        return Planner.plan("bench", specs, cache);
    }
}
