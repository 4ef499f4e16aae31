package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecValidator;
import dev.ovnj.ovsdb.cache.CacheListener;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps OVN load balancers equal to what their owners declare. Owners declare specs with
 * {@link #apply}, {@link #upsert} and {@link #remove}; the engine plans against the client's cache
 * and writes minimal, guarded transactions. It follows every change the monitor reports, so drift
 * made by anyone else (a row deleted, a VIP removed, a router detached, a database restored) is
 * repaired as soon as it is seen, without waiting for the caller.
 *
 * <p>What a caller can rely on:
 * <ul>
 *   <li>Every future completes within the {@linkplain Builder#requestTimeout request timeout}
 *       (30 s by default): with the result once each spec it covers reached a verdict
 *       (APPLIED, WAITING, INVALID, CONFLICT or FAILED), or exceptionally with
 *       {@link InvalidSpecException}, {@link SpecFailedException}, {@link EngineBusyException},
 *       {@link EngineClosedException} or, when the bound expires first (the database unavailable:
 *       no connection, no quorum, the lock held by another replica), {@link SpecTimeoutException}.
 *       A timeout ends only the wait: the engine keeps reconciling the spec, and a future is never
 *       completed twice.</li>
 *   <li>{@link #status} and {@link #isAvailable()} never block and may be called from any thread,
 *       listeners included; a status is an immutable snapshot that was true when published.</li>
 *   <li>Nothing a listener, a malformed row or the server does stops the engine: a failure while
 *       planning or writing one spec is confined to that spec.</li>
 *   <li>Rows the engine does not own are never written; a conflict with one is reported.</li>
 * </ul>
 *
 * <p>The engine runs on its own thread ("ovnj-engine"); listeners on another
 * ("ovnj-engine-listeners"). The loop, its state machine and these guarantees are described in
 * {@code docs/architecture.md}.
 */
public final class LoadBalancerEngine implements AutoCloseable {
    private final OvsdbClient client;
    private final EngineSettings settings;
    private final EngineCounters counters = new EngineCounters();
    private final ListenerBus bus = new ListenerBus();
    private final EngineLoop loop;
    private final AtomicInteger pendingRequests = new AtomicInteger();
    private final CacheListener cacheListener;
    private volatile boolean closed;
    private volatile boolean started;

    private LoadBalancerEngine(Builder b) {
        this.client = b.client;
        this.settings = new EngineSettings(b.batchWindow, b.maxOpsPerTransaction, b.maxPendingRequests, b.minRetry,
                b.maxRetry, Optional.ofNullable(b.lockName), b.eipPolicy, b.stallTimeout,
                b.requestTimeout, b.ownerLocks, b.deletionBudget);
        // Here rather than in start(): plan() reads through these indexes too.
        Planner.indexes().forEach(client.cache()::addIndex);
        Admission.indexes().forEach(client.cache()::addIndex);
        this.loop = new EngineLoop(client, b.southbound, settings, counters, bus);
        this.cacheListener = loop::onCacheEvents;
    }

    /**
     * Returns a builder for an engine writing through {@code client}.
     *
     * @param client a client of the OVN Northbound database
     * @return the builder
     * @throws IllegalArgumentException when {@code client} is of another database (e.g. {@code OVN_Southbound})
     */
    public static Builder builder(OvsdbClient client) {
        return new Builder(client);
    }

    /**
     * The tables the engine needs in the client's cache; pass it to the client's builder to
     * replicate only these instead of the whole Northbound database. Rows come without
     * {@code _version}, which the engine never reads ({@link MonitorRequest#withoutRowVersions()}:
     * a sixth less to send, serialise and parse per load balancer). {@code Logical_Router_Static_Route}
     * is there for the Kubernetes controller, which never hands out a route's next hop (the upstream gateway).
     *
     * @return the monitor request
     */
    public static MonitorRequest monitorRequest() {
        return MonitorRequest.tables("Load_Balancer", "Load_Balancer_Group", "Logical_Router", "Logical_Switch",
                "Logical_Router_Port", "NAT", "Logical_Switch_Port", "Load_Balancer_Health_Check", "NB_Global",
                "Logical_Router_Policy", "Logical_Router_Static_Route")
                .withoutRowVersions();
    }

    /**
     * The Southbound tables the engine reads for backend health: {@code Service_Monitor}, and of
     * {@code Port_Binding}, {@code Chassis} and {@code Chassis_Private} only the columns that say
     * whether the ovn-controller probing a backend is still there (see {@link BackendHealthView});
     * pass it to the Southbound client's builder.
     *
     * @return the monitor request
     */
    public static MonitorRequest southboundMonitorRequest() {
        return MonitorRequest.of(TableMonitor.all("Service_Monitor"),
                TableMonitor.all("Port_Binding").columns("logical_port", "chassis"),
                TableMonitor.all("Chassis").columns("name"),
                TableMonitor.all("Chassis_Private").columns("name"));
    }

    /**
     * Starts following the client's cache and repairing drift; idempotent. The client may be
     * started before or after. {@code apply}, {@code upsert} and {@code remove} throw
     * {@link IllegalStateException} until this is called: an engine that is not started would
     * write once and never repair.
     *
     * @return this engine
     */
    public LoadBalancerEngine start() {
        synchronized (this) {
            if (started || closed) {
                return this;
            }
            started = true;
        }
        client.cache().addListener(cacheListener);
        loop.start();
        return this;
    }

    /**
     * Declares the complete set of load balancers of {@code owner}: rows of the owner that no spec
     * names are deleted, unless that would delete more of the owner's rows than the
     * {@linkplain Builder#deletionBudget deletion budget} allows (a desired set read too early, an
     * emptied file): then those rows stay and their specs are {@link SpecStatus.State#HELD} (see
     * {@link DeletionBudget}); {@link ApplyOption#ALLOW_MASS_DELETE} deletes them anyway. Nothing
     * is written for an invalid or conflicting spec: whatever the database holds for it stays as
     * it is; the others proceed. A row of another owner, or of none, whose name or VIP a spec
     * claims is such a conflict, unless an {@link Adoption} among the options covers it: then the
     * spec takes it over in place (see {@link Adoption}).
     *
     * @param owner the owner, e.g. a controller or tenant name
     * @param specs all of the owner's specs
     * @param options e.g. {@link ApplyOption#ALLOW_MASS_DELETE}, {@code ApplyOption.adopt("owner:kube-dc")}
     * @return completes when every spec has a verdict, with each spec's status (FAILED, CONFLICT
     *     and HELD included: check {@link ApplyResult#allApplied()}); fails with
     *     {@link SpecTimeoutException} when some spec has none within the request timeout
     * @throws IllegalStateException when the engine is not {@linkplain #start() started}
     */
    public CompletableFuture<ApplyResult> apply(String owner, List<LoadBalancerSpec> specs, ApplyOption... options) {
        List<LoadBalancerSpec> copy = Arguments.specs(Objects.requireNonNull(owner, "owner"), specs);
        List<ApplyOption> given = Arguments.options(options);
        boolean allowMassDelete = given.contains(ApplyOption.ALLOW_MASS_DELETE);
        Adoption adoption = Adoption.of(given);
        Map<String, List<SpecError>> checked = SpecValidator.validate(owner, copy);
        return limited(() -> loop.apply(owner, copy, checked, allowMassDelete, adoption));
    }

    /**
     * Says that the owner's desired set is complete, for a controller that declares its specs one
     * by one with {@link #upsert} (e.g. once its informers have synced and it has upserted every
     * spec): from now on rows of the owner that no spec names are deleted, within the deletion
     * budget, as after an {@link #apply}. Until an owner's set is complete (by this or by an
     * {@code apply}), none of its rows is deleted except by {@link #remove}: rows no spec names are
     * listed in its status as {@link SpecStatus.State#HELD} orphans.
     *
     * @param owner the owner
     * @return completes when every spec of the owner has a verdict
     * @throws IllegalStateException when the engine is not {@linkplain #start() started}
     */
    public CompletableFuture<ApplyResult> declareComplete(String owner) {
        Objects.requireNonNull(owner, "owner");
        return limited(() -> loop.declareComplete(owner));
    }

    /**
     * Deletes the rows whose deletion is held ({@link SpecStatus.State#HELD}: by the deletion
     * budget, or orphans of an owner whose desired set is not complete yet).
     *
     * @param owner the owner
     * @return completes when the rows are gone (with the owner's statuses)
     * @throws IllegalStateException when the engine is not {@linkplain #start() started}
     */
    public CompletableFuture<ApplyResult> releaseHeldDeletions(String owner) {
        Objects.requireNonNull(owner, "owner");
        return limited(() -> loop.releaseHeld(owner));
    }

    /**
     * The OVSDB lock an engine takes before it writes an owner's rows (see
     * {@link Builder#ownerLocks}); other tools can take the same lock to keep the engine off an
     * owner's rows while they work.
     *
     * @param owner the owner
     * @return the lock's name, e.g. {@code ovnj_kube_dc_3fa1c2e9} for owner {@code kube-dc}
     */
    public static String ownerLockName(String owner) {
        return OwnerLeases.lockName(Objects.requireNonNull(owner, "owner"));
    }

    /**
     * Adds or replaces one spec of {@code owner}.
     *
     * @param owner the owner
     * @param spec the spec
     * @return completes when the database holds it (or it waits for a router or switch); fails with
     *     {@link InvalidSpecException} (and writes nothing) when the spec is invalid or uses a VIP
     *     another spec of the owner has, with {@link SpecFailedException} on a conflict or when the
     *     server rejects it, with {@link SpecTimeoutException} when there is no verdict within the
     *     request timeout
     */
    public CompletableFuture<ApplyResult> upsert(String owner, LoadBalancerSpec spec) {
        return upsert(owner, spec, null);
    }

    /**
     * Adds or replaces one spec of {@code owner}, which may take over the foreign rows an
     * adoption covers (see {@link Adoption}); the adoption belongs to this declaration of the
     * spec, and a later {@code upsert} without one ends it.
     *
     * @param owner the owner
     * @param spec the spec
     * @param adoption the rows it may adopt, or null for none (as {@link #upsert(String, LoadBalancerSpec)})
     * @return as {@link #upsert(String, LoadBalancerSpec)}
     */
    public CompletableFuture<ApplyResult> upsert(String owner, LoadBalancerSpec spec, Adoption adoption) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(spec, "spec");
        List<SpecError> errors = SpecValidator.validate(owner, spec);
        if (!errors.isEmpty()) {
            return CompletableFuture.failedFuture(new InvalidSpecException(errors));
        }
        return limited(() -> loop.upsert(owner, spec, adoption));
    }

    /**
     * Removes one spec of {@code owner}; its rows are deleted.
     *
     * @param owner the owner
     * @param name the spec's name
     * @return completes when the rows are gone; fails with {@link SpecFailedException} when the
     *     server refuses to delete them, with {@link SpecTimeoutException} when they are not gone
     *     within the request timeout
     */
    public CompletableFuture<ApplyResult> remove(String owner, String name) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(name, "name");
        return limited(() -> loop.remove(owner, name));
    }

    /**
     * Plans without writing (a dry run): what {@link #apply} would change now, decided by the same
     * admission (validation, EIP policy, conflicts) and the same deletion budget as {@code apply}.
     * Never blocks on the engine.
     *
     * @param owner the owner
     * @param specs the specs
     * @param options e.g. {@link ApplyOption#ALLOW_MASS_DELETE}, an {@link Adoption} (its rows then show as
     *     {@link dev.ovnj.lb.plan.PlanChange.Adopt} changes instead of conflicts)
     * @return the plan, with invalid specs, conflicts and held deletions listed
     */
    public LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs, ApplyOption... options) {
        List<LoadBalancerSpec> copy = Arguments.specs(Objects.requireNonNull(owner, "owner"), specs);
        List<ApplyOption> given = Arguments.options(options);
        return loop.plan(owner, copy, given.contains(ApplyOption.ALLOW_MASS_DELETE), Adoption.of(given));
    }

    /**
     * The current status of each of an owner's specs: an immutable snapshot, read without blocking.
     *
     * @param owner the owner
     * @return spec name to status (empty for an unknown owner)
     */
    public Map<String, SpecStatus> status(String owner) {
        return loop.status(Objects.requireNonNull(owner, "owner"));
    }

    /**
     * Whether the engine can write now: connected, synced, holding its lock if it uses one, and its
     * loop not stalled. Never blocks.
     *
     * @return whether the engine can write now
     */
    public boolean isAvailable() {
        return loop.isAvailable();
    }

    /**
     * Why the engine can or cannot write, in words (e.g. {@code lock ovnj held by another replica}).
     *
     * @return the reason
     */
    public String availability() {
        return closed ? "engine closed" : loop.availabilityReason();
    }

    /**
     * The bound within which every future of {@code apply}, {@code upsert} and {@code remove}
     * completes (see {@link Builder#requestTimeout}); a caller blocking on one can wait a little
     * longer than this and get the engine's own {@link SpecTimeoutException}.
     *
     * @return the request timeout
     */
    public Duration requestTimeout() {
        return settings.requestTimeout();
    }

    /**
     * Counters and gauges since start.
     *
     * @return the metrics
     */
    public EngineMetrics metrics() {
        return new EngineMetrics(counters.transactions.get(), counters.operations.get(), counters.repairs.get(),
                counters.conflicts.get(), counters.retries.get(), counters.failures.get(), counters.plans.get(),
                counters.lastPlanMicros, counters.specPlans.get(), counters.longestCacheReadMicros, counters.slowCacheReads.get(),
                bus.failures(),
                loop.counts(), loop.stalled(), counters.heldDeletions.get(),
                counters.fights.get(), counters.handoffs.get() + bus.handoffs(), loop.operatingCounts());
    }

    /**
     * Registers a listener, called on the engine's listener thread (see {@link EngineListener}).
     *
     * @param listener the listener
     */
    public void addListener(EngineListener listener) {
        bus.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Stops the engine; idempotent. Releases the OVSDB lock (a standby takes over at once), stops
     * following the cache, and fails waiting futures with {@link EngineClosedException}. The
     * client stays open and usable.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        client.cache().removeListener(cacheListener);
        loop.close();
        bus.close();
    }

    private CompletableFuture<ApplyResult> limited(java.util.function.Supplier<Answer<ApplyResult>> request) {
        if (closed) {
            return CompletableFuture.failedFuture(new EngineClosedException());
        }
        if (!started) {
            // Without start() nothing follows the database: the engine would write once and
            // never repair, while its status kept saying APPLIED.
            throw new IllegalStateException("the engine is not started: call start() before apply, upsert, remove, declareComplete or releaseHeldDeletions");
        }
        if (pendingRequests.incrementAndGet() > settings.maxPendingRequests()) {
            pendingRequests.decrementAndGet();
            return CompletableFuture.failedFuture(new EngineBusyException(settings.maxPendingRequests()
                    + " requests are already waiting for the database (maxPendingRequests); retry later"));
        }
        Answer<ApplyResult> f = request.get();
        // Counted off at the verdict, not by a stage of the caller's future: a stage there would
        // make every answer a hand-off to the stage thread (see Answer).
        f.onVerdict(pendingRequests::decrementAndGet);
        return f;
    }

    /** Configures a {@link LoadBalancerEngine}. */
    public static final class Builder {
        private final OvsdbClient client;
        private Duration batchWindow = Duration.ZERO;
        private int maxOpsPerTransaction = 1000;
        private int maxPendingRequests = 10_000;
        private Duration minRetry = Duration.ofMillis(20);
        private Duration maxRetry = Duration.ofSeconds(2);
        private String lockName;
        private EipPolicy eipPolicy = EipPolicy.WARN;
        private Duration stallTimeout = Duration.ofSeconds(10);
        private OvsdbClient southbound;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private boolean ownerLocks = true;
        private DeletionBudget deletionBudget = DeletionBudget.DEFAULT;

        private Builder(OvsdbClient client) {
            this.client = requireDatabase(Objects.requireNonNull(client, "client"), "OVN_Northbound", "builder(client)");
        }

        /** Refuses a client of another database here, rather than let it plan against tables it never has. */
        private static OvsdbClient requireDatabase(OvsdbClient client, String database, String where) {
            String actual = client.options().database();
            if (!database.equals(actual)) {
                throw new IllegalArgumentException("LoadBalancerEngine." + where + " needs a client of database " + database
                        + ", not of " + actual + " (OvsdbClient.builder().database(\"" + database + "\"))");
            }
            return client;
        }

        /**
         * How long an idle engine waits for more changes before planning (default zero: a single
         * change is written at once). Whatever the window, changes arriving while a transaction is
         * in flight are coalesced into the next one.
         *
         * @param window the coalescing window, zero or positive
         * @return this builder
         */
        public Builder batchWindow(Duration window) {
            Objects.requireNonNull(window, "window");
            if (window.isNegative()) {
                throw new IllegalArgumentException("batchWindow must not be negative: " + window);
            }
            this.batchWindow = window;
            return this;
        }

        /**
         * Soft limit of operations per transaction (default 1000).
         *
         * @param max the limit
         * @return this builder
         */
        public Builder maxOpsPerTransaction(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxOpsPerTransaction must be positive: " + max);
            }
            this.maxOpsPerTransaction = max;
            return this;
        }

        /**
         * Requests that may wait for the database at once before new ones fail fast (default 10,000).
         *
         * @param max the limit
         * @return this builder
         */
        public Builder maxPendingRequests(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxPendingRequests must be positive: " + max);
            }
            this.maxPendingRequests = max;
            return this;
        }

        /**
         * Per-spec retry backoff after retriable failures (default 20 ms doubling to 2 s, with jitter).
         *
         * @param min first delay
         * @param max largest delay
         * @return this builder
         */
        public Builder retryBackoff(Duration min, Duration max) {
            Objects.requireNonNull(min, "min");
            Objects.requireNonNull(max, "max");
            if (min.isNegative() || max.compareTo(min) < 0) {
                throw new IllegalArgumentException("retryBackoff needs 0 <= min <= max: " + min + ", " + max);
            }
            this.minRetry = min;
            this.maxRetry = max;
            return this;
        }

        /**
         * Writes only while holding this OVSDB lock, for active/standby replicas (use a
         * leader-only client: locks are per server). {@link LoadBalancerEngine#close()} releases it.
         *
         * @param name the lock name, an OVSDB {@code <id>}
         * @return this builder
         */
        public Builder lock(String name) {
            dev.ovnj.ovsdb.data.OvsdbId.require("lock name", name);
            this.lockName = name;
            return this;
        }

        /**
         * What to do with a router-attached VIP outside the router's port networks (default WARN).
         *
         * @param policy warn or reject
         * @return this builder
         */
        public Builder eipPolicy(EipPolicy policy) {
            this.eipPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * How long one step of the engine loop may run before the engine reports itself
         * unavailable as stalled (default 10 s).
         *
         * @param timeout the bound
         * @return this builder
         */
        public Builder stallTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("stallTimeout must be positive: " + timeout);
            }
            this.stallTimeout = timeout;
            return this;
        }

        /**
         * Reads backend health from the OVN Southbound database through this client, read-only:
         * each spec's status then carries, per backend of a checked VIP, what OVN's service monitor
         * says, and listeners hear {@link EngineListener#onBackendHealth} on every change. Build the
         * client with database {@code OVN_Southbound} and {@link #southboundMonitorRequest()}; it
         * may be started before or after the engine, and the engine never writes through it.
         *
         * @param sb a client of the OVN Southbound database
         * @return this builder
         * @throws IllegalArgumentException when {@code sb} is of another database
         */
        public Builder southbound(OvsdbClient sb) {
            this.southbound = requireDatabase(Objects.requireNonNull(sb, "sb"), "OVN_Southbound", "Builder.southbound(sb)");
            return this;
        }

        /**
         * The longest a future returned by {@code apply}, {@code upsert} or {@code remove} waits
         * for a verdict (default 30 s). When it expires first, typically because the database is
         * unavailable (no connection, no quorum, the lock held by another replica), the future
         * fails with {@link SpecTimeoutException}, naming the undecided specs, their status and
         * what the engine waits for. The engine keeps reconciling them: they reach their verdict
         * when the database is back, without a new call, and no future is completed twice.
         *
         * @param timeout the bound, positive
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is zero or negative
         */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive (a future must be able to complete): " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * Whether each owner's rows are written only while this engine holds the owner's OVSDB
         * lock ({@link LoadBalancerEngine#ownerLockName}; default true). Two engines declaring the
         * same owner, in one process or two (the old and the new pod of a rolling update), then
         * never fight over its rows: the first to ask writes; the other stands by, its specs
         * PENDING with a reason naming the lock and {@link LoadBalancerEngine#isAvailable()} false,
         * and takes over within a round trip of the first closing or losing its connection. Locks
         * live on one server: connect both engines to the same server, or to the leader of a
         * cluster (the client's default); a lock taken through a relay is local to that relay.
         * Not used when {@link #lock} gives one lock for the whole engine.
         *
         * @param enabled false to write without owner locks
         * @return this builder
         */
        public Builder ownerLocks(boolean enabled) {
            this.ownerLocks = enabled;
            return this;
        }

        /**
         * How much of an owner's rows one {@code apply} may delete before the deletions are held
         * (default {@link DeletionBudget#DEFAULT}: more than half of them and more than 5 are held).
         *
         * @param budget the budget, or {@link DeletionBudget#unlimited()}
         * @return this builder
         */
        public Builder deletionBudget(DeletionBudget budget) {
            this.deletionBudget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Builds the engine; call {@link LoadBalancerEngine#start()}.
         *
         * @return the engine
         */
        public LoadBalancerEngine build() {
            return new LoadBalancerEngine(this);
        }
    }
}
