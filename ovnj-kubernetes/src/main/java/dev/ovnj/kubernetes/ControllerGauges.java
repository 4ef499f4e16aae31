package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.Service;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an on-call engineer alerts on, as gauges that every replica publishes, the standby too
 * (its informers hold the same Services, with the conditions the holder wrote):
 * <ul>
 *   <li>{@code ovnj.kubernetes.services} ({@code reason}): the Services served, by their
 *       condition's reason, one series for every reason of {@link ConditionReasons#ALL} from the
 *       first scrape (0 until counted); a Service without a condition yet is not counted;</li>
 *   <li>{@code ovnj.kubernetes.pool.addresses} ({@code pool}, {@code state}: allocated, free,
 *       reserved) and {@code ovnj.kubernetes.pool.waiting} ({@code pool}): each EipPool's
 *       numbers ({@link PoolUsage}), a series per pool this process has seen;</li>
 *   <li>{@code ovnj.kubernetes.leader}: 1 on the replica that reconciles, 0 on a standby;</li>
 *   <li>{@code ovnj.kubernetes.queue.depth}: Services waiting for a reconciliation ({@link ReconcileQueue}).</li>
 * </ul>
 * The Services and the pools are read by {@link #refresh}, which the controller calls every few
 * seconds and {@link ControllerEndpoints} before each scrape; the leader and the queue are read
 * when the registry publishes.
 */
final class ControllerGauges {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerGauges.class);

    private final Supplier<Stream<Service>> services;
    private final Supplier<Map<String, PoolUsage>> pools;
    private final MultiGauge poolAddresses;
    private final MultiGauge poolWaiting;
    private volatile Map<String, Long> byReason = Map.of();

    /**
     * Registers the gauges.
     *
     * @param registry where
     * @param services the Services the controller serves, as its informer holds them
     * @param pools every pool's numbers
     * @param leader whether this replica reconciles
     * @param queue the reconciliation queue's depth
     */
    ControllerGauges(MeterRegistry registry, Supplier<Stream<Service>> services, Supplier<Map<String, PoolUsage>> pools,
                     BooleanSupplier leader, IntSupplier queue) {
        this.services = services;
        this.pools = pools;
        for (String reason : ConditionReasons.ALL) {
            Gauge.builder("ovnj.kubernetes.services", this, g -> g.byReason.getOrDefault(reason, 0L))
                    .description("Services of type LoadBalancer served, by their condition's reason").tag("reason", reason)
                    .strongReference(true).register(registry);
        }
        Gauge.builder("ovnj.kubernetes.leader", leader, l -> l.getAsBoolean() ? 1 : 0)
                .description("1 on the replica that holds the Lease and reconciles, 0 on a standby")
                // A method reference nobody else holds: the gauge keeps it (gauges hold weakly by default).
                .strongReference(true).register(registry);
        Gauge.builder("ovnj.kubernetes.queue.depth", queue, IntSupplier::getAsInt)
                .description("Services waiting for a reconciliation").strongReference(true).register(registry);
        this.poolAddresses = MultiGauge.builder("ovnj.kubernetes.pool.addresses")
                .description("an EipPool's addresses: allocated (claimed), free (can still be given), reserved (never given)")
                .register(registry);
        this.poolWaiting = MultiGauge.builder("ovnj.kubernetes.pool.waiting")
                .description("Services waiting for an address of an EipPool").register(registry);
    }

    /** Counts the Services by reason and updates the pools' series; a failure keeps the last numbers. */
    void refresh() {
        try {
            Map<String, Long> counts = new HashMap<>();
            services.get().forEach(s -> LoadBalancerCondition.current(s)
                    .ifPresent(c -> counts.merge(c.getReason(), 1L, Long::sum)));
            byReason = Map.copyOf(counts);
            List<MultiGauge.Row<?>> addresses = new ArrayList<>();
            List<MultiGauge.Row<?>> waiting = new ArrayList<>();
            for (PoolUsage u : pools.get().values()) {
                addresses.add(MultiGauge.Row.of(Tags.of("pool", u.pool(), "state", "allocated"), u.allocated()));
                addresses.add(MultiGauge.Row.of(Tags.of("pool", u.pool(), "state", "free"), u.free()));
                addresses.add(MultiGauge.Row.of(Tags.of("pool", u.pool(), "state", "reserved"), u.reserved()));
                waiting.add(MultiGauge.Row.of(Tags.of("pool", u.pool()), u.waiting().size()));
            }
            poolAddresses.register(addresses, true);
            poolWaiting.register(waiting, true);
        } catch (RuntimeException e) {
            // Before the informers exist, or a cache being replaced: the next refresh counts again.
            LOG.debug("controller gauges not refreshed: {}", e.toString());
        }
    }
}
