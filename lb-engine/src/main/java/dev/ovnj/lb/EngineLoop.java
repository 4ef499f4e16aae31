package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.plan.PlanTransactions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervised controller loop. Every input (a declaration, a cache event, a connection or lock
 * change, a transaction's answer) becomes a step on one thread ("ovnj-engine"); each step is
 * fenced, and each key's work within a step is fenced again, so a failure while planning or
 * writing one spec is confined to that spec. After every step the status board is published and
 * the callers whose specs reached a verdict are answered. A watchdog thread turns the engine
 * unavailable if one step runs longer than the stall bound, and nudges the loop every 500 ms so
 * that no wakeup can be lost.
 *
 * <p>Batching adapts to load: an idle engine plans and writes a change at once; while a round of
 * transactions is in flight, new work accumulates and goes out together in the next round. Within
 * a round, each transaction leaves as soon as its specs are planned.
 */
final class EngineLoop {
    private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);
    private static final int MAX_KEYS_PER_PASS = 50_000;
    private static final int MAX_WRITES_WITHOUT_CONVERGING = 20;
    private static final int MASS_REPAIR_ROWS = 10;
    /** How long a spec another writer fights over is left alone. */
    private static final Duration FIGHT_BACKOFF = Duration.ofSeconds(30);
    private static final long FAILURE_LOG_EVERY_NANOS = 10_000_000_000L;
    /** Why rows of an owner declared only with upsert so far stay although no spec names them. */
    private static final String ORPHAN = "orphan: no spec names these rows, and the owner's desired set is not complete yet;"
            + " they are deleted once it is (apply, or declareComplete after upserting every spec) or with remove";

    private final OvsdbClient client;
    private final EngineSettings settings;
    private final EngineCounters counters;
    private final ListenerBus bus;
    private final StatusBoard board;
    private final DesiredStore store = new DesiredStore();
    private final WorkQueue queue;
    private final VipIndex vipIndex = new VipIndex();
    private final EventMapper mapper = new EventMapper(store, vipIndex);
    private final GroupJanitor janitor = new GroupJanitor(store);
    private final Reconciler reconciler;
    private final TransactionSender executor;
    private final LeaseGate gate;
    private final OwnerLeases leases;
    private final ScheduledThreadPoolExecutor thread;
    private final ScheduledExecutorService watchdog;
    /**
     * Runs the dependent stages of the callers' futures (see {@link Answer}): a user's callback
     * never runs on the engine thread, and one that blocks holds only its own thread.
     */
    private final ThreadPoolExecutor stages;

    private final OvsdbClient southbound;
    private final dev.ovnj.ovsdb.cache.CacheListener southboundListener = this::onSouthboundEvents;
    private volatile boolean closed;
    private volatile boolean available;
    private volatile boolean stalled;
    private volatile String availabilityReason = "not started";
    private volatile long stepStartedAt;
    private volatile String stepName = "";

    // Engine thread only.
    private final Map<SpecKey, List<Request>> waiters = new HashMap<>();
    private final Map<SpecKey, Integer> unconverged = new HashMap<>();
    private final FightDetector fights = new FightDetector();
    private final List<Runnable> afterPublish = new ArrayList<>();
    /** Repairs of the round in flight, reported when its last transaction is answered. */
    private final List<RepairEvent> unreported = new ArrayList<>();
    private boolean passScheduled;
    private boolean southboundLive;
    private int inFlight;
    private ScheduledFuture<?> wakeup;
    private long wakeupAt = Long.MAX_VALUE;
    private boolean announced;
    private List<String> announcedStandby = List.of();
    private String lastFailure = "";
    private long lastFailureAt;

    EngineLoop(OvsdbClient client, OvsdbClient southbound, EngineSettings settings, EngineCounters counters, ListenerBus bus) {
        this.client = client;
        this.southbound = southbound;
        this.settings = settings;
        this.counters = counters;
        this.bus = bus;
        this.board = new StatusBoard(bus);
        this.queue = new WorkQueue(settings.minRetry(), settings.maxRetry());
        this.reconciler = new Reconciler(client.cache(), new Admission(settings.eipPolicy(), vipIndex, store.claims()), counters);
        this.gate = new LeaseGate(client, settings.lockName());
        // One engine-wide lock already makes this engine the only writer of all its owners.
        this.leases = new OwnerLeases(client, settings.ownerLocks() && settings.lockName().isEmpty());
        this.thread = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "ovnj-engine"));
        this.thread.setRemoveOnCancelPolicy(true);
        // Also runs the requests' deadlines: independent of the engine thread, so a stalled step cannot hold a caller.
        ScheduledThreadPoolExecutor w = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "ovnj-engine-watchdog"));
        w.setRemoveOnCancelPolicy(true);
        this.watchdog = w;
        this.executor = new TransactionSender(client, counters, bus);
        this.stages = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> daemon(r, "ovnj-engine-answers"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    // ---- any thread ----

    void start() {
        if (client.isSynced()) {
            // plan() may be called right after start(): give it the VIP index at once.
            vipIndex.rebuild(client.cache());
        }
        client.addConnectionListener(this::onConnection);
        if (southbound != null) {
            southbound.cache().addIndex(BackendHealthView.MONITOR_BY_IP);
            southbound.cache().addListener(southboundListener);
            // Health read from a Southbound we are no longer connected to is not true any more.
            southbound.addConnectionListener(e -> step("southbound " + e.kind(), () -> {
                if (e.kind() == ConnectionEvent.Kind.SYNCED) {
                    southboundLive = true;
                } else if (e.kind() == ConnectionEvent.Kind.DISCONNECTED || e.kind() == ConnectionEvent.Kind.CLOSED) {
                    southboundLive = false;
                }
                store.checked().forEach(this::refreshHealth);
            }));
            step("southbound", () -> southboundLive = southbound.isSynced());
        }
        gate.start(held -> step("lock change", () -> lockChanged(held)));
        leases.start((owner, held) -> step("owner lock change", () -> ownerLockChanged(owner, held)));
        long period = 500;
        watchdog.scheduleWithFixedDelay(this::watch, period, period, TimeUnit.MILLISECONDS);
        step("start", () -> {
            refreshAvailability();
            schedulePass();
        });
    }

    /** The cache listener: hands the batch to the engine thread, doing nothing else on the client's thread. */
    void onCacheEvents(List<CacheEvent> events) {
        List<CacheEvent> copy = List.copyOf(events);
        long seen = System.nanoTime();
        step("cache events", () -> {
            for (SpecKey k : mapper.map(copy, client.cache(), counters)) {
                mark(k, seen, false);
            }
            sweepGroups(GroupJanitor.emptied(copy));
            schedulePass();
        });
    }

    /** Service_Monitor changes: the backend health of every spec with a health check, on the engine thread. */
    private void onSouthboundEvents(List<CacheEvent> events) {
        if (events.stream().noneMatch(e -> "Service_Monitor".equals(e.table()))) {
            return;
        }
        step("southbound events", () -> store.checked().forEach(this::refreshHealth));
    }

    /** Reads one spec's backend health from the Southbound cache into its status (nothing without a Southbound). */
    private void refreshHealth(SpecKey key) {
        if (southbound == null) {
            return;
        }
        Desired d = store.get(key);
        LoadBalancerSpec spec = d == null || d.removed() || d.invalid() ? null : d.spec();
        Map<String, BackendHealth> health = spec == null ? Map.of() : BackendHealthView.of(spec, southbound.cache());
        if (!southboundLive) {
            Map<String, BackendHealth> unknown = new java.util.TreeMap<>();
            health.keySet().forEach(b -> unknown.put(b, BackendHealth.UNKNOWN));
            health = unknown;
        }
        board.setHealth(key, health);
    }

    /** Deletes the groups ovnj created whose last load balancer just left, if no spec names them. */
    private void sweepGroups(Set<java.util.UUID> emptied) {
        if (emptied.isEmpty() || !isAvailable()) {
            return;
        }
        janitor.sweep(emptied, client.cache(), client.schema()).ifPresent(e -> {
            CompletableFuture<?> call;
            try {
                // Bounded by the client's request timeout, as every transaction of the engine.
                call = client.transact(e.getKey());
            } catch (RuntimeException ex) {
                call = CompletableFuture.failedFuture(ex);
            }
            call.whenComplete((r, err) -> logSweep(e.getValue(), err));
        });
    }

    private static void logSweep(List<String> groups, Throwable err) {
        if (err == null) {
            LOG.info("deleted unused load balancer group(s) {}", String.join(", ", groups));
        } else {
            // A spec or another client took the group meanwhile (the wait failed): it stays.
            LOG.debug("load balancer group(s) {} not deleted: {}", groups, err.toString());
        }
    }

    private void onConnection(ConnectionEvent event) {
        step("connection " + event.kind(), () -> {
            if (event.kind() == ConnectionEvent.Kind.DISCONNECTED) {
                gate.disconnected();
                leases.disconnected();
            }
            if (event.kind() == ConnectionEvent.Kind.SYNCED) {
                // A resync may have changed anything: check every spec against the fresh cache.
                vipIndex.rebuild(client.cache());
                recheckAllOwners();
            }
            refreshAvailability();
            schedulePass();
        });
    }

    CompletableFuture<ApplyResult> apply(String owner, List<LoadBalancerSpec> specs, Map<String, List<SpecError>> checked,
                                         boolean allowMassDelete) {
        return request(Request.Kind.APPLY, owner, req -> {
            Set<String> names = new LinkedHashSet<>();
            Set<SpecKey> affected = new LinkedHashSet<>();
            for (LoadBalancerSpec s : specs) {
                if (names.add(s.name())) {
                    affected.addAll(store.declare(owner, s.name(), s, checked.getOrDefault(s.name(), List.of())));
                }
            }
            Set<String> gone = new LinkedHashSet<>();
            for (String old : store.names(owner)) {
                Desired d = store.get(new SpecKey(owner, old));
                if (!names.contains(old) && d != null && (!d.removed() || d.isHeld())) {
                    gone.add(old);
                }
            }
            Map<String, Integer> rows = reconciler.rowsBySpec(owner);
            gone.addAll(Reconciler.stale(rows, store.names(owner)));
            store.markComplete(owner);
            affected.addAll(deleteOrHold(owner, gone, rows, allowMassDelete));
            names.addAll(gone);
            names.forEach(n -> req.waiting.put(new SpecKey(owner, n), store.get(new SpecKey(owner, n)).generation()));
            declared(req, affected);
        });
    }

    /**
     * The owner's desired set is complete (a controller that declares with upsert says so once its
     * informers synced): rows no spec names are deleted from now on, within the deletion budget.
     */
    CompletableFuture<ApplyResult> declareComplete(String owner) {
        return request(Request.Kind.APPLY, owner, req -> {
            Map<String, Integer> rows = reconciler.rowsBySpec(owner);
            Set<String> gone = new LinkedHashSet<>(store.held(owner));
            gone.addAll(Reconciler.stale(rows, store.names(owner)));
            store.markComplete(owner);
            Set<SpecKey> affected = deleteOrHold(owner, gone, rows, false);
            store.names(owner).forEach(n -> req.waiting.put(new SpecKey(owner, n), store.get(new SpecKey(owner, n)).generation()));
            declared(req, affected);
        });
    }

    /** Deletes the rows of every spec whose deletion is held now. */
    CompletableFuture<ApplyResult> releaseHeld(String owner) {
        return request(Request.Kind.APPLY, owner, req -> {
            Set<SpecKey> affected = new LinkedHashSet<>();
            List<String> held = store.held(owner);
            for (String name : held) {
                affected.addAll(store.declare(owner, name, null, List.of()));
                SpecKey key = new SpecKey(owner, name);
                req.waiting.put(key, store.get(key).generation());
            }
            if (!affected.isEmpty()) {
                LOG.info("owner {}: held deletions of {} spec(s) released", owner, held.size());
            }
            declared(req, affected);
        });
    }

    /**
     * Declares the removal of the specs in {@code gone}, or holds it when it would delete more of
     * the owner's rows than the deletion budget allows.
     */
    private Set<SpecKey> deleteOrHold(String owner, Set<String> gone, Map<String, Integer> rows, boolean allowMassDelete) {
        Set<SpecKey> affected = new LinkedHashSet<>();
        if (gone.isEmpty()) {
            return affected;
        }
        int owned = rows.values().stream().mapToInt(Integer::intValue).sum();
        int deleting = gone.stream().mapToInt(n -> rows.getOrDefault(n, 0)).sum();
        if (allowMassDelete || !settings.deletionBudget().exceededBy(deleting, owned)) {
            gone.forEach(n -> affected.addAll(store.declare(owner, n, null, List.of())));
            return affected;
        }
        String reason = Reconciler.heldReason(deleting, owned, settings.deletionBudget());
        gone.forEach(n -> affected.addAll(store.hold(owner, n, reason)));
        counters.heldDeletions.addAndGet(gone.size());
        LOG.warn("owner {}: deletion of {} spec(s) ({} of {} rows) held: more than the deletion budget allows ({})", owner, gone.size(),
                deleting, owned, settings.deletionBudget().describe());
        List<String> held = List.copyOf(gone);
        bus.publish(ListenerBus.Event.HELD, l -> l.onDeletionsHeld(owner, held, reason));
        return affected;
    }

    CompletableFuture<ApplyResult> upsert(String owner, LoadBalancerSpec spec) {
        return request(Request.Kind.UPSERT, owner, req -> {
            boolean firstDeclaration = !store.owners().contains(owner);
            List<SpecError> duplicates = duplicateVips(owner, spec);
            if (!duplicates.isEmpty()) {
                if (req.answer()) {
                    req.future.settleExceptionally(new InvalidSpecException(duplicates), stages);
                }
                return;
            }
            Set<SpecKey> affected = store.declare(owner, spec.name(), spec, List.of());
            SpecKey key = new SpecKey(owner, spec.name());
            req.waiting.put(key, store.get(key).generation());
            if (firstDeclaration && !store.isComplete(owner)) {
                for (String orphan : reconciler.staleSpecs(owner, store.names(owner))) {
                    affected.addAll(store.hold(owner, orphan, ORPHAN));
                }
            }
            declared(req, affected);
        });
    }

    CompletableFuture<ApplyResult> remove(String owner, String name) {
        return request(Request.Kind.REMOVE, owner, req -> {
            Set<SpecKey> affected = store.declare(owner, name, null, List.of());
            SpecKey key = new SpecKey(owner, name);
            req.waiting.put(key, store.get(key).generation());
            declared(req, affected);
        });
    }

    LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs, boolean allowMassDelete) {
        return reconciler.dryRun(owner, specs, this::claimCounts, allowMassDelete ? DeletionBudget.unlimited() : settings.deletionBudget());
    }

    Map<String, SpecStatus> status(String owner) {
        return board.snapshot(owner);
    }

    boolean isAvailable() {
        return available && leases.standby().isEmpty() && !stalled && !closed;
    }

    String availabilityReason() {
        return stalled ? "engine loop stalled in step " + stepName : availabilityReason;
    }

    boolean stalled() {
        return stalled;
    }

    Map<SpecStatus.State, Integer> counts() {
        return board.counts();
    }

    /** Idempotent: fails waiting callers, releases the lock, stops the threads; the client stays open. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (southbound != null) {
            southbound.cache().removeListener(southboundListener);
        }
        gate.close();
        leases.close();
        try {
            thread.execute(() -> runStep("close", this::failAllWaiters));
        } catch (RejectedExecutionException e) {
            // Already shut down.
        }
        thread.shutdown();
        // Not shutdownNow(): the periodic check stops, but pending deadlines stay, so a caller whose
        // request a stalled loop never answers still gets EngineClosedException within its bound.
        watchdog.shutdown();
        if (!Thread.currentThread().getName().equals("ovnj-engine")) {
            try {
                thread.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // The answers already handed over still run; a later one (a deadline) uses the JDK's pool.
        stages.shutdown();
        LOG.info("engine closed");
    }

    private CompletableFuture<ApplyResult> request(Request.Kind kind, String owner, java.util.function.Consumer<Request> declare) {
        Answer<ApplyResult> f = new Answer<>();
        if (closed) {
            f.completeExceptionally(new EngineClosedException());
            return f;
        }
        Request req = new Request(kind, owner, f);
        try {
            ScheduledFuture<?> deadline = watchdog.schedule(() -> expire(req), settings.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
            f.whenComplete((r, e) -> deadline.cancel(false));
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(new EngineClosedException());
            return f;
        }
        boolean queued = step("declare", () -> {
            if (closed) {
                if (req.answer()) {
                    f.settleExceptionally(new EngineClosedException(), stages);
                }
                return;
            }
            leases.want(owner);
            declare.accept(req);
        });
        if (!queued && req.answer()) {
            f.completeExceptionally(new EngineClosedException());
        }
        return f;
    }

    /**
     * The watchdog thread: the request's time is up. Fails it with the undecided specs' statuses
     * and what the engine waits for; the specs stay declared and the loop goes on reconciling them.
     */
    private void expire(Request req) {
        if (!req.answer()) {
            return;
        }
        if (closed) {
            req.future.settleExceptionally(new EngineClosedException(), stages);
            return;
        }
        Map<String, SpecStatus> all = board.snapshot(req.owner);
        List<SpecKey> keys = req.keys;
        Map<String, SpecStatus> undecided = new LinkedHashMap<>();
        if (keys != null) {
            for (SpecKey k : keys) {
                SpecStatus s = all.get(k.spec());
                if (s != null && !s.state().settled()) {
                    undecided.put(k.spec(), s);
                }
            }
        }
        String why;
        if (!isAvailable()) {
            why = availabilityReason();
        } else if (keys == null) {
            why = "the engine has not taken the request in yet (step '" + stepName + "' running)";
        } else {
            why = undecided.values().stream().map(SpecStatus::reason).filter(r -> !r.isEmpty()).findFirst()
                    .map(r -> r.equals("writing") ? "a transaction the database has not answered yet" : r)
                    .orElse("its rows are being written");
        }
        SpecTimeoutException e = new SpecTimeoutException(req.owner, settings.requestTimeout(), why, undecided);
        LOG.debug("{}", e.getMessage());
        // Like every answer: a blocked caller wakes at once, a caller's callback never runs on the watchdog.
        req.future.settleExceptionally(e, stages);
        step("request expired", () -> dropWaiter(req));
    }

    /** Engine thread: drops an expired request from the waiters (its specs stay queued). */
    private void dropWaiter(Request req) {
        for (SpecKey k : req.waiting.keySet()) {
            List<Request> reqs = waiters.get(k);
            if (reqs != null) {
                reqs.remove(req);
                if (reqs.isEmpty()) {
                    waiters.remove(k);
                }
            }
        }
        req.waiting.clear();
    }

    /** Runs a step on the engine thread; false if the engine is closed. */
    private boolean step(String name, Runnable step) {
        try {
            thread.execute(() -> runStep(name, step));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private void runStep(String name, Runnable step) {
        stepName = name;
        stepStartedAt = System.nanoTime();
        bus.hold();
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            LOG.warn("engine step '{}' failed, the engine carries on: {}", name, e.toString());
            LOG.debug("engine step failure", e);
            if (inFlight == 0) {
                // Whatever the step had taken is looked at again.
                queue.reclaim(System.nanoTime());
                schedulePass();
            }
        } finally {
            try {
                board.publish();
                List<Runnable> done = List.copyOf(afterPublish);
                afterPublish.clear();
                done.forEach(Runnable::run);
            } finally {
                stepStartedAt = 0;
                bus.release();
            }
        }
    }

    private void watch() {
        long started = stepStartedAt;
        boolean now = started != 0 && System.nanoTime() - started > settings.stallTimeout().toNanos();
        if (now != stalled) {
            stalled = now;
            String reason = now ? "engine loop stalled: step '" + stepName + "' has run for over "
                    + settings.stallTimeout().toSeconds() + " s" : "engine loop running again";
            LOG.warn("{}", reason);
            boolean avail = isAvailable();
            bus.publish(ListenerBus.Event.AVAILABILITY, l -> l.onAvailability(avail, reason));
        }
        step("watchdog", this::schedulePass);
    }

    // ---- engine thread ----

    private void declared(Request req, Set<SpecKey> affected) {
        long now = System.nanoTime();
        req.keys = List.copyOf(req.waiting.keySet());
        for (SpecKey key : List.copyOf(req.waiting.keySet())) {
            Desired d = store.get(key);
            SpecStatus old = board.get(key);
            long observed = old == null ? 0 : old.observedGeneration();
            if (d.invalid()) {
                SpecStatus s = board.put(key, SpecStatus.State.INVALID, d.errors().stream().map(e -> e.field() + ": " + e.message()).toList(),
                        List.of(), Set.of(), List.of(), Optional.empty(), d.generation(), observed);
                queue.remove(key);
                settle(key, s);
                req.waiting.remove(key);
                continue;
            }
            if (d.isHeld()) {
                // A verdict at once: nothing is written for it. The pass looks up its rows.
                SpecStatus s = board.put(key, SpecStatus.State.HELD, List.of(d.held()), List.of(), old == null ? Set.of() : old.rows(),
                        List.of(), Optional.empty(), d.generation(), observed);
                settle(key, s);
                req.waiting.remove(key);
                queue.add(key, now, true);
                continue;
            }
            if (!d.removed()) {
                board.put(key, SpecStatus.State.PENDING, List.of(available ? "queued" : "waiting for the database: " + availabilityReason),
                        old == null ? List.of() : old.warnings(), old == null ? Set.of() : old.rows(), List.of(), Optional.empty(),
                        d.generation(), observed);
            } else if (old != null) {
                // Removed: no longer APPLIED; the status goes away once its rows are gone.
                board.put(key, SpecStatus.State.PENDING, List.of("removed; its rows are being deleted"), List.of(), old.rows(),
                        List.of(), Optional.empty(), d.generation(), observed);
            }
            unconverged.remove(key);
            fights.forget(key);
            queue.forget(key);
            queue.add(key, now, true);
            waiters.computeIfAbsent(key, k -> new ArrayList<>()).add(req);
        }
        for (SpecKey key : affected) {
            if (!req.waiting.containsKey(key)) {
                mark(key, now, true);
            }
        }
        if (req.waiting.isEmpty() && !req.answered()) {
            complete(req);
        }
        schedulePass();
    }

    private List<SpecError> duplicateVips(String owner, LoadBalancerSpec spec) {
        List<SpecError> out = new ArrayList<>();
        for (int i = 0; i < spec.vips().size(); i++) {
            VipSpec v = spec.vips().get(i);
            VipKey k = VipKey.of(v.protocol(), v.vip());
            for (DesiredStore.VipClaims.Claim c : store.claims().claims(k)) {
                if (c.key().owner().equals(owner) && !c.key().spec().equals(spec.name()) && c.seq() >= 0) {
                    out.add(new SpecError(owner, spec.name(), "vips[" + i + "].vip",
                            v.protocol().wireValue() + " " + v.vip() + " is already used by spec " + c.key().spec() + " of this owner"));
                }
            }
        }
        return out;
    }

    /** Marks a key that an event concerns; a row of an owner declared in full that no spec names is deleted. */
    private void mark(SpecKey key, long seen, boolean urgent) {
        Desired d = store.get(key);
        if (d == null) {
            if (closed || !store.owners().contains(key.owner())) {
                return;
            }
            if (store.isComplete(key.owner())) {
                store.declare(key.owner(), key.spec(), null, List.of());
            } else {
                store.hold(key.owner(), key.spec(), ORPHAN);
            }
        } else if (d.invalid()) {
            return;
        }
        queue.add(key, seen, urgent);
    }

    /** After a resync or gaining the lock: every spec is checked again, and full owners are swept. */
    private void recheckAllOwners() {
        long now = System.nanoTime();
        for (String owner : List.copyOf(store.owners())) {
            recheck(owner, now);
        }
    }

    /** Every spec of one owner is checked again; rows no spec names are deleted (within the budget) or held. */
    private void recheck(String owner, long now) {
        Map<String, Integer> rows = reconciler.rowsBySpec(owner);
        Set<String> stale = Reconciler.stale(rows, store.names(owner));
        if (store.isComplete(owner)) {
            deleteOrHold(owner, stale, rows, false);
        } else {
            stale.forEach(n -> store.hold(owner, n, ORPHAN));
        }
        for (String name : List.copyOf(store.names(owner))) {
            SpecKey k = new SpecKey(owner, name);
            if (!store.get(k).invalid()) {
                queue.forget(k);
                queue.add(k, now, true);
            }
        }
    }

    /** The server granted or took away the lock of one owner. */
    private void ownerLockChanged(String owner, boolean held) {
        if (leases.changed(owner, held)) {
            if (held) {
                recheck(owner, System.nanoTime());
            } else {
                store.names(owner).forEach(n -> sayWhyNotWritten(new SpecKey(owner, n)));
            }
        }
        refreshAvailability();
        schedulePass();
    }

    private void lockChanged(boolean held) {
        gate.lockChanged(held);
        if (held) {
            recheckAllOwners();
        }
        refreshAvailability();
        schedulePass();
    }

    private void refreshAvailability() {
        boolean writable = gate.mayWrite();
        List<String> standby = leases.standby();
        boolean now = writable && standby.isEmpty();
        String reason = !writable || standby.isEmpty() ? gate.reason() : standbyReason(standby);
        if (now != (available && announcedStandby.isEmpty()) || !announced || !standby.equals(announcedStandby)) {
            available = writable;
            announcedStandby = standby;
            availabilityReason = reason;
            if (announced || !now) {
                LOG.info("engine {}: {}", now ? "available" : "unavailable", reason);
            }
            announced = true;
            bus.publish(ListenerBus.Event.AVAILABILITY, l -> l.onAvailability(now, reason));
        }
        available = writable;
        availabilityReason = reason;
    }

    private String standbyReason(List<String> standby) {
        return standby.size() == 1 ? leases.reason(standby.get(0))
                : "standby for " + standby.size() + " owners (" + String.join(", ", standby.subList(0, Math.min(5, standby.size())))
                + (standby.size() > 5 ? ", ..." : "") + "): other engines hold their locks and write their load balancers";
    }

    private void schedulePass() {
        if (closed || inFlight > 0) {
            return;
        }
        long now = System.nanoTime();
        OptionalLong next = queue.promoteDue(now);
        if (next.isPresent() && next.getAsLong() < wakeupAt) {
            if (wakeup != null) {
                wakeup.cancel(false);
            }
            wakeupAt = next.getAsLong();
            wakeup = thread.schedule(() -> runStep("retry", () -> {
                wakeupAt = Long.MAX_VALUE;
                schedulePass();
            }), Math.max(0, wakeupAt - now), TimeUnit.NANOSECONDS);
        }
        if (passScheduled || !queue.hasReady()) {
            return;
        }
        passScheduled = true;
        long window = settings.batchWindow().toNanos();
        if (window <= 0) {
            thread.execute(() -> runStep("pass", this::pass));
        } else {
            thread.schedule(() -> runStep("pass", this::pass), window, TimeUnit.NANOSECONDS);
        }
    }

    /** One work unit of a pass: a spec's plan to write. */
    private record Work(SpecKey key, LoadBalancerPlan plan, boolean repair, long markedAt) {
    }

    private void pass() {
        passScheduled = false;
        if (closed || inFlight > 0) {
            return;
        }
        refreshAvailability();
        if (!available) {
            return;
        }
        long start = System.nanoTime();
        Map<SpecKey, Long> batch = queue.take(MAX_KEYS_PER_PASS);
        if (batch.isEmpty()) {
            return;
        }
        long t0 = EngineCounters.now();
        EipCheck eip = EipCheck.read(client.cache());
        counters.cacheRead(t0);
        Outgoing writes = new Outgoing();
        Set<String> groupsCreated = new HashSet<>();
        for (Map.Entry<SpecKey, Long> e : batch.entrySet()) {
            SpecKey key = e.getKey();
            if (!leases.mayWrite(key.owner())) {
                standBy(key);
                continue;
            }
            if (awaitsGroup(key, groupsCreated)) {
                // Its group is created by this pass: its rows can reference the group only once
                // that is written, so planning it now would only find the same thing to wait for.
                queue.requeue(key, e.getValue());
                continue;
            }
            planOne(key, e.getValue(), eip, writes::add, groupsCreated);
        }
        counters.plans.incrementAndGet();
        counters.lastPlanMicros = (System.nanoTime() - start) / 1000;
        writes.flush();
        if (inFlight == 0) {
            schedulePass();
        }
    }

    /**
     * Leaves a key of an owner whose lock this engine does not hold: the lock's grant checks every
     * spec of the owner again. A spec not written yet says why it waits.
     */
    private void standBy(SpecKey key) {
        queue.done(key);
        queue.forget(key);
        sayWhyNotWritten(key);
    }

    /** A spec of an owner this engine does not write for now, not yet written: its status says why. */
    private void sayWhyNotWritten(SpecKey key) {
        SpecStatus before = board.get(key);
        Desired d = store.get(key);
        if (before != null && d != null && !before.state().settled()) {
            board.put(key, before.state(), List.of(leases.reason(key.owner())), before.warnings(), before.rows(), List.of(),
                    Optional.empty(), d.generation(), before.observedGeneration());
        }
    }

    /** Whether the key's spec needs a group that an earlier spec of this pass is creating. */
    private boolean awaitsGroup(SpecKey key, Set<String> groupsCreated) {
        if (groupsCreated.isEmpty()) {
            return false;
        }
        Desired d = store.get(key);
        return d != null && !d.removed() && !d.invalid() && d.spec().group().filter(groupsCreated::contains).isPresent();
    }

    /** Reconciles one key, confining a failure to it: it is FAILED for now and tried again after its backoff. */
    private void planOne(SpecKey key, long markedAt, EipCheck eip, Consumer<Work> writes, Set<String> groupsCreated) {
        try {
            reconcileOne(key, markedAt, eip, writes, groupsCreated);
        } catch (RuntimeException ex) {
            Desired d = store.get(key);
            LOG.warn("planning {} failed: {}", key, ex.toString());
            LOG.debug("planning failure", ex);
            if (d != null) {
                putFailed(key, d, new ServerError("planning failed", ex.toString()));
            }
            counters.retries.incrementAndGet();
            queue.retryLater(key, System.nanoTime());
        }
    }

    private void reconcileOne(SpecKey key, long markedAt, EipCheck eip, Consumer<Work> writes, Set<String> groupsCreated) {
        Desired d = store.get(key);
        if (d == null) {
            queue.done(key);
            return;
        }
        SpecStatus before = board.get(key);
        Reconciler.Result r = reconciler.reconcile(key, d, eip, this::claimCounts);
        if (r instanceof Reconciler.Gone) {
            queue.remove(key);
            queue.done(key);
            store.forget(key);
            board.remove(key);
            unconverged.remove(key);
            settle(key, null);
        } else if (r instanceof Reconciler.Settled s) {
            queue.done(key);
            queue.forget(key);
            unconverged.remove(key);
            boolean inPlace = s.state() == SpecStatus.State.APPLIED || s.state() == SpecStatus.State.WAITING;
            long observed = inPlace ? d.generation() : before == null ? 0 : before.observedGeneration();
            refreshHealth(key);
            SpecStatus now = board.put(key, s.state(), s.reasons(), s.warnings(), s.rows(), s.conflicts(), Optional.empty(),
                    d.generation(), observed);
            if (s.state() == SpecStatus.State.CONFLICT && (before == null || before.state() != SpecStatus.State.CONFLICT)) {
                LOG.warn("owner {}, spec {}: conflict: {}", key.owner(), key.spec(), String.join("; ", s.reasons()));
            }
            settle(key, now);
        } else if (r instanceof Reconciler.Write w) {
            LoadBalancerPlan plan = withoutGroups(w.plan(), groupsCreated);
            if (plan.isEmpty()) {
                // Another spec of this pass creates the group; look again after it is written.
                queue.requeue(key, markedAt);
                return;
            }
            boolean repair = !d.removed() && before != null && before.observedGeneration() == d.generation()
                    && before.state().settled();
            if (!d.removed()) {
                List<String> reasons = before != null && before.state() == SpecStatus.State.APPLYING ? before.reasons() : List.of("writing");
                board.put(key, SpecStatus.State.APPLYING, reasons, w.warnings(), before == null ? Set.of() : before.rows(), List.of(),
                        before == null ? Optional.empty() : before.serverError(), d.generation(),
                        before == null ? 0 : before.observedGeneration());
            }
            writes.accept(new Work(key, plan, repair, markedAt));
        }
    }

    private static LoadBalancerPlan withoutGroups(LoadBalancerPlan plan, Set<String> created) {
        List<PlanChange> kept = new ArrayList<>();
        for (PlanChange c : plan.changes()) {
            if (!(c instanceof PlanChange.CreateGroup g) || created.add(g.name())) {
                kept.add(c);
            }
        }
        if (kept.size() == plan.changes().size()) {
            return plan;
        }
        return new LoadBalancerPlan(plan.owner(), kept, plan.guards(), plan.pending(), plan.conflicts(), plan.applied(), plan.invalid());
    }

    /** Whether another spec's claim on a VIP still counts: not itself invalid or in conflict. */
    private boolean claimCounts(SpecKey other) {
        SpecStatus s = board.snapshot(other.owner()).get(other.spec());
        return s == null || (s.state() != SpecStatus.State.CONFLICT && s.state() != SpecStatus.State.INVALID);
    }

    /**
     * A pass's writes, one transaction's worth per owner at a time: a chunk leaves as soon as it
     * is full, so the server starts on the first while the rest of a large pass is still being
     * planned (a mass repair of 10,000 rows otherwise kept the server idle for the whole plan).
     */
    private final class Outgoing {
        /** Per owner, the chunk being filled. */
        private final Map<String, Chunk> open = new LinkedHashMap<>();

        void add(Work w) {
            if (queue.isSolo(w.key())) {
                send(List.of(w));
                return;
            }
            Chunk chunk = open.computeIfAbsent(w.key().owner(), o -> new Chunk());
            int size = w.plan().changes().size();
            if (!chunk.works.isEmpty() && chunk.ops + size > settings.maxOpsPerTransaction()) {
                send(chunk.works);
                chunk.works = new ArrayList<>();
                chunk.ops = 0;
            }
            chunk.works.add(w);
            chunk.ops += size;
        }

        /** Sends what is left once the pass is planned (a chunk holds at least one work). */
        void flush() {
            open.values().forEach(chunk -> send(chunk.works));
            open.clear();
        }
    }

    /** Works for one transaction and their planned changes. */
    private static final class Chunk {
        List<Work> works = new ArrayList<>();
        int ops;
    }

    private void send(List<Work> chunk) {
        List<Transaction> txs;
        try {
            LoadBalancerPlan merged = Reconciler.merge(chunk.get(0).key().owner(), chunk.stream().map(Work::plan).toList());
            txs = PlanTransactions.build(merged, client.schema(), settings.maxOpsPerTransaction());
        } catch (RuntimeException e) {
            // The client refused to build it (e.g. a value the server's schema does not allow).
            inFlight++;
            chunkDone(chunk, new TransactionSender.Outcome(TransactionSender.Kind.PERMANENT, e));
            return;
        }
        inFlight++;
        executor.send(txs).whenComplete((outcome, err) -> {
            TransactionSender.Outcome o = outcome != null ? outcome : new TransactionSender.Outcome(TransactionSender.Kind.RETRIABLE, err);
            if (!step("transaction answered", () -> chunkDone(chunk, o))) {
                LOG.debug("transaction answered after close");
            }
        });
    }

    private void chunkDone(List<Work> chunk, TransactionSender.Outcome outcome) {
        inFlight--;
        long now = System.nanoTime();
        try {
            switch (outcome.kind()) {
                case COMMITTED -> committed(chunk, now);
                case GUARD_FAILED -> {
                    counters.conflicts.incrementAndGet();
                    LOG.debug("another client changed load balancers while the engine wrote; re-planning {} spec(s)", chunk.size());
                    chunk.forEach(w -> queue.requeue(w.key(), w.markedAt()));
                }
                case RETRIABLE -> {
                    ServerError error = outcome.serverError();
                    for (Work w : chunk) {
                        counters.retries.incrementAndGet();
                        Duration delay = queue.retryLater(w.key(), now);
                        retrying(w.key(), error, delay);
                    }
                }
                case PERMANENT -> rejected(chunk, outcome);
                default -> throw new IllegalStateException(outcome.kind().toString());
            }
        } finally {
            if (inFlight == 0) {
                reportRepairs();
                schedulePass();
            }
        }
    }

    private void committed(List<Work> chunk, long now) {
        List<RepairEvent> repaired = new ArrayList<>();
        List<SpecKey> written = new ArrayList<>(chunk.size());
        for (Work w : chunk) {
            queue.forget(w.key());
            int writes = unconverged.merge(w.key(), 1, Integer::sum);
            if (writes > MAX_WRITES_WITHOUT_CONVERGING) {
                Desired d = store.get(w.key());
                LOG.warn("owner {}, spec {}: the database did not keep what was written {} times in a row; giving up until it changes",
                        w.key().owner(), w.key().spec(), writes - 1);
                if (d != null) {
                    putFailed(w.key(), d, new ServerError("not converging", "the database did not keep what was written "
                            + (writes - 1) + " times in a row"));
                }
                queue.done(w.key());
                unconverged.remove(w.key());
                continue;
            }
            if (w.repair() && changedNotDeleted(w.plan()) && fights.changedBack(w.key(), now)) {
                fightDetected(w.key(), now);
                continue;
            }
            if (w.repair()) {
                Duration latency = Duration.ofNanos(now - w.markedAt());
                Map<String, List<String>> what = new LinkedHashMap<>();
                for (PlanChange c : w.plan().changes()) {
                    what.computeIfAbsent(c.subject(), k -> new ArrayList<>()).add(describe(c));
                }
                what.forEach((row, changes) -> {
                    repaired.add(new RepairEvent(w.key().owner(), row, String.join(", ", changes), latency));
                    board.recordRepair(w.key(), latency);
                });
            }
            written.add(w.key());
        }
        if (!repaired.isEmpty()) {
            counters.repairs.addAndGet(repaired.size());
            unreported.addAll(repaired);
        }
        verify(written, now);
    }

    /** Whether a repair put back what someone changed, on rows that still existed (no row or group recreated). */
    private static boolean changedNotDeleted(LoadBalancerPlan plan) {
        return plan.changes().stream().noneMatch(c -> c instanceof PlanChange.CreateRow || c instanceof PlanChange.CreateGroup);
    }

    /**
     * Another writer keeps changing this spec's rows back while they carry its owner: it is in
     * CONFLICT, said once, and left alone for {@link #FIGHT_BACKOFF} instead of answering write
     * for write (a declaration of the spec looks at it again at once).
     */
    private void fightDetected(SpecKey key, long now) {
        counters.fights.incrementAndGet();
        unconverged.remove(key);
        Desired d = store.get(key);
        SpecStatus before = board.get(key);
        String reason = "another writer changed the rows of this spec back " + FightDetector.FIGHT_REPAIRS + " times within "
                + FightDetector.WINDOW_NANOS / 1_000_000_000L + " s while they carry owner " + key.owner()
                + ": a second engine of this owner without its owner lock (ownerLocks(false), --no-owner-lock, or a lock taken"
                + " on another relay)? Not repairing it for " + FIGHT_BACKOFF.toSeconds() + " s";
        if (before == null || before.state() != SpecStatus.State.CONFLICT) {
            LOG.warn("owner {}, spec {}: {}", key.owner(), key.spec(), reason);
        }
        if (d != null) {
            ConflictingRow other = new ConflictingRow("Load_Balancer", key.spec(), Optional.empty(), Optional.of(key.owner()), "", "");
            SpecStatus s = board.put(key, SpecStatus.State.CONFLICT, List.of(reason), before == null ? List.of() : before.warnings(),
                    before == null ? Set.of() : before.rows(), List.of(other), Optional.empty(), d.generation(),
                    before == null ? 0 : before.observedGeneration());
            settle(key, s);
        }
        queue.retryAfter(key, now, FIGHT_BACKOFF);
    }

    /**
     * Looks at just-written keys again at once: the status turns APPLIED only when a fresh plan
     * finds nothing to do. The cache already holds the updates the server sent before this
     * answer (the client completes a transaction behind them), so this happens here, while the
     * round's other transactions are still being committed, rather than in one more pass after
     * the whole round. A key that still needs writing waits for the next pass, as new work does
     * while transactions are in flight.
     */
    private void verify(List<SpecKey> keys, long now) {
        if (keys.isEmpty()) {
            return;
        }
        if (!available || closed) {
            keys.forEach(k -> queue.requeue(k, now));
            return;
        }
        EipCheck eip = EipCheck.read(client.cache());
        List<Work> again = new ArrayList<>();
        Set<String> groupsCreated = new HashSet<>();
        for (SpecKey key : keys) {
            // Marks made so far came from events the cache read below already reflects.
            Long marked = queue.unmark(key);
            planOne(key, marked != null ? marked : now, eip, again::add, groupsCreated);
        }
        again.forEach(w -> queue.requeue(w.key(), w.markedAt()));
    }

    /**
     * Reports a round's repairs once all of its transactions are answered: a mass repair (a garbage
     * collection deleting every row, say) is one log line and one listener event, not one per
     * transaction or per row.
     */
    private void reportRepairs() {
        if (unreported.isEmpty()) {
            return;
        }
        List<RepairEvent> events = List.copyOf(unreported);
        unreported.clear();
        bus.publish(ListenerBus.Event.REPAIRS, l -> l.onRepairs(events));
        if (events.size() > MASS_REPAIR_ROWS) {
            long slowest = events.stream().mapToLong(e -> e.latency().toNanos()).max().orElse(0);
            LOG.info("repaired {} rows in {} ms", events.size(), String.format(Locale.ROOT, "%.1f", slowest / 1e6));
            events.forEach(e -> LOG.debug("repaired {} ({})", e.row(), e.what()));
        } else {
            events.forEach(e -> LOG.info("repaired {} ({}) in {} ms", e.row(), e.what(),
                    String.format(Locale.ROOT, "%.1f", e.latency().toNanos() / 1e6)));
        }
    }

    private void rejected(List<Work> chunk, TransactionSender.Outcome outcome) {
        if (chunk.size() > 1) {
            // Which spec did the server refuse? Each goes alone next, so only that one fails.
            chunk.forEach(w -> {
                queue.markSolo(w.key());
                queue.requeue(w.key(), w.markedAt());
            });
            return;
        }
        Work w = chunk.get(0);
        counters.failures.incrementAndGet();
        ServerError error = outcome.serverError();
        String text = error.describe();
        long now = System.nanoTime();
        if (!text.equals(lastFailure) || now - lastFailureAt > FAILURE_LOG_EVERY_NANOS) {
            LOG.warn("the database rejected spec {} of owner {}: {}", w.key().spec(), w.key().owner(), text);
            lastFailure = text;
            lastFailureAt = now;
        } else {
            LOG.debug("the database rejected spec {} of owner {}: {}", w.key().spec(), w.key().owner(), text);
        }
        queue.done(w.key());
        queue.forget(w.key());
        unconverged.remove(w.key());
        Desired d = store.get(w.key());
        if (d != null) {
            putFailed(w.key(), d, error);
        }
    }

    private void putFailed(SpecKey key, Desired d, ServerError error) {
        SpecStatus before = board.get(key);
        SpecStatus s = board.put(key, SpecStatus.State.FAILED, List.of(error.describe()), before == null ? List.of() : before.warnings(),
                before == null ? Set.of() : before.rows(), List.of(), Optional.of(error), d.generation(),
                before == null ? 0 : before.observedGeneration());
        settle(key, s);
    }

    private void retrying(SpecKey key, ServerError error, Duration delay) {
        SpecStatus before = board.get(key);
        Desired d = store.get(key);
        if (d == null || d.removed()) {
            return;
        }
        board.put(key, SpecStatus.State.APPLYING, List.of("retrying in " + delay.toMillis() + " ms after: " + error.describe()),
                before == null ? List.of() : before.warnings(), before == null ? Set.of() : before.rows(), List.of(),
                Optional.of(error), d.generation(), before == null ? 0 : before.observedGeneration());
    }

    /** Answers the callers waiting for this key, if its verdict covers the generation they need. */
    private void settle(SpecKey key, SpecStatus status) {
        List<Request> reqs = waiters.get(key);
        if (reqs == null) {
            return;
        }
        reqs.removeIf(req -> {
            Long need = req.waiting.get(key);
            if (need == null || req.answered()) {
                return true;
            }
            if (status != null && (!status.state().settled() || status.generation() < need)) {
                return false;
            }
            req.waiting.remove(key);
            if (status != null && req.kind != Request.Kind.APPLY) {
                if (status.state() == SpecStatus.State.CONFLICT || status.state() == SpecStatus.State.FAILED) {
                    failLater(req, new SpecFailedException(status));
                    return true;
                }
                if (status.state() == SpecStatus.State.INVALID && req.kind == Request.Kind.UPSERT) {
                    failLater(req, new InvalidSpecException(status.reasons().stream()
                            .map(r -> new SpecError(key.owner(), key.spec(), "vips", r)).toList()));
                    return true;
                }
            }
            if (req.waiting.isEmpty()) {
                complete(req);
            }
            return true;
        });
        if (reqs.isEmpty()) {
            waiters.remove(key);
        }
    }

    private void complete(Request req) {
        // After the board is published, so a status read right after the answer agrees with it. A
        // caller blocked on the future wakes straight from here; its callbacks run on the stage
        // threads, so they can never run on (or block) the engine thread.
        afterPublish.add(() -> {
            if (req.answer()) {
                req.future.settle(new ApplyResult(req.owner, board.snapshot(req.owner)), stages);
            }
        });
    }

    private void failLater(Request req, RuntimeException e) {
        afterPublish.add(() -> {
            if (req.answer()) {
                req.future.settleExceptionally(e, stages);
            }
        });
    }

    private void failAllWaiters() {
        EngineClosedException closedEx = new EngineClosedException();
        for (List<Request> reqs : waiters.values()) {
            reqs.forEach(r -> {
                if (r.answer()) {
                    r.future.settleExceptionally(closedEx, stages);
                }
            });
        }
        waiters.clear();
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
        } else if (c instanceof PlanChange.CreateHealthCheck h) {
            return "health check " + h.vip() + " recreated";
        } else if (c instanceof PlanChange.UpdateHealthCheck h) {
            return "health check " + h.vip() + " options";
        } else if (c instanceof PlanChange.RemoveHealthCheck h) {
            return "health check " + h.vip() + " removed";
        }
        return "deleted";
    }
}
