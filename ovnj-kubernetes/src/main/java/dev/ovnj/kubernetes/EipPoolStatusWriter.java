package dev.ovnj.kubernetes;

import dev.ovnj.nb.eip.EipView;
import dev.ovnj.nb.ip.IpAddresses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each {@link EipPool}'s status through its status subresource: how many of its addresses
 * are claimed, free and reserved, which Services wait for it, whether it is {@value #READY} (and
 * why not: reason {@code Invalid}), and whether Services keep
 * addresses outside its addresses ({@value #KEPT}: the pool was edited under them). Runs on the
 * writing replica only, a short while after a Service was placed or withdrawn (changes coalesce)
 * and every {@link #PERIOD} for what changes in the database on its own; a pool whose status
 * would not change is not written. An error is logged and retried on the next run.
 */
final class EipPoolStatusWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EipPoolStatusWriter.class);
    /** The condition saying whether the pool gives out addresses (False, reason Invalid, when it gives out nothing). */
    static final String READY = "Ready";
    /** The condition saying Services keep addresses outside the pool's. */
    static final String KEPT = "AddressesKept";
    /** How often the status is looked at without a nudge. */
    static final Duration PERIOD = Duration.ofSeconds(30);
    private static final Duration COALESCE = Duration.ofMillis(500);

    private final KubernetesClient kube;
    private final EipPools pools;
    private final EipPorts ports;
    private final EipView view;
    private final Supplier<Map<String, EipPools.Placement>> placements;
    private final Supplier<Map<String, String>> waiting;
    private final BooleanSupplier writing;
    private final AtomicBoolean pending = new AtomicBoolean();
    private final ScheduledExecutorService runner = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ovnj-eip-pool-status");
        t.setDaemon(true);
        return t;
    });

    EipPoolStatusWriter(KubernetesClient kube, EipPools pools, EipPorts ports, EipView view,
                        Supplier<Map<String, EipPools.Placement>> placements, Supplier<Map<String, String>> waiting,
                        BooleanSupplier writing) {
        this.kube = kube;
        this.pools = pools;
        this.ports = ports;
        this.view = view;
        this.placements = placements;
        this.waiting = waiting;
        this.writing = writing;
        runner.scheduleWithFixedDelay(this::nudge, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks for a run soon; runs asked for meanwhile are one. */
    void nudge() {
        if (pending.compareAndSet(false, true)) {
            try {
                runner.schedule(this::run, COALESCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                pending.set(false);
            }
        }
    }

    private void run() {
        pending.set(false);
        if (!writing.getAsBoolean()) {
            return;
        }
        try {
            Map<String, EipPools.State> states = pools.states();
            if (states.isEmpty()) {
                return;
            }
            Map<String, PoolUsage> usage = usage(states);
            Map<String, List<String>> kept = kept(placements.get());
            for (EipPools.State s : states.values()) {
                EipPool.Status status = status(s, usage.get(s.name()), kept.getOrDefault(s.name(), List.of()));
                if (!same(status, s.pool().getStatus())) {
                    write(s.name(), status);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("EipPool status not written: {}", e.toString());
        }
    }

    /**
     * Every pool's numbers now, by pool name: on any replica (a standby knows no waiting Service),
     * computed from the Northbound cache and the pools this process has seen.
     *
     * @return the usage of each pool
     */
    Map<String, PoolUsage> usage() {
        return usage(pools.states());
    }

    private Map<String, PoolUsage> usage(Map<String, EipPools.State> states) {
        if (states.isEmpty()) {
            return Map.of();
        }
        Set<InetAddress> used = view.usedAddresses();
        ReservedAddresses base = pools.reserved();
        Map<String, List<String>> waitingBy = new TreeMap<>();
        new TreeMap<>(waiting.get()).forEach((service, pool) -> waitingBy.computeIfAbsent(pool, k -> new ArrayList<>()).add(service));
        Map<String, PoolUsage> out = new TreeMap<>();
        for (EipPools.State s : states.values()) {
            long allocated = s.addresses().map(a -> a.count(ports.claimed(s.pool().getSpec().externalPort()))).orElse(0L);
            ReservedAddresses reserved = EipPools.reservedFor(s, base);
            long reservedCount = s.addresses().map(a -> a.countReserved(reserved)).orElse(0L);
            long free = 0;
            if (s.valid()) {
                PoolAddresses a = s.addresses().orElseThrow();
                long usedNotReserved = used.stream().filter(ip -> a.contains(ip) && reserved.why(ip).isEmpty()).count();
                free = Math.max(0, a.size() - reservedCount - usedNotReserved);
            }
            out.put(s.name(), new PoolUsage(s.name(), s.valid(), allocated, free, reservedCount, waitingBy.getOrDefault(s.name(), List.of())));
        }
        return out;
    }

    /** The status a pool should have now, keeping each condition's transition time while its status stays. */
    private EipPool.Status status(EipPools.State s, PoolUsage usage, List<String> keptBy) {
        List<Condition> old = Optional.ofNullable(s.pool().getStatus()).map(EipPool.Status::conditions).orElse(List.of());
        List<Condition> conditions = new ArrayList<>();
        conditions.add(condition(old, READY, s.valid(), s.valid() ? "Valid" : "Invalid",
                s.invalid().orElse("the pool gives out " + s.addresses().map(Object::toString).orElse("nothing"))));
        conditions.add(condition(old, KEPT, !keptBy.isEmpty(), keptBy.isEmpty() ? "None" : "OutsideThePool",
                keptBy.isEmpty() ? "every address given is in the pool"
                        : "kept, not moved: " + String.join("; ", keptBy)));
        return new EipPool.Status(usage.allocated(), usage.free(), usage.reserved(), usage.waiting(), conditions);
    }

    private static Condition condition(List<Condition> old, String type, boolean on, String reason, String message) {
        String status = on ? "True" : "False";
        String since = old.stream().filter(c -> type.equals(c.getType()) && status.equals(c.getStatus())).findFirst()
                .map(Condition::getLastTransitionTime).orElse(Instant.now().toString());
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(since).build();
    }

    /** Each pool's Services that keep addresses outside it, as "ns/name keeps IP" lines. */
    private static Map<String, List<String>> kept(Map<String, EipPools.Placement> placements) {
        Map<String, List<String>> out = new TreeMap<>();
        new TreeMap<>(placements).forEach((service, p) -> {
            if (p.pool().isPresent() && !p.kept().isEmpty()) {
                out.computeIfAbsent(p.pool().get(), k -> new ArrayList<>()).add(service + " keeps "
                        + String.join(", ", p.kept().stream().map(IpAddresses::format).toList()));
            }
        });
        return out;
    }

    private static boolean same(EipPool.Status now, EipPool.Status before) {
        if (before == null || !Objects.equals(now.allocated(), before.allocated()) || !Objects.equals(now.free(), before.free())
                || !Objects.equals(now.reserved(), before.reserved()) || !Objects.equals(now.waiting(), before.waiting())
                || before.conditions() == null || before.conditions().size() != now.conditions().size()) {
            return false;
        }
        for (int i = 0; i < now.conditions().size(); i++) {
            Condition a = now.conditions().get(i);
            Condition b = before.conditions().get(i);
            if (!a.getType().equals(b.getType()) || !a.getStatus().equals(b.getStatus()) || !Objects.equals(a.getReason(), b.getReason())
                    || !Objects.equals(a.getMessage(), b.getMessage())) {
                return false;
            }
        }
        return true;
    }

    private void write(String name, EipPool.Status status) {
        kube.resources(EipPool.class).withName(name).editStatus(p -> {
            p.setStatus(status);
            return p;
        });
        LOG.info("EipPool {}: allocated {}, free {}, reserved {}, waiting {}, {}", name, status.allocated(), status.free(),
                status.reserved(), status.waiting(),
                String.join(", ", status.conditions().stream().filter(c -> c.getStatus().equals("True"))
                        .map(c -> c.getType() + ": " + c.getMessage()).toList()));
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
