package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.plan.PlanTransactions;
import dev.ovnj.lb.plan.Planner;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecValidator;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.CacheListener;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.LockListener;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.rpc.OvsdbRpcException;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionException;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps OVN load balancers equal to what their owners declare. Owners declare specs with
 * {@link #apply}, {@link #upsert} and {@link #remove}; the engine plans against the client's cache
 * and writes minimal, guarded transactions. It follows every change the monitor reports, so drift
 * made by anyone else (a row deleted, a VIP removed, a router detached, a database restored) is
 * repaired as soon as it is seen, without waiting for the caller.
 *
 * <p>All engine state lives on one thread ("ovnj-engine"); changes arriving within the batch
 * window are coalesced into one planning pass.
 */
public final class LoadBalancerEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LoadBalancerEngine.class);
    private static final String LB_TABLE = "Load_Balancer";
    /** Tables whose changes can alter any spec's plan (attachments, groups, EIP networks). */
    private static final Set<String> TOPOLOGY = Set.of("Logical_Router", "Logical_Switch", "Load_Balancer_Group",
            "Logical_Router_Port");

    private final OvsdbClient client;
    private final Duration batchWindow;
    private final int maxOpsPerTransaction;
    private final int maxPendingRequests;
    private final Duration minRetry;
    private final Duration maxRetry;
    private final Optional<String> lockName;
    private final EipPolicy eipPolicy;
    private final List<EngineListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ScheduledExecutorService loop;
    private final AtomicInteger pendingRequests = new AtomicInteger();
    private final CacheListener cacheListener = this::onCacheEvents;

    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong repairs = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong plans = new AtomicLong();
    private volatile long lastPlanMicros;

    // Confined to the engine thread.
    private final Map<String, OwnerState> owners = new LinkedHashMap<>();
    private boolean scheduled;
    private int inFlight;
    private boolean retryScheduled;
    private Duration retryDelay;
    private long driftSeenAt = -1;
    private long lastEventAt = -1;
    private boolean lockHeld;
    private boolean available;
    private volatile boolean closed;

    private LoadBalancerEngine(Builder b) {
        this.client = b.client;
        this.batchWindow = b.batchWindow;
        this.maxOpsPerTransaction = b.maxOpsPerTransaction;
        this.maxPendingRequests = b.maxPendingRequests;
        this.minRetry = b.minRetry;
        this.maxRetry = b.maxRetry;
        this.retryDelay = b.minRetry;
        this.lockName = Optional.ofNullable(b.lockName);
        this.eipPolicy = b.eipPolicy;
        // Here rather than in start(): plan() reads through these indexes too.
        Planner.indexes().forEach(client.cache()::addIndex);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ovnj-engine");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Returns a builder for an engine writing through {@code client}.
     *
     * @param client a client of the OVN Northbound database
     * @return the builder
     */
    public static Builder builder(OvsdbClient client) {
        return new Builder(client);
    }

    /**
     * The tables the engine needs in the client's cache; pass it to the client's builder to
     * replicate only these instead of the whole Northbound database.
     *
     * @return the monitor request
     */
    public static MonitorRequest monitorRequest() {
        return MonitorRequest.tables("Load_Balancer", "Load_Balancer_Group", "Logical_Router", "Logical_Switch",
                "Logical_Router_Port", "NAT");
    }

    /**
     * Starts following the client's cache. The client may be started before or after.
     *
     * @return this engine
     */
    public LoadBalancerEngine start() {
        client.cache().addListener(cacheListener);
        client.addConnectionListener(this::onConnection);
        lockName.ifPresent(name -> {
            client.addLockListener(new LockListener() {
                @Override
                public void locked(String lockId) {
                    if (lockId.equals(name)) {
                        loop.execute(() -> lockChanged(true));
                    }
                }

                @Override
                public void stolen(String lockId) {
                    if (lockId.equals(name)) {
                        loop.execute(() -> lockChanged(false));
                    }
                }
            });
            client.lock(name).whenComplete((granted, err) -> {
                if (Boolean.TRUE.equals(granted)) {
                    loop.execute(() -> lockChanged(true));
                }
            });
        });
        loop.execute(() -> {
            updateAvailability();
            markDirty();
        });
        return this;
    }

    /**
     * Declares the complete set of load balancers of {@code owner}: rows of the owner that no spec
     * names are deleted. Nothing is written for an invalid spec: whatever the database holds for it stays
     * as it is (or, within this engine's lifetime, its previous valid version is kept); the others
     * proceed.
     *
     * @param owner the owner, e.g. a controller or tenant name
     * @param specs all of the owner's specs
     * @return completes when the database holds the result, with each spec's status
     */
    public CompletableFuture<ApplyResult> apply(String owner, List<LoadBalancerSpec> specs) {
        Map<String, List<SpecError>> checked = SpecValidator.validate(owner, specs);
        return request(owner, state -> {
            Map<String, LoadBalancerSpec> valid = new LinkedHashMap<>();
            Map<String, List<String>> invalid = new LinkedHashMap<>();
            for (LoadBalancerSpec s : specs) {
                List<SpecError> errors = checked.get(s.name());
                if (errors == null || errors.isEmpty()) {
                    valid.putIfAbsent(s.name(), s);
                } else {
                    invalid.put(s.name(), errors.stream().map(e -> e.field() + ": " + e.message()).toList());
                    LoadBalancerSpec previous = state.valid.get(s.name());
                    if (previous != null) {
                        valid.put(s.name(), previous);
                    }
                }
            }
            state.valid = valid;
            state.invalid = invalid;
            state.allDirty = true;
        });
    }

    /**
     * Adds or replaces one spec of {@code owner}.
     *
     * @param owner the owner
     * @param spec the spec
     * @return completes when the database holds it; fails with {@link InvalidSpecException} (and
     *     writes nothing) when the spec is invalid
     */
    public CompletableFuture<ApplyResult> upsert(String owner, LoadBalancerSpec spec) {
        List<SpecError> errors = SpecValidator.validate(owner, spec);
        if (!errors.isEmpty()) {
            return CompletableFuture.failedFuture(new InvalidSpecException(errors));
        }
        return request(owner, state -> {
            Map<String, LoadBalancerSpec> valid = new LinkedHashMap<>(state.valid);
            valid.put(spec.name(), spec);
            state.valid = valid;
            state.dirty.add(spec.name());
            Map<String, List<String>> invalid = new LinkedHashMap<>(state.invalid);
            invalid.remove(spec.name());
            state.invalid = invalid;
        });
    }

    /**
     * Removes one spec of {@code owner}; its rows are deleted.
     *
     * @param owner the owner
     * @param name the spec's name
     * @return completes when the rows are gone
     */
    public CompletableFuture<ApplyResult> remove(String owner, String name) {
        return request(owner, state -> {
            Map<String, LoadBalancerSpec> valid = new LinkedHashMap<>(state.valid);
            valid.remove(name);
            state.valid = valid;
            state.dirty.add(name);
            Map<String, List<String>> invalid = new LinkedHashMap<>(state.invalid);
            invalid.remove(name);
            state.invalid = invalid;
        });
    }

    /**
     * Plans without writing (a dry run): what {@link #apply} would change now.
     *
     * @param owner the owner
     * @param specs the specs
     * @return the plan, with invalid specs listed
     */
    public LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs) {
        Map<String, List<SpecError>> checked = SpecValidator.validate(owner, specs);
        List<LoadBalancerSpec> valid = new ArrayList<>();
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        for (LoadBalancerSpec s : specs) {
            List<SpecError> errors = checked.get(s.name());
            if (errors == null || errors.isEmpty()) {
                valid.add(s);
            } else {
                invalid.put(s.name(), errors.stream().map(e -> e.field() + ": " + e.message()).toList());
            }
        }
        // As apply() does: an invalid spec's existing rows are neither changed nor deleted.
        return Planner.plan(owner, valid, client.cache(), invalid.keySet()).withInvalid(invalid);
    }

    /**
     * The current status of each of an owner's specs.
     *
     * @param owner the owner
     * @return spec name to status (empty for an unknown owner)
     */
    public Map<String, SpecStatus> status(String owner) {
        return onLoop(() -> {
            OwnerState s = owners.get(owner);
            return s == null ? Map.<String, SpecStatus>of() : Map.copyOf(s.status);
        });
    }

    /**
     * Whether the engine can write now (connected, synced, and holding its lock if it uses one).
     *
     * @return whether the engine can write now (connected, synced, and holding its lock if it uses one)
     */
    public boolean isAvailable() {
        return onLoop(() -> available);
    }

    /**
     * Counters since start.
     *
     * @return counters since start
     */
    public EngineMetrics metrics() {
        return new EngineMetrics(transactions.get(), operations.get(), repairs.get(), conflicts.get(), retries.get(),
                failures.get(), plans.get(), lastPlanMicros);
    }

    /**
     * Registers a listener.
     *
     * @param listener the listener
     */
    public void addListener(EngineListener listener) {
        listeners.add(listener);
    }

    /** Stops the engine; the client stays open. Pending futures fail. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        client.cache().removeListener(cacheListener);
        loop.execute(() -> owners.values().forEach(o -> o.waiters.forEach(w ->
                w.future.completeExceptionally(new IllegalStateException("engine closed")))));
        loop.shutdown();
        try {
            loop.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- engine thread ----

    private CompletableFuture<ApplyResult> request(String owner, java.util.function.Consumer<OwnerState> change) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("engine closed"));
        }
        if (pendingRequests.incrementAndGet() > maxPendingRequests) {
            pendingRequests.decrementAndGet();
            return CompletableFuture.failedFuture(new EngineBusyException(maxPendingRequests
                    + " requests are already waiting for the database (maxPendingRequests); retry later"));
        }
        CompletableFuture<ApplyResult> f = new CompletableFuture<>();
        f.whenComplete((r, e) -> pendingRequests.decrementAndGet());
        loop.execute(() -> {
            OwnerState state = owners.computeIfAbsent(owner, OwnerState::new);
            change.accept(state);
            state.generation++;
            state.waiters.add(new Waiter(state.generation, f));
            markDirty();
        });
        return f;
    }

    private void onCacheEvents(List<CacheEvent> events) {
        // Worked out on the callback thread: which owners' specs the batch touched, or whether
        // it changed the topology every plan depends on.
        boolean topology = false;
        Map<String, Set<String>> touched = new LinkedHashMap<>();
        for (CacheEvent e : events) {
            if (TOPOLOGY.contains(e.table())) {
                // A router, switch or group gaining or losing load balancers concerns only their
                // specs (a detach is drift of those specs); anything else may concern every plan.
                if (e instanceof CacheEvent.Updated u && onlyLoadBalancersChanged(u)) {
                    touchChangedMembers(touched, u);
                } else {
                    topology = true;
                }
            } else if (LB_TABLE.equals(e.table())) {
                if (e instanceof CacheEvent.Inserted i) {
                    touch(touched, i.row());
                } else if (e instanceof CacheEvent.Updated u) {
                    touch(touched, u.oldRow());
                    touch(touched, u.newRow());
                } else if (e instanceof CacheEvent.Deleted d) {
                    touch(touched, d.oldRow());
                }
            }
        }
        if (!topology && touched.isEmpty()) {
            return;
        }
        boolean allOwners = topology;
        long seen = System.nanoTime();
        loop.execute(() -> {
            // Our own writes come back as events while they are in flight, so only events
            // outside that window start the repair clock; a foreign change that lands inside
            // it is timed from its own arrival, the last event seen.
            lastEventAt = seen;
            if (inFlight == 0 && driftSeenAt < 0) {
                driftSeenAt = seen;
            }
            if (allOwners) {
                owners.values().forEach(s -> s.allDirty = true);
            }
            touched.forEach((owner, specs) -> {
                OwnerState s = owners.get(owner);
                if (s != null) {
                    s.dirty.addAll(specs);
                }
            });
            markDirty();
        });
    }

    private static boolean onlyLoadBalancersChanged(CacheEvent.Updated u) {
        dev.ovnj.ovsdb.schema.TableSchema schema = u.newRow().table();
        int lbColumn = schema.columnIndex("load_balancer");
        for (int i = 0; i < schema.columns().size(); i++) {
            if (i != lbColumn && i != dev.ovnj.ovsdb.schema.TableSchema.VERSION_INDEX
                    && !java.util.Objects.equals(u.oldRow().get(i), u.newRow().get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Marks the specs of load balancers that joined or left a router's, switch's or group's set. */
    private void touchChangedMembers(Map<String, Set<String>> touched, CacheEvent.Updated u) {
        Set<?> before = (Set<?>) u.oldRow().get("load_balancer");
        Set<?> after = (Set<?>) u.newRow().get("load_balancer");
        dev.ovnj.ovsdb.cache.TableCache lbs = client.cache().table(LB_TABLE);
        for (Object id : before) {
            if (!after.contains(id)) {
                lbs.get((java.util.UUID) id).ifPresent(row -> touch(touched, row));
            }
        }
        for (Object id : after) {
            if (!before.contains(id)) {
                lbs.get((java.util.UUID) id).ifPresent(row -> touch(touched, row));
            }
        }
    }

    /** Records the owner and spec a load balancer row carries, if it is engine-managed. */
    private static void touch(Map<String, Set<String>> touched, dev.ovnj.ovsdb.data.Row row) {
        Object ids = row.get("external_ids");
        if (ids instanceof Map<?, ?> m && m.get(dev.ovnj.lb.plan.DesiredRow.OWNER_KEY) instanceof String owner) {
            Object spec = m.get(dev.ovnj.lb.plan.DesiredRow.SPEC_KEY);
            touched.computeIfAbsent(owner, k -> new java.util.HashSet<>()).add(spec instanceof String s ? s : "");
        }
    }

    private void onConnection(ConnectionEvent event) {
        if (closed) {
            return;
        }
        loop.execute(() -> {
            if (event.kind() == ConnectionEvent.Kind.DISCONNECTED && lockName.isPresent()) {
                lockHeld = false;
            }
            updateAvailability();
            if (event.kind() == ConnectionEvent.Kind.SYNCED) {
                // A reconnect may have resynced anything; plan everything against the fresh cache.
                owners.values().forEach(s -> s.allDirty = true);
                markDirty();
            }
        });
    }

    private void lockChanged(boolean held) {
        lockHeld = held;
        LOG.info("engine lock {} {}", lockName.orElse(""), held ? "acquired: this replica writes" : "lost: standing by");
        updateAvailability();
        if (held) {
            owners.values().forEach(s -> s.allDirty = true);
            markDirty();
        }
    }

    private void updateAvailability() {
        boolean now = client.isSynced() && (lockName.isEmpty() || lockHeld);
        if (now != available) {
            available = now;
            String reason = !client.isSynced() ? "not connected to the Northbound leader"
                    : lockName.isPresent() && !lockHeld ? "lock " + lockName.get() + " held by another replica" : "connected";
            LOG.info("engine {}: {}", now ? "available" : "unavailable", reason);
            listeners.forEach(l -> l.onAvailability(now, reason));
        }
    }

    private void markDirty() {
        if (!scheduled && !closed) {
            scheduled = true;
            loop.schedule(this::pass, batchWindow.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void pass() {
        scheduled = false;
        if (closed || inFlight > 0 || retryScheduled) {
            return;
        }
        updateAvailability();
        if (!available) {
            return;
        }
        long start = System.nanoTime();
        List<Transaction> txs = new ArrayList<>();
        Map<String, LoadBalancerPlan> plannedByOwner = new LinkedHashMap<>();
        boolean repair = false;
        EipCheck eip = EipCheck.read(client.cache());
        for (OwnerState state : owners.values()) {
            if (!state.allDirty && state.dirty.isEmpty()) {
                continue;
            }
            // Plan only what may have changed: all specs after apply(), a reconnect or a topology
            // change, otherwise just the specs requests and row events named.
            Set<String> scope = state.allDirty ? null : Set.copyOf(state.dirty);
            Map<String, List<String>> eipProblems = new LinkedHashMap<>();
            List<LoadBalancerSpec> planned = new ArrayList<>();
            for (LoadBalancerSpec spec : state.valid.values()) {
                if (scope != null && !scope.contains(spec.name())) {
                    continue;
                }
                List<String> problems = eip.problems(spec);
                if (!problems.isEmpty()) {
                    eipProblems.put(spec.name(), problems);
                }
                // Rejected specs keep what is already written: they are skipped, not removed.
                if (problems.isEmpty() || eipPolicy == EipPolicy.WARN) {
                    planned.add(spec);
                }
            }
            if (scope == null) {
                state.eipProblems = eipProblems;
            } else {
                Map<String, List<String>> merged = new LinkedHashMap<>(state.eipProblems);
                merged.keySet().removeAll(scope);
                merged.putAll(eipProblems);
                state.eipProblems = merged;
            }
            LoadBalancerPlan plan;
            try {
                plan = Planner.plan(state.owner, planned, client.cache(), rejectedRows(state, planned, scope), scope);
            } catch (RuntimeException e) {
                LOG.warn("planning for owner {} failed: {}", state.owner, e.toString());
                continue;
            }
            plans.incrementAndGet();
            updateStatuses(state, plan, scope);
            if (plan.isEmpty()) {
                if (scope == null) {
                    state.allDirty = false;
                    state.dirty.clear();
                } else {
                    state.dirty.removeAll(scope);
                }
                if (!state.allDirty && state.dirty.isEmpty()) {
                    state.appliedGeneration = state.generation;
                    completeWaiters(state);
                }
                continue;
            }
            if (state.appliedGeneration == state.generation) {
                repair = true;
            }
            plannedByOwner.put(state.owner, plan);
            try {
                txs.addAll(PlanTransactions.build(plan, client.schema(), maxOpsPerTransaction));
            } catch (RuntimeException e) {
                failures.incrementAndGet();
                LOG.warn("cannot build the transaction for owner {}: {}", state.owner, e.getMessage());
            }
        }
        lastPlanMicros = (System.nanoTime() - start) / 1000;
        if (txs.isEmpty()) {
            driftSeenAt = -1;
            return;
        }
        long driftStart = !repair ? -1 : driftSeenAt > 0 ? driftSeenAt : lastEventAt;
        driftSeenAt = -1;
        send(txs, plannedByOwner, driftStart);
    }

    private void send(List<Transaction> txs, Map<String, LoadBalancerPlan> planned, long driftStart) {
        inFlight = txs.size();
        List<Throwable> errors = new ArrayList<>();
        for (Transaction tx : txs) {
            long sent = System.nanoTime();
            client.transact(tx).whenComplete((result, err) -> loop.execute(() -> {
                Throwable cause = unwrap(err);
                Duration latency = Duration.ofNanos(System.nanoTime() - sent);
                listeners.forEach(l -> l.onTransaction(tx.operations().size(), latency, cause));
                if (cause == null) {
                    transactions.incrementAndGet();
                    operations.addAndGet(tx.operations().size());
                } else {
                    errors.add(cause);
                }
                if (--inFlight == 0) {
                    afterSend(planned, driftStart, errors);
                }
            }));
        }
    }

    private void afterSend(Map<String, LoadBalancerPlan> planned, long driftStart, List<Throwable> errors) {
        if (errors.isEmpty()) {
            retryDelay = minRetry;
            if (driftStart > 0) {
                recordRepairs(planned, Duration.ofNanos(System.nanoTime() - driftStart));
            }
            markDirty();
            return;
        }
        boolean conflict = errors.stream().anyMatch(e -> e instanceof WaitTimedOutException);
        if (conflict) {
            conflicts.incrementAndGet();
            LOG.info("another client changed load balancers while the engine wrote; re-planning");
        }
        for (Throwable e : errors) {
            if (!(e instanceof WaitTimedOutException) && !(e instanceof OvsdbRpcException r && r.retriable())
                    && !(e instanceof TransactionException t && t.retriable())) {
                failures.incrementAndGet();
                LOG.warn("the database rejected an engine transaction: {}", e.getMessage());
            }
        }
        retries.incrementAndGet();
        retryScheduled = true;
        Duration delay = conflict ? Duration.ofMillis(1) : retryDelay;
        retryDelay = retryDelay.multipliedBy(2).compareTo(maxRetry) > 0 ? maxRetry : retryDelay.multipliedBy(2);
        loop.schedule(() -> {
            retryScheduled = false;
            markDirty();
        }, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void recordRepairs(Map<String, LoadBalancerPlan> planned, Duration latency) {
        for (LoadBalancerPlan plan : planned.values()) {
            Map<String, List<String>> what = new LinkedHashMap<>();
            for (PlanChange c : plan.changes()) {
                what.computeIfAbsent(c.subject(), k -> new ArrayList<>()).add(describe(c));
            }
            OwnerState state = owners.get(plan.owner());
            what.forEach((row, changes) -> {
                repairs.incrementAndGet();
                String text = String.join(", ", changes);
                LOG.info("repaired {} ({}) in {} ms", row, text, String.format("%.1f", latency.toNanos() / 1e6));
                RepairEvent event = new RepairEvent(plan.owner(), row, text, latency);
                listeners.forEach(l -> l.onRepair(event));
                if (state != null) {
                    state.recordRepair(row, latency);
                }
            });
        }
    }

    /**
     * Specs whose existing rows must stay as they are: invalid ones (nothing is written for an
     * invalid spec, and that includes deleting what an earlier valid version wrote) and ones the
     * EIP policy holds back.
     */
    private static Set<String> rejectedRows(OwnerState state, List<LoadBalancerSpec> planned, Set<String> scope) {
        // Built from the scope, not the owner's whole set: one upsert must not cost O(specs).
        Set<String> kept = new java.util.HashSet<>();
        for (String name : scope == null ? state.valid.keySet() : scope) {
            if (state.valid.containsKey(name)) {
                kept.add(name);
            }
        }
        planned.forEach(s -> kept.remove(s.name()));
        kept.addAll(state.invalid.keySet());
        return kept;
    }

    private static String describe(PlanChange c) {
        if (c instanceof PlanChange.CreateRow) {
            return "recreated";
        } else if (c instanceof PlanChange.UpdateVips) {
            return "vips";
        } else if (c instanceof PlanChange.SetColumns s) {
            return String.join("/", s.columns().keySet());
        } else if (c instanceof PlanChange.Attach a) {
            return "attached to " + a.target().word() + " " + a.targetName();
        } else if (c instanceof PlanChange.Detach d) {
            return "detached from " + d.target().word() + " " + d.targetName();
        } else if (c instanceof PlanChange.AttachGroup g) {
            return "group attached to " + g.target().word() + " " + g.targetName();
        } else if (c instanceof PlanChange.CreateGroup) {
            return "group recreated";
        }
        return "deleted";
    }

    private void updateStatuses(OwnerState state, LoadBalancerPlan plan, Set<String> scope) {
        // Only the planned specs are re-evaluated and the map is updated in place: a pass for
        // one upsert must not cost O(specs of the owner).
        Iterable<String> names = scope == null ? new ArrayList<>(state.valid.keySet()) : scope;
        if (scope == null) {
            state.status.keySet().retainAll(state.valid.keySet());
        }
        for (String name : names) {
            LoadBalancerSpec spec = state.valid.get(name);
            if (spec == null) {
                if (!state.invalid.containsKey(name)) {
                    state.status.remove(name);
                }
                continue;
            }
            Set<String> rows = rowsOf(spec);
            List<String> specWarnings = new ArrayList<>();
            for (String conflict : plan.conflicts()) {
                if (rows.stream().anyMatch(row -> conflict.contains(" named " + row + " "))) {
                    specWarnings.add(conflict);
                }
            }
            SpecStatus.State st;
            List<String> reasons = List.of();
            Set<java.util.UUID> uuids = Set.of();
            List<String> eip = state.eipProblems.getOrDefault(name, List.of());
            if (!eip.isEmpty() && eipPolicy == EipPolicy.REJECT) {
                st = SpecStatus.State.INVALID;
                reasons = eip;
            } else if (plan.pending().containsKey(name)) {
                st = SpecStatus.State.PENDING;
                reasons = plan.pending().get(name);
            } else if (plan.applied().containsKey(name)) {
                st = SpecStatus.State.APPLIED;
                uuids = plan.applied().get(name);
            } else {
                st = SpecStatus.State.APPLYING;
            }
            if (eipPolicy == EipPolicy.WARN) {
                specWarnings.addAll(eip);
            }
            Repairs r = state.repairs.getOrDefault(name, Repairs.NONE);
            put(state, new SpecStatus(state.owner, name, st, reasons, specWarnings, uuids, r.count, r.last));
        }
        state.invalid.forEach((name, errors) -> {
            if (!state.valid.containsKey(name)) {
                put(state, new SpecStatus(state.owner, name, SpecStatus.State.INVALID, errors, List.of(), Set.of(), 0, Optional.empty()));
            }
        });
    }

    /** Records a status and tells listeners when it changed. */
    private void put(OwnerState state, SpecStatus status) {
        SpecStatus old = state.status.put(status.spec(), status);
        if (old == null || old.state() != status.state() || !old.reasons().equals(status.reasons())
                || !old.warnings().equals(status.warnings())) {
            listeners.forEach(l -> l.onStatus(status));
        }
    }

    private void completeWaiters(OwnerState state) {
        ApplyResult result = new ApplyResult(state.owner, state.status);
        state.waiters.removeIf(w -> {
            if (w.generation <= state.appliedGeneration) {
                w.future.complete(result);
                return true;
            }
            return false;
        });
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> read) {
        try {
            return loop.submit(read).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("engine did not answer: " + e, e);
        }
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The Load_Balancer row names a spec owns: exact names, so spec web never claims web-v6's rows. */
    private static Set<String> rowsOf(LoadBalancerSpec spec) {
        Set<String> rows = new java.util.HashSet<>();
        spec.protocols().forEach(p -> rows.add(spec.name() + "-" + p.wireValue()));
        return rows;
    }

    /** Repair counters of one spec. */
    private record Repairs(long count, Optional<Duration> last) {
        static final Repairs NONE = new Repairs(0, Optional.empty());
    }

    /** A caller waiting for its request to be in the database. */
    private record Waiter(long generation, CompletableFuture<ApplyResult> future) {
    }

    /** Desired state and bookkeeping of one owner; engine thread only. */
    private static final class OwnerState {
        final String owner;
        Map<String, LoadBalancerSpec> valid = new LinkedHashMap<>();
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        Map<String, List<String>> eipProblems = Map.of();
        final Map<String, SpecStatus> status = new LinkedHashMap<>();
        boolean allDirty = true;
        final Set<String> dirty = new java.util.HashSet<>();
        final Map<String, Repairs> repairs = new LinkedHashMap<>();
        final List<Waiter> waiters = new ArrayList<>();
        long generation;
        long appliedGeneration;

        OwnerState(String owner) {
            this.owner = owner;
        }

        void recordRepair(String row, Duration latency) {
            for (LoadBalancerSpec spec : valid.values()) {
                if (rowsOf(spec).contains(row) || spec.group().filter(row::equals).isPresent()) {
                    Repairs r = repairs.getOrDefault(spec.name(), Repairs.NONE);
                    repairs.put(spec.name(), new Repairs(r.count + 1, Optional.of(latency)));
                }
            }
        }
    }

    /** Configures a {@link LoadBalancerEngine}. */
    public static final class Builder {
        private final OvsdbClient client;
        private Duration batchWindow = Duration.ofMillis(2);
        private int maxOpsPerTransaction = 1000;
        private int maxPendingRequests = 10_000;
        private Duration minRetry = Duration.ofMillis(20);
        private Duration maxRetry = Duration.ofSeconds(2);
        private String lockName;
        private EipPolicy eipPolicy = EipPolicy.WARN;

        private Builder(OvsdbClient client) {
            this.client = java.util.Objects.requireNonNull(client, "client");
        }

        /**
         * Changes arriving within this window are planned together (default 2 ms).
         *
         * @param window the coalescing window
         * @return this builder
         */
        public Builder batchWindow(Duration window) {
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
         * Retry backoff after retriable failures (default 20 ms doubling to 2 s).
         *
         * @param min first delay
         * @param max largest delay
         * @return this builder
         */
        public Builder retryBackoff(Duration min, Duration max) {
            this.minRetry = min;
            this.maxRetry = max;
            return this;
        }

        /**
         * Writes only while holding this OVSDB lock, for active/standby replicas (use a
         * leader-only client: locks are per server).
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
            this.eipPolicy = java.util.Objects.requireNonNull(policy, "policy");
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
