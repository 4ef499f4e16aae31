package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
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
 * <p>The loop owns the threads, the steps, the inputs' way in (requests, events, connection and
 * locks, through {@link CallbackInbox} from the client's thread) and the passes; its parts do the
 * rest: {@link Declarations} turns declarations and events into desired versions and marked keys,
 * {@link Waiters} keeps the callers' futures, {@link OutcomeHandler} decides what becomes of a key
 * after a plan or a transaction's answer (the only mover of a key in the {@link WorkQueue} after
 * work on it), {@link WriteRound} batches and sends the transactions.
 *
 * <p>Batching adapts to load: an idle engine plans and writes a change at once; while a round of
 * transactions is in flight, new work accumulates and goes out together in the next round. Within
 * a round, each transaction leaves as soon as its specs are planned.
 */
final class EngineLoop {
    private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);
    private static final int MAX_KEYS_PER_PASS = 50_000;

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
    private final Waiters waiters;
    private final WriteRound round;
    private final OutcomeHandler outcomes;
    private final Declarations declarations;
    private final LeaseGate gate;
    private final OwnerLeases leases;
    private final ScheduledThreadPoolExecutor thread;
    private final ScheduledExecutorService watchdog;
    /** Runs the dependent stages of the callers' futures (see {@link Waiters}). */
    private final ThreadPoolExecutor stages;

    private final OvsdbClient southbound;
    private final dev.ovnj.ovsdb.cache.CacheListener southboundListener = this::onSouthboundEvents;
    private volatile boolean closed;
    private volatile boolean available;
    private volatile boolean stalled;
    private volatile String availabilityReason = "not started";
    private volatile long stepStartedAt;
    private volatile String stepName = "";

    private final CallbackInbox inbox = new CallbackInbox(this::step, this::fenced);
    /** Steps queued on the engine thread and not started yet. */
    private final AtomicInteger queuedSteps = new AtomicInteger();

    // Engine thread only.
    private boolean passScheduled;
    /** A pass was asked for during this step: it runs at the step's end. */
    private boolean passDue;
    private boolean southboundLive;
    private ScheduledFuture<?> wakeup;
    private long wakeupAt = Long.MAX_VALUE;
    private boolean announced;
    private List<String> announcedStandby = List.of();

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
        this.stages = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> daemon(r, "ovnj-engine-answers"));
        this.waiters = new Waiters(board, new Waiters.Engine() {
            @Override
            public boolean closed() {
                return closed;
            }

            @Override
            public String unavailableReason() {
                return isAvailable() ? null : availabilityReason();
            }

            @Override
            public String runningStep() {
                return stepName;
            }

            @Override
            public boolean step(String name, Runnable step) {
                return EngineLoop.this.step(name, step);
            }
        }, settings.requestTimeout(), w, r -> {
            stages.execute(r);
            counters.handoffs.incrementAndGet();
        });
        this.round = new WriteRound(client, settings.maxOpsPerTransaction(), new TransactionSender(client, counters), bus,
                new WriteRound.Answers() {
                    @Override
                    public boolean answered(List<WriteRound.Work> chunk, TransactionSender.Outcome outcome) {
                        return fromCallbacks("transaction answered", () -> chunkDone(chunk, outcome));
                    }

                    @Override
                    public void refused(List<WriteRound.Work> chunk, TransactionSender.Outcome outcome) {
                        chunkDone(chunk, outcome);
                    }
                });
        this.outcomes = new OutcomeHandler(queue, board, store, waiters, counters, round, this::refreshHealth, leases::reason);
        this.declarations = new Declarations(store, reconciler, queue, board, waiters, outcomes, settings.deletionBudget(), counters, bus,
                () -> available ? "queued" : "waiting for the database: " + availabilityReason, () -> closed);
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
            BackendHealthView.INDEXES.forEach(southbound.cache()::addIndex);
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
        gate.start(held -> fromCallbacks("lock change", () -> lockChanged(held)));
        leases.start((owner, held) -> fromCallbacks("owner lock change", () -> ownerLockChanged(owner, held)));
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
        // While transactions are in flight, these are nearly always their own updates: they ride
        // with the answer that follows them instead of waking the engine on their own.
        inbox.offer("cache events", () -> {
            for (SpecKey k : mapper.map(copy, client.cache(), counters)) {
                declarations.mark(k, seen, false);
            }
            sweepGroups(GroupJanitor.emptied(copy));
            schedulePass();
        }, !round.awaitingAnswers());
    }

    /** Service_Monitor changes, or of the bindings and chassis of its ports: the backend health of every spec with a health check, on the engine thread. */
    private void onSouthboundEvents(List<CacheEvent> events) {
        if (events.stream().noneMatch(e -> BackendHealthView.TABLES.contains(e.table()))) {
            return;
        }
        step("southbound events", () -> store.checked().forEach(this::refreshHealth));
    }

    /**
     * Reads one spec's backend health from the Southbound cache (none without a Southbound) and
     * rolls it up into its VIPs' operating status, into its status.
     */
    private void refreshHealth(SpecKey key) {
        Desired d = store.get(key);
        LoadBalancerSpec spec = d == null || d.removed() || d.invalid() ? null : d.spec();
        if (spec == null) {
            board.setHealth(key, Map.of(), null);
            return;
        }
        Map<String, BackendHealth> health = southbound == null ? Map.of() : BackendHealthView.of(spec, southbound.cache());
        if (southbound != null && !southboundLive) {
            Map<String, BackendHealth> unknown = new java.util.TreeMap<>();
            health.keySet().forEach(b -> unknown.put(b, BackendHealth.UNKNOWN));
            health = unknown;
        }
        board.setHealth(key, health, OperatingStatus.ofVips(spec, health));
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
        // Through the inbox: a resync's rebuild of the VIP index must come after the events before it.
        fromCallbacks("connection " + event.kind(), () -> {
            if (event.kind() == ConnectionEvent.Kind.DISCONNECTED) {
                gate.disconnected();
                leases.disconnected();
            }
            if (event.kind() == ConnectionEvent.Kind.SYNCED) {
                // A resync may have changed anything: check every spec against the fresh cache.
                vipIndex.rebuild(client.cache());
                declarations.recheckAll(System.nanoTime());
            }
            if (event.kind() == ConnectionEvent.Kind.GAVE_UP) {
                // No verdict can come any more: the waiting callers hear why now, not at their timeout.
                client.gaveUp().ifPresent(g -> waiters.failAll(r -> new DatabaseGaveUpException(r.owner, g)));
            }
            refreshAvailability();
            schedulePass();
        });
    }

    Answer<ApplyResult> apply(String owner, List<LoadBalancerSpec> specs, Map<String, List<SpecError>> checked,
                              boolean allowMassDelete, Adoption adoption) {
        return request(Request.Kind.APPLY, owner, req -> declarations.apply(req, specs, checked, allowMassDelete, adoption));
    }

    /**
     * The owner's desired set is complete (a controller that declares with upsert says so once its
     * informers synced): rows no spec names are deleted from now on, within the deletion budget.
     */
    Answer<ApplyResult> declareComplete(String owner) {
        return request(Request.Kind.APPLY, owner, declarations::declareComplete);
    }

    /** Deletes the rows of every spec whose deletion is held now. */
    Answer<ApplyResult> releaseHeld(String owner) {
        return request(Request.Kind.APPLY, owner, declarations::releaseHeld);
    }

    Answer<ApplyResult> upsert(String owner, LoadBalancerSpec spec, Adoption adoption, boolean keepDeclared) {
        return request(Request.Kind.UPSERT, owner, req -> declarations.upsert(req, spec, adoption, keepDeclared));
    }

    Answer<ApplyResult> remove(String owner, String name) {
        return request(Request.Kind.REMOVE, owner, req -> declarations.remove(req, name, client.isSynced()));
    }

    LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs, boolean allowMassDelete, Adoption adoption) {
        return reconciler.dryRun(owner, specs, this::claimCounts, allowMassDelete ? DeletionBudget.unlimited() : settings.deletionBudget(),
                adoption);
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

    Map<OperatingStatus, Integer> operatingCounts() {
        return board.operatingCounts();
    }

    /**
     * Idempotent: fails waiting callers, sends the lock releases, stops the threads; the client
     * stays open. Waits for nothing of the server's unless {@code waitForServer}: the engine's own
     * threads get {@code waitNanos} to finish what they are running, and with
     * {@code waitForServer} the server's answers to the lock releases are waited for within the
     * same bound.
     *
     * @return whether everything waited for finished within the bound (false also when closed already)
     */
    boolean close(long waitNanos, boolean waitForServer) {
        if (closed) {
            return false;
        }
        long deadline = System.nanoTime() + Math.max(0, waitNanos);
        closed = true;
        if (southbound != null) {
            southbound.cache().removeListener(southboundListener);
        }
        // Sent, not waited for: a frozen server must not hold the caller; a standby takes over
        // once the server reads them (or the connection ends).
        CompletableFuture<Void> released = CompletableFuture.allOf(gate.close(), leases.close());
        try {
            thread.execute(() -> runStep("close", waiters::failAll));
        } catch (RejectedExecutionException e) {
            // Already shut down.
        }
        thread.shutdown();
        // Not shutdownNow(): the periodic check stops, but pending deadlines stay, so a caller whose
        // request a stalled loop never answers still gets EngineClosedException within its bound.
        watchdog.shutdown();
        boolean done = true;
        if (!Thread.currentThread().getName().equals("ovnj-engine")) {
            try {
                done = thread.awaitTermination(left(deadline), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                done = false;
            }
        }
        if (waitForServer) {
            try {
                released.get(left(deadline), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                done = false;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                done = false;
            }
        }
        // The answers already handed over still run; a later one (a deadline) uses the JDK's pool.
        stages.shutdown();
        if (done) {
            LOG.info("engine closed");
        } else {
            LOG.info("engine closed without waiting longer for {}", waitForServer && !released.isDone()
                    ? "the server's answer to the lock release (the server drops the lock with the connection anyway)"
                    : "its thread to finish its step");
        }
        return done;
    }

    /** The time left until {@code deadline} (a {@link System#nanoTime()} value), never negative. */
    private static long left(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private Answer<ApplyResult> request(Request.Kind kind, String owner, Consumer<Request> declare) {
        return waiters.open(kind, owner, req -> {
            leases.want(owner);
            declare.accept(req);
            schedulePass();
        });
    }

    /**
     * The one way the client's callback thread hands work to the engine (cache events and
     * transaction answers), through {@link CallbackInbox}, which keeps the one ordering the engine
     * relies on: a transaction's updates are handled before its answer.
     */
    private boolean fromCallbacks(String name, Runnable step) {
        return inbox.offer(name, step, true);
    }

    /** Runs a step on the engine thread; false if the engine is closed. */
    private boolean step(String name, Runnable step) {
        queuedSteps.incrementAndGet();
        try {
            thread.execute(() -> {
                queuedSteps.decrementAndGet();
                runStep(name, step);
            });
            counters.handoffs.incrementAndGet();
            return true;
        } catch (RejectedExecutionException e) {
            queuedSteps.decrementAndGet();
            return false;
        }
    }

    /**
     * One step: its work, then the pass it asked for; the statuses are published and the callers
     * answered after each. The pass runs right here, on the thread already awake, when no other
     * step waits; otherwise it is queued behind them, so that what they declare or mark goes out
     * in the same pass.
     */
    private void runStep(String name, Runnable step) {
        bus.hold();
        try {
            fenced(name, step);
            if (passDue) {
                passDue = false;
                if (queuedSteps.get() == 0 && !closed) {
                    // What the step decided is out first: a pass can block on the cache (behind an
                    // update that waits for another reader), and statuses, answers and listener
                    // events must not wait for it.
                    board.publish();
                    waiters.answerDecided();
                    bus.release();
                    bus.hold();
                    fenced("pass", this::pass);
                }
                if (passDue || passScheduled) {
                    // Asked again by the pass, or not run because other steps wait: behind them.
                    passDue = false;
                    step("pass", this::pass);
                }
            }
        } finally {
            try {
                board.publish();
                waiters.answerDecided();
            } finally {
                stepStartedAt = 0;
                bus.release();
            }
        }
    }

    /** Runs one piece of a step, timed for the stall check; a failure is confined to it. */
    private void fenced(String name, Runnable work) {
        stepName = name;
        stepStartedAt = System.nanoTime();
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            LOG.warn("engine step '{}' failed, the engine carries on: {}", name, e.toString());
            LOG.debug("engine step failure", e);
            if (!round.inFlight()) {
                // Whatever the step had taken is looked at again.
                queue.reclaim(System.nanoTime());
                schedulePass();
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
        inbox.nudge();
    }

    // ---- engine thread ----

    /** The server granted or took away the lock of one owner. */
    private void ownerLockChanged(String owner, boolean held) {
        if (leases.changed(owner, held)) {
            if (held) {
                declarations.recheck(owner, System.nanoTime());
            } else {
                store.names(owner).forEach(n -> outcomes.sayWhyNotWritten(new SpecKey(owner, n)));
            }
        }
        refreshAvailability();
        schedulePass();
    }

    private void lockChanged(boolean held) {
        gate.lockChanged(held);
        if (held) {
            declarations.recheckAll(System.nanoTime());
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
        if (closed || round.inFlight()) {
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
            // At the end of this step (see runStep), not as a task of its own.
            passDue = true;
        } else {
            thread.schedule(() -> runStep("pass", this::pass), window, TimeUnit.NANOSECONDS);
            counters.handoffs.incrementAndGet();
        }
    }

    private void pass() {
        passScheduled = false;
        if (closed || round.inFlight()) {
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
        EipCheck eip = reconciler.eipCheck();
        counters.cacheRead(t0);
        Set<String> groupsCreated = new HashSet<>();
        for (Map.Entry<SpecKey, Long> e : batch.entrySet()) {
            SpecKey key = e.getKey();
            if (!leases.mayWrite(key.owner())) {
                // The lock's grant checks every spec of the owner again; one not written yet says why it waits.
                outcomes.handle(new KeyOutcome.StandingBy(key));
            } else if (awaitsGroup(key, groupsCreated)) {
                // Its group is created by this pass: its rows can reference the group only once
                // that is written, so planning it now would only find the same thing to wait for.
                outcomes.handle(new KeyOutcome.AwaitsGroup(key, e.getValue()));
            } else {
                planOne(key, e.getValue(), eip, groupsCreated, false);
            }
        }
        counters.plans.incrementAndGet();
        counters.lastPlanMicros = (System.nanoTime() - start) / 1000;
        round.flush();
        if (!round.inFlight()) {
            schedulePass();
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

    /** Plans one key and handles the outcome, confining a failure to it (FAILED for now, tried again after its backoff). */
    private void planOne(SpecKey key, long markedAt, EipCheck eip, Set<String> groupsCreated, boolean verifying) {
        try {
            Desired d = store.get(key);
            Reconciler.Result r = d == null ? null : reconciler.reconcile(key, d, eip, this::claimCounts);
            store.watch(key, r == null ? Set.of() : r.health().watched());
            outcomes.handle(outcomes.afterPlan(key, d, r, markedAt, groupsCreated, verifying));
        } catch (RuntimeException ex) {
            outcomes.handle(new KeyOutcome.PlanningFailed(key, ex));
        }
    }

    /** Whether another spec's claim on a VIP still counts: not itself invalid or in conflict. */
    private boolean claimCounts(SpecKey other) {
        SpecStatus s = board.snapshot(other.owner()).get(other.spec());
        return s == null || (s.state() != SpecStatus.State.CONFLICT && s.state() != SpecStatus.State.INVALID);
    }

    /** A chunk's transactions were answered (or refused before sending): each key's outcome, then verification. */
    private void chunkDone(List<WriteRound.Work> chunk, TransactionSender.Outcome outcome) {
        try {
            outcome.publish(bus);
            List<SpecKey> written = new ArrayList<>();
            for (KeyOutcome o : outcomes.afterAnswer(chunk, outcome, System.nanoTime())) {
                outcomes.handle(o);
                if (o instanceof KeyOutcome.Committed) {
                    written.add(o.key());
                }
            }
            verify(written, System.nanoTime());
        } finally {
            if (round.answered()) {
                schedulePass();
                // Events that arrived while the round was in flight and did not wake the engine.
                inbox.nudge();
            }
        }
    }

    /**
     * Looks at just-written keys again at once: the status turns APPLIED only when a fresh plan
     * finds nothing to do. The cache already holds the updates the server sent before this
     * answer (see {@link #fromCallbacks}), so this happens here, while the round's other
     * transactions are still being committed, rather than in one more pass after the whole round.
     * A key that still needs writing waits for the next pass, as new work does while transactions
     * are in flight.
     */
    private void verify(List<SpecKey> keys, long now) {
        if (keys.isEmpty()) {
            return;
        }
        if (!available || closed) {
            keys.forEach(k -> outcomes.handle(new KeyOutcome.Recheck(k, now)));
            return;
        }
        EipCheck eip = reconciler.eipCheck();
        Set<String> groupsCreated = new HashSet<>();
        for (SpecKey key : keys) {
            // Marks made so far came from events the cache read below already reflects.
            Long marked = queue.unmark(key);
            planOne(key, marked != null ? marked : now, eip, groupsCreated, true);
        }
    }
}
