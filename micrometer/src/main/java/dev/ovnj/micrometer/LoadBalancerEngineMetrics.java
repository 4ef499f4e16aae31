package dev.ovnj.micrometer;

import dev.ovnj.lb.AwaitedWriteEvent;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.OperatingStatus;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.SpecStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Binds a {@link LoadBalancerEngine}'s counters, latencies and spec states to a registry:
 *
 * <ul>
 *   <li>counters {@code ovnj.engine.transactions}, {@code .operations}, {@code .repairs},
 *       {@code .awaited.writes}, {@code .conflicts}, {@code .retries}, {@code .failures}, {@code .plans},
 *       {@code .deletions.held}, {@code .fights} (from {@link EngineMetrics}); {@code .repairs}
 *       counts drift only (rows of an APPLIED spec that another writer changed, written back),
 *       {@code .awaited.writes} the rows written once what their spec waited for appeared (a
 *       router created, a conflicting row gone), which are no drift;</li>
 *   <li>timers {@code ovnj.engine.transaction} ({@code outcome=success|failure}), the latency of
 *       each transaction the engine sends, {@code ovnj.engine.repair}, from seeing drift to the
 *       repair committed, and {@code ovnj.engine.awaited.write}, from seeing what a spec waited for
 *       to its write committed;</li>
 *   <li>gauges {@code ovnj.engine.available} (1 while the engine can write),
 *       {@code ovnj.engine.plan.last} (duration of the latest planning pass) and
 *       {@code ovnj.engine.specs} ({@code owner}, {@code state}): how many of an owner's specs are
 *       in each state, for every owner the engine has reported a status for, and
 *       {@code ovnj.engine.specs.operating} ({@code owner}, {@code status}): how many are in each
 *       {@link OperatingStatus} ({@code online}, {@code degraded}, {@code error}, {@code no_monitor},
 *       {@code offline}, {@code unknown}).</li>
 * </ul>
 *
 * <p>The timers and the owners are fed by an {@link EngineListener} this binder adds to the
 * engine; the counters and gauges are read when the registry publishes.
 */
public final class LoadBalancerEngineMetrics implements MeterBinder {
    // One line per counter of EngineMetrics: a new counter there is one more line here.
    private static final List<CounterDefinition<EngineMetrics>> COUNTERS = List.of(
            CounterDefinition.of("ovnj.engine.transactions", "transactions committed", EngineMetrics::transactions),
            CounterDefinition.of("ovnj.engine.operations", "operations in committed transactions", EngineMetrics::operations),
            CounterDefinition.of("ovnj.engine.repairs", "drift repairs committed (another writer changed what the engine wrote)",
                    EngineMetrics::repairs),
            CounterDefinition.of("ovnj.engine.awaited.writes", "rows written once what their spec waited for appeared (not drift)",
                    EngineMetrics::awaitedWrites),
            CounterDefinition.of("ovnj.engine.conflicts", "concurrent-writer conflicts that made the engine re-plan",
                    EngineMetrics::conflicts),
            CounterDefinition.of("ovnj.engine.retries", "passes retried after a retriable error", EngineMetrics::retries),
            CounterDefinition.of("ovnj.engine.failures", "transactions the server rejected", EngineMetrics::failures),
            CounterDefinition.of("ovnj.engine.plans", "planning passes", EngineMetrics::plans),
            CounterDefinition.of("ovnj.engine.deletions.held", "spec deletions held back by the deletion budget",
                    EngineMetrics::heldDeletions),
            CounterDefinition.of("ovnj.engine.fights", "specs found fought over by another writer of their owner",
                    EngineMetrics::fights));

    private final LoadBalancerEngine engine;
    private final Tags tags;

