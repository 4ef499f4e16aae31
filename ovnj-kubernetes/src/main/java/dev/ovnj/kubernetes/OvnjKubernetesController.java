package dev.ovnj.kubernetes;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.micrometer.LoadBalancerEngineMetrics;
import dev.ovnj.micrometer.OvsdbClientMetrics;
import dev.ovnj.nb.eip.EipView;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Service LoadBalancer controller: a Java Operator SDK {@link Operator} running
 * {@link ServiceLoadBalancerReconciler} on a started {@link LoadBalancerEngine}.
 *
 * <p>With a Lease configured ({@link ControllerSettings#withLease}), only the replica holding it
 * reconciles, so two replicas never both write; the others wait with their informers warm. When
 * a replica becomes the writer (or at start without a Lease) it sweeps the load balancers of
 * Services that no longer exist ({@link OrphanJanitor}), reading the API server afresh rather
 * than an informer that may not have synced.
 *
 * <p>Stopping ({@link #close()}) hands over: the operator stops (no more reconciliations), then the
 * Lease is released ({@link LeaseRelease}) so that a standby takes over on its next retry rather
 * than when the Lease expires. Nothing in OVN is touched by the stop: the load balancers stay as
 * they are for the next writer.
 *
 * <p>Server-side apply: JOSDK patches the Service (finalizer, status) with server-side apply
 * unless {@link ControllerSettings#serverSideApply()} is off; then it uses JSON patches, which
 * fabric8's mock server (answering 415 to server-side apply) and every API server accept.
 */
public final class OvnjKubernetesController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvnjKubernetesController.class);
    /** How long a stop waits for a running reconciliation before interrupting it. */
    private static final Duration STOP_BOUND = Duration.ofMillis(500);
    /** JOSDK's name of the Service controller. */
    private static final String CONTROLLER_NAME = "ovnj-service-load-balancers";
    /** How often the gauges of Services by reason and of pools are recounted between scrapes. */
    private static final Duration GAUGE_PERIOD = Duration.ofSeconds(5);

    private final Operator operator;
    private final ServiceLoadBalancerReconciler reconciler;
    private final OrphanJanitor janitor;
    private final ControllerSettings settings;
    private final String identity;
    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicBoolean synced = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final boolean exitOnStopLeading;
    private final Optional<LeaseRelease> lease;
    private final OvsdbClient nb;
    private final LoadBalancerEngine engine;
    private final ExecutorService sweeper;
    private final EipPorts eips;
    private final EipPoolStatusWriter poolStatus;
    private final ReconcileQueue queue;
    private final ControllerGauges gauges;
    /** Refreshes the gauges read from the informer and the pools every {@link #GAUGE_PERIOD}. */
    private final ScheduledExecutorService gaugeRefresher;
    private volatile CompletableFuture<Set<String>> lastSweep = CompletableFuture.completedFuture(Set.of());

    private OvnjKubernetesController(Builder b) {
        this.settings = b.settings;
        this.identity = b.identity;
        this.nb = b.nb;
        this.engine = b.engine;
        this.exitOnStopLeading = b.exitOnStopLeading;
        this.lease = settings.leaseNamespace().map(ns -> new LeaseRelease(b.kube, ns, settings.leaseName(), identity));
        this.sweeper = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ovnj-kubernetes-janitor");
            t.setDaemon(true);
            return t;
        });
        this.eips = new EipPorts(b.nb, b.engine.requestTimeout());
        EipPools pools = new EipPools(b.nb, settings);
        EngineEvents engineEvents = new EngineEvents(settings.owner());
        b.engine.addListener(engineEvents);
        this.reconciler = new ServiceLoadBalancerReconciler(b.engine, eips, pools, settings, new ServiceEvents(b.kube, settings.owner()),
                new ControllerMetrics(b.registry), engineEvents, new AdoptionSelectors(b.nb));
        this.poolStatus = new EipPoolStatusWriter(b.kube, pools, eips, new EipView(b.nb), reconciler::placements,
                reconciler::waiting, leading::get);
        reconciler.onPlacement(poolStatus::nudge);
        this.janitor = new OrphanJanitor(b.kube, b.nb, b.engine, eips, settings, reconciler::serves);
        this.queue = new ReconcileQueue(leading::get);
        this.gauges = new ControllerGauges(b.registry, this::servedServices, poolStatus::usage, leading::get, queue::depth);
        this.gaugeRefresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ovnj-kubernetes-gauges");
            t.setDaemon(true);
            return t;
        });
        gaugeRefresher.scheduleWithFixedDelay(gauges::refresh, 0, GAUGE_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        new LoadBalancerEngineMetrics(b.engine).bindTo(b.registry);
        new OvsdbClientMetrics(b.nb).bindTo(b.registry);
        this.operator = new Operator(o -> {
            o.withKubernetesClient(b.kube).withCloseClientOnStop(false)
                    .withUseSSAToPatchPrimaryResource(settings.serverSideApply())
                    .withMetrics(queue)
                    .withCacheSyncTimeout(b.cacheSyncTimeout)
                    // A reconciliation still running at stop is interrupted after this: it only waits on the engine.
                    .withReconciliationTerminationTimeout(STOP_BOUND);
            // JOSDK's own exit on losing the Lease calls System.exit on the thread that stops the
            // elector, which at shutdown is the one a shutdown hook waits for: the process then
            // hangs until the hook gives up. stoppedLeading() decides instead.
            settings.leaseNamespace().ifPresent(ns -> o.withLeaderElectionConfiguration(new LeaderElectionConfiguration(
                    settings.leaseName(), ns, b.leaseDuration, b.renewDeadline, b.retryPeriod, identity,
                    new LeaderCallbacks(this::startedLeading, this::stoppedLeading, leader -> LOG.info("Lease holder: {}",
                            leader == null || leader.isEmpty() ? "none, given up" : leader)),
                    false)));
        });
        operator.register(reconciler, c -> {
            // Not generation-aware: the ovnj.dev/ annotations change only metadata, which a real
            // API server does not count as a new generation of a Service.
            c.withName(CONTROLLER_NAME).withFinalizer(ControllerSettings.FINALIZER)
                    .withGenerationAware(false).withGenericFilter(reconciler::accepts);
            if (settings.namespaces().isEmpty()) {
                c.watchingAllNamespaces();
                c.withItemStore(new PrunedItemStore<>(CachedForms.service(reconciler::accepts)));
            } else {
                c.settingNamespaces(settings.namespaces());
            }
        });
    }

    /**
     * A builder.
     *
     * @param kube the Kubernetes client (not closed by the controller)
     * @param nb a Northbound client, started or not, monitoring at least {@link LoadBalancerEngine#monitorRequest()}
     * @param engine a started engine on {@code nb}
     * @param settings where the load balancers go
     * @return the builder
     */
    public static Builder builder(KubernetesClient kube, OvsdbClient nb, LoadBalancerEngine engine, ControllerSettings settings) {
        return new Builder(kube, nb, engine, settings);
    }

    /**
     * Starts the informers and, once they have synced (and this replica holds the Lease, if one is
     * configured), reconciliation.
     *
     * @return this controller
     */
    public OvnjKubernetesController start() {
        operator.start();
        synced.set(true);
        LOG.info("{}: informers synced; {}", identity, settings.leaseNamespace().isPresent()
                ? "competing for Lease " + settings.leaseNamespace().get() + "/" + settings.leaseName() : "no Lease: writing");
        if (settings.leaseNamespace().isEmpty()) {
            startedLeading();
        }
        return this;
    }

    /**
     * Whether this replica reconciles: it holds the Lease, or none is configured.
     *
     * @return whether it writes
     */
    public boolean isLeader() {
        return leading.get();
    }

    /**
     * This replica's identity in the Lease.
     *
     * @return the identity
     */
    public String identity() {
        return identity;
    }

    /**
     * The most recent sweep for load balancers of Services that no longer exist.
     *
     * @return completes with the spec names removed
     */
    public CompletableFuture<Set<String>> lastSweep() {
        return lastSweep;
    }

    /**
     * The reconciler, for a caller composing its own {@link Operator}.
     *
     * @return the reconciler
     */
    public ServiceLoadBalancerReconciler reconciler() {
        return reconciler;
    }

    /**
     * Every pool's numbers now (allocated, free, reserved, waiting Services), by pool name, for
     * metrics; on a standby no Service is waiting.
     *
     * @return the usage of each pool this process has seen
     */
    Map<String, PoolUsage> poolUsage() {
        return poolStatus.usage();
    }

    /** Recounts the gauges read from the informer and the pools (ControllerEndpoints calls it before a scrape). */
    void refreshGauges() {
        gauges.refresh();
    }

    /** The Services the controller serves, as its informer holds them (on a standby too); none before it exists. */
    @SuppressWarnings("unchecked")
    private Stream<Service> servedServices() {
        return operator.getRegisteredController(CONTROLLER_NAME)
                .filter(io.javaoperatorsdk.operator.processing.Controller.class::isInstance)
                .map(c -> ((io.javaoperatorsdk.operator.processing.Controller<Service>) c).getEventSourceManager()
                        .getControllerEventSource().list(reconciler::serves))
                .orElseGet(Stream::empty);
    }

    /**
     * Whether the process is alive in the sense of a liveness probe: the engine's loop is not stuck
     * on one step (a restart would help then). Never blocks.
     *
     * @return the verdict and why
     */
    public ProbeResult liveness() {
        if (engine.metrics().stalled()) {
            return new ProbeResult(false, engine.availability());
        }
        return new ProbeResult(true, "engine loop running");
    }

    /**
     * Whether the replica is ready in the sense of a readiness probe: its informers have synced,
     * they are healthy and the Northbound client is connected and synced. A standby is ready too:
     * it takes over without a restart. Never blocks.
     *
     * @return the verdict and why
     */
    public ProbeResult readiness() {
        if (closing.get()) {
            return new ProbeResult(false, "stopping");
        }
        if (!synced.get()) {
            return new ProbeResult(false, "informers not synced yet");
        }
        if (!nb.isSynced()) {
            return new ProbeResult(false, "Northbound database not connected: " + engine.availability());
        }
        if (!operator.getRuntimeInfo().allEventSourcesAreHealthy()) {
            return new ProbeResult(false, "informers unhealthy: " + operator.getRuntimeInfo().unhealthyEventSources().keySet());
        }
        return new ProbeResult(true, leading.get() ? "writing the load balancers" : "standing by with synced informers");
    }

    /**
     * Stops reconciling, then releases the Lease if this replica holds it, so that a standby takes
     * over on its next retry. The load balancers stay exactly as they are. Idempotent.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        try {
            operator.stop();
        } finally {
            leading.set(false);
            lease.ifPresent(LeaseRelease::release);
            sweeper.shutdownNow();
            gaugeRefresher.shutdownNow();
            poolStatus.close();
            eips.close();
        }
    }

    private void startedLeading() {
        leading.set(true);
        LOG.info("{} writes the load balancers of owner {}", identity, settings.owner());
        poolStatus.nudge();
        lastSweep = CompletableFuture.supplyAsync(() -> {
            try {
                return janitor.sweep();
            } catch (Exception e) {
                LOG.warn("sweep for load balancers of deleted Services failed: {}", e.toString());
                throw new java.util.concurrent.CompletionException(e);
            }
        }, sweeper);
    }

    private void stoppedLeading() {
        leading.set(false);
        queue.clear();
        if (closing.get()) {
            LOG.info("{} stops writing the load balancers of owner {}: shutting down", identity, settings.owner());
            return;
        }
        LOG.warn("{} lost the Lease and no longer writes the load balancers of owner {}", identity, settings.owner());
        if (exitOnStopLeading) {
            // On a thread of its own: System.exit waits for the shutdown hooks, which may wait for this one.
            Thread exit = new Thread(() -> System.exit(1), "ovnj-lease-lost");
            exit.start();
        }
    }

    /** Builds an {@link OvnjKubernetesController}. */
    public static final class Builder {
        private final KubernetesClient kube;
        private final OvsdbClient nb;
        private final LoadBalancerEngine engine;
        private final ControllerSettings settings;
        private MeterRegistry registry = new CompositeMeterRegistry();
        private String identity = System.getenv().getOrDefault("HOSTNAME", "ovnj") + "-" + UUID.randomUUID().toString().substring(0, 8);
        private Duration leaseDuration = LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE;
        private Duration renewDeadline = LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE;
        private Duration retryPeriod = LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE;
        private Duration cacheSyncTimeout = Duration.ofMinutes(2);
        private boolean exitOnStopLeading = true;

        private Builder(KubernetesClient kube, OvsdbClient nb, LoadBalancerEngine engine, ControllerSettings settings) {
            this.kube = Objects.requireNonNull(kube, "kube");
            this.nb = Objects.requireNonNull(nb, "nb");
            this.engine = Objects.requireNonNull(engine, "engine");
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        /**
         * Where the controller's, the engine's and the client's meters go (none by default).
         *
         * @param meters the registry
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry meters) {
            this.registry = Objects.requireNonNull(meters, "meters");
            return this;
        }

        /**
         * This replica's identity in the Lease (default: {@code $HOSTNAME} and a random suffix).
         *
         * @param id the identity
         * @return this builder
         */
        public Builder identity(String id) {
            this.identity = Objects.requireNonNull(id, "id");
            return this;
        }

        /**
         * The Lease's timing (JOSDK's defaults otherwise: 15 s, 10 s, 2 s).
         *
         * @param lease how long a Lease is valid without renewal
         * @param renew how long the leader keeps trying to renew
         * @param retry how often candidates try
         * @return this builder
         */
        public Builder leaseTiming(Duration lease, Duration renew, Duration retry) {
            this.leaseDuration = lease;
            this.renewDeadline = renew;
            this.retryPeriod = retry;
            return this;
        }

        /**
         * Whether losing the Lease (not giving it up in {@link OvnjKubernetesController#close()})
         * ends the process with status 1 (the default, so that a restarted pod competes again
         * with fresh informers); an embedding test or application may say no.
         *
         * @param exit whether to exit
         * @return this builder
         */
        public Builder exitOnStopLeading(boolean exit) {
            this.exitOnStopLeading = exit;
            return this;
        }

        /**
         * How long the informers may take to list at start before the controller fails (2 min).
         *
         * @param timeout the bound
         * @return this builder
         */
        public Builder cacheSyncTimeout(Duration timeout) {
            this.cacheSyncTimeout = timeout;
            return this;
        }

        /**
         * Builds the controller; nothing runs until {@link OvnjKubernetesController#start()}.
         *
         * @return the controller
         */
        public OvnjKubernetesController build() {
            return new OvnjKubernetesController(this);
        }
    }
}
