package dev.ovnj.kubernetes;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.micrometer.LoadBalancerEngineMetrics;
import dev.ovnj.micrometer.OvsdbClientMetrics;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * <p>Server-side apply: JOSDK patches the Service (finalizer, status) with server-side apply
 * unless {@link ControllerSettings#serverSideApply()} is off; then it uses JSON patches, which
 * fabric8's mock server (answering 415 to server-side apply) and every API server accept.
 */
public final class OvnjKubernetesController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvnjKubernetesController.class);

    private final Operator operator;
    private final ServiceLoadBalancerReconciler reconciler;
    private final OrphanJanitor janitor;
    private final ControllerSettings settings;
    private final String identity;
    private final AtomicBoolean leading = new AtomicBoolean();
    private final ExecutorService sweeper;
    private volatile CompletableFuture<Set<String>> lastSweep = CompletableFuture.completedFuture(Set.of());

    private OvnjKubernetesController(Builder b) {
        this.settings = b.settings;
        this.identity = b.identity;
        this.sweeper = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ovnj-kubernetes-janitor");
            t.setDaemon(true);
            return t;
        });
        ServiceEips eips = new ServiceEips(b.nb, settings.externalPort(), b.engine.requestTimeout());
        EngineEvents engineEvents = new EngineEvents(settings.owner());
        b.engine.addListener(engineEvents);
        this.reconciler = new ServiceLoadBalancerReconciler(b.engine, eips, settings, new ServiceEvents(b.kube, settings.owner()),
                new ControllerMetrics(b.registry), engineEvents);
        this.janitor = new OrphanJanitor(b.kube, b.nb, b.engine, eips, settings, reconciler::serves);
        new LoadBalancerEngineMetrics(b.engine).bindTo(b.registry);
        new OvsdbClientMetrics(b.nb).bindTo(b.registry);
        this.operator = new Operator(o -> {
            o.withKubernetesClient(b.kube).withCloseClientOnStop(false)
                    .withUseSSAToPatchPrimaryResource(settings.serverSideApply())
                    .withCacheSyncTimeout(b.cacheSyncTimeout);
            settings.leaseNamespace().ifPresent(ns -> o.withLeaderElectionConfiguration(new LeaderElectionConfiguration(
                    settings.leaseName(), ns, b.leaseDuration, b.renewDeadline, b.retryPeriod, identity,
                    new LeaderCallbacks(this::startedLeading, this::stoppedLeading, leader -> LOG.info("leader is {}", leader)),
                    b.exitOnStopLeading)));
        });
        operator.register(reconciler, c -> {
            // Not generation-aware: the ovnj.dev/ annotations change only metadata, which a real
            // API server does not count as a new generation of a Service.
            c.withName("ovnj-service-load-balancers").withFinalizer(ControllerSettings.FINALIZER)
                    .withGenerationAware(false).withGenericFilter(reconciler::accepts);
            if (settings.namespaces().isEmpty()) {
                c.watchingAllNamespaces();
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

    /** Stops reconciling and releases the Lease; the load balancers stay, so another replica takes over without an outage. */
    @Override
    public void close() {
        operator.stop();
        leading.set(false);
        sweeper.shutdownNow();
    }

    private void startedLeading() {
        leading.set(true);
        LOG.info("{} writes the load balancers of owner {}", identity, settings.owner());
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
        LOG.info("{} no longer writes the load balancers of owner {}", identity, settings.owner());
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
         * Whether losing the Lease ends the process (the default, so that a restarted pod
         * competes again with fresh informers); an embedding test or application may say no.
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