    /**
     * Binds an engine's metrics.
     *
     * @param engine the engine
     * @param tags tags added to every meter
     */
    public LoadBalancerEngineMetrics(LoadBalancerEngine engine, Iterable<Tag> tags) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.tags = Tags.of(tags);
    }

    /**
     * Binds an engine's metrics with no extra tags.
     *
     * @param engine the engine
     */
    public LoadBalancerEngineMetrics(LoadBalancerEngine engine) {
        this(engine, Tags.empty());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        COUNTERS.forEach(c -> c.register(registry, engine, LoadBalancerEngine::metrics, tags));
        Gauge.builder("ovnj.engine.available", engine, e -> e.isAvailable() ? 1 : 0)
                .description("1 while the engine can write (connected, synced, holding its lock if it uses one)")
                .tags(tags)
                .register(registry);
        TimeGauge.builder("ovnj.engine.plan.last", engine, TimeUnit.MICROSECONDS, e -> e.metrics().lastPlanMicros())
                .description("duration of the most recent planning pass")
                .tags(tags)
                .register(registry);
        Timer succeeded = transactionTimer(registry, "success");
        Timer failed = transactionTimer(registry, "failure");
        Timer repairs = Timer.builder("ovnj.engine.repair")
                .description("drift repair latency, from seeing the drift to the repair committed")
                .tags(tags)
                .register(registry);
        Timer awaited = Timer.builder("ovnj.engine.awaited.write")
                .description("latency of a write after waiting, from seeing what the spec waited for to the write committed")
                .tags(tags)
                .register(registry);
        engine.addListener(new Recorder(registry, succeeded, failed, repairs, awaited));
    }

    private Timer transactionTimer(MeterRegistry registry, String outcome) {
        return Timer.builder("ovnj.engine.transaction")
                .description("latency of the transactions the engine sends")
                .tags(tags.and("outcome", outcome))
                .register(registry);
    }

    /** Feeds the timers and registers the spec-state gauges of each owner the first time it reports. */
    private final class Recorder implements EngineListener {
        private final MeterRegistry registry;
        private final Timer succeeded;
        private final Timer failed;
        private final Timer repairs;
        private final Timer awaited;
        private final Set<String> owners = ConcurrentHashMap.newKeySet();

        Recorder(MeterRegistry registry, Timer succeeded, Timer failed, Timer repairs, Timer awaited) {
            this.registry = registry;
            this.succeeded = succeeded;
            this.failed = failed;
            this.repairs = repairs;
            this.awaited = awaited;
        }

        @Override
        public void onStatus(SpecStatus status) {
            if (owners.add(status.owner())) {
                for (SpecStatus.State state : SpecStatus.State.values()) {
                    Gauge.builder("ovnj.engine.specs", engine, e -> count(e, status.owner(), state))
                            .description("an owner's specs in a state")
                            .tags(tags.and("owner", status.owner(), "state", state.name().toLowerCase(java.util.Locale.ROOT)))
                            .register(registry);
                }
                for (OperatingStatus op : OperatingStatus.values()) {
                    Gauge.builder("ovnj.engine.specs.operating", engine, e -> count(e, status.owner(), op))
                            .description("an owner's specs in an operating status (whether they serve traffic)")
                            .tags(tags.and("owner", status.owner(), "status", op.word()))
                            .register(registry);
                }
            }
        }

        @Override
        public void onRepair(RepairEvent event) {
            repairs.record(event.latency());
        }

        @Override
        public void onAwaitedWrite(AwaitedWriteEvent event) {
            awaited.record(event.latency());
        }

        @Override
        public void onTransaction(int operations, Duration latency, Throwable error) {
            (error == null ? succeeded : failed).record(latency);
        }

        private double count(LoadBalancerEngine e, String owner, SpecStatus.State state) {
            return e.status(owner).values().stream().filter(s -> s.state() == state).count();
        }

        private double count(LoadBalancerEngine e, String owner, OperatingStatus op) {
            return e.status(owner).values().stream().filter(s -> s.operatingStatus() == op).count();
        }
    }
}
