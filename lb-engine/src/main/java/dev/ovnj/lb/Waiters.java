package dev.ovnj.lb;

import dev.ovnj.lb.spec.SpecError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callers waiting for specs to reach a verdict, and their futures: a request is opened with a
 * deadline, registered for its keys, answered when every key it needs reached a verdict (after the
 * board is published, so a status read right after the answer agrees with it), failed by a
 * verdict it cannot accept, by its deadline, or by close. The bookkeeping runs on the engine
 * thread; the deadline runs on the watchdog thread, so a stalled step cannot hold a caller.
 */
final class Waiters {
    private static final Logger LOG = LoggerFactory.getLogger(Waiters.class);

    /** What a request's deadline needs to know of the engine to say what it waits for; any thread. */
    interface Engine {
        boolean closed();

        /** Why the engine cannot write now, or null when it can. */
        String unavailableReason();

        /** The step the engine thread is running. */
        String runningStep();

        /** Runs a step on the engine thread; false if the engine is closed. */
        boolean step(String name, Runnable step);
    }

    private final StatusBoard board;
    private final Engine engine;
    private final Duration timeout;
    private final ScheduledExecutorService deadlines;
    /**
     * Runs the dependent stages of the callers' futures (see {@link Answer}): a user's callback
     * never runs on the engine thread, and one that blocks holds only its own thread.
     */
    private final Executor stages;

    // Engine thread only.
    private final Map<SpecKey, List<Request>> byKey = new HashMap<>();
    private final List<Runnable> afterPublish = new ArrayList<>();

    Waiters(StatusBoard board, Engine engine, Duration timeout, ScheduledExecutorService deadlines, Executor stages) {
        this.board = board;
        this.engine = engine;
        this.timeout = timeout;
        this.deadlines = deadlines;
        this.stages = stages;
    }

    /**
     * Opens a request: arms its deadline, then runs {@code declare} on the engine thread; any thread.
     *
     * @return the caller's future
     */
    Answer<ApplyResult> open(Request.Kind kind, String owner, Consumer<Request> declare) {
        Answer<ApplyResult> f = new Answer<>();
        if (engine.closed()) {
            f.completeExceptionally(new EngineClosedException());
            return f;
        }
        Request req = new Request(kind, owner, f);
        try {
            ScheduledFuture<?> deadline = deadlines.schedule(() -> expire(req), timeout.toNanos(), TimeUnit.NANOSECONDS);
            // At the verdict, not as a stage of the caller's future (which would cost a hand-off; see Answer).
            f.onVerdict(() -> deadline.cancel(false));
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(new EngineClosedException());
            return f;
        }
        boolean queued = engine.step("declare", () -> {
            if (engine.closed()) {
                failNow(req, new EngineClosedException());
                return;
            }
            try {
                declare.accept(req);
            } catch (RuntimeException | Error e) {
                // Fenced at the boundary: the caller holds a future, which must not wait for the
                // deadline (or for ever) because of a defect; the step's own fence logs it.
                failNow(req, new IllegalStateException("the engine failed while taking in this " + kind.name().toLowerCase(java.util.Locale.ROOT)
                        + " of owner " + owner + ": " + e, e));
                throw e;
            }
        });
        if (!queued && req.answer()) {
            f.completeExceptionally(new EngineClosedException());
        }
        return f;
    }

    /** Engine thread: the request waits for this key's verdict. */
    void await(Request req, SpecKey key) {
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(req);
    }

    /**
     * Engine thread: a key's status changed; answers the callers waiting for it if it is a verdict
     * on the generation they need.
     */
    void verdict(SpecKey key, SpecStatus status) {
        answer(key, status);
    }

    /** Engine thread: the key's spec was removed and its rows are gone; the callers waiting for it are answered. */
    void gone(SpecKey key) {
        answer(key, null);
    }

    private void answer(SpecKey key, SpecStatus status) {
        List<Request> reqs = byKey.get(key);
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
                    fail(req, new SpecFailedException(status));
                    withdrawLater(req);
                    return true;
                }
                if (status.state() == SpecStatus.State.INVALID && req.kind == Request.Kind.UPSERT) {
                    fail(req, new InvalidSpecException(status.reasons().stream()
                            .map(r -> new SpecError(key.owner(), key.spec(), "vips", r)).toList()));
                    withdrawLater(req);
                    return true;
                }
            }
            if (req.waiting.isEmpty()) {
                complete(req);
            }
            return true;
        });
        if (reqs.isEmpty()) {
            byKey.remove(key);
        }
    }

    /**
     * Engine thread: a failed upsert's declaration is withdrawn in a step of its own, queued now,
     * before the caller hears of the failure: whatever the caller does next (another owner's row
     * deleted, say) is handled after it. Not within this step, whose handler may still be working
     * on the key.
     */
    private void withdrawLater(Request req) {
        Runnable withdraw = req.withdrawOnFailure;
        if (withdraw != null) {
            engine.step("withdraw failed upsert", withdraw);
        }
    }

    /** Engine thread: answers the request with its owner's statuses once the board is published. */
    void complete(Request req) {
        // A caller blocked on the future wakes straight from here; its callbacks run on the stage
        // threads, so they can never run on (or block) the engine thread.
        afterPublish.add(() -> {
            if (req.answer()) {
                req.future.decide(new ApplyResult(req.owner, board.snapshot(req.owner)), stages);
            }
        });
    }

    /** Engine thread: fails the request once the board is published. */
    private void fail(Request req, RuntimeException e) {
        afterPublish.add(() -> failNow(req, e));
    }

    /** Fails the request at once (nothing about it was published); any thread. */
    void failNow(Request req, RuntimeException e) {
        if (req.answer()) {
            req.future.decideExceptionally(e, stages);
        }
    }

    /** Engine thread, after the board is published: delivers the answers decided during the step. */
    void answerDecided() {
        if (afterPublish.isEmpty()) {
            return;
        }
        List<Runnable> done = List.copyOf(afterPublish);
        afterPublish.clear();
        done.forEach(Runnable::run);
    }

    /** Engine thread, on close: every waiting caller fails with {@link EngineClosedException}. */
    void failAll() {
        EngineClosedException closedEx = new EngineClosedException();
        failAll(r -> closedEx);
    }

    /**
     * Engine thread: every waiting caller fails at once with the exception made for its request
     * (the client gave up connecting: no verdict can come); failed upserts are withdrawn.
     */
    void failAll(java.util.function.Function<Request, RuntimeException> why) {
        List<Request> failed = new ArrayList<>();
        for (List<Request> reqs : byKey.values()) {
            for (Request r : reqs) {
                if (!r.answered()) {
                    failNow(r, why.apply(r));
                    failed.add(r);
                }
            }
        }
        byKey.clear();
        failed.forEach(this::withdrawLater);
    }

    /**
     * The watchdog thread: the request's time is up. Fails it with the undecided specs' statuses
     * and what the engine waits for; the specs stay declared and the loop goes on reconciling them.
     */
    private void expire(Request req) {
        if (!req.answer()) {
            return;
        }
        if (engine.closed()) {
            req.future.decideExceptionally(new EngineClosedException(), stages);
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
        String unavailable = engine.unavailableReason();
        String why;
        if (unavailable != null) {
            why = unavailable;
        } else if (keys == null) {
            why = "the engine has not taken the request in yet (step '" + engine.runningStep() + "' running)";
        } else {
            why = undecided.values().stream().map(SpecStatus::reason).filter(r -> !r.isEmpty()).findFirst()
                    .map(r -> r.equals("writing") ? "a transaction the database has not answered yet" : r)
                    .orElse("its rows are being written");
        }
        SpecTimeoutException e = new SpecTimeoutException(req.owner, timeout, why, undecided);
        LOG.debug("{}", e.getMessage());
        // Like every answer: a blocked caller wakes at once, a caller's callback never runs on the watchdog.
        req.future.decideExceptionally(e, stages);
        engine.step("request expired", () -> {
            drop(req);
            Runnable withdraw = req.withdrawOnFailure;
            if (withdraw != null) {
                withdraw.run();
            }
        });
    }

    /** Engine thread: drops an expired request (its specs stay queued). */
    private void drop(Request req) {
        for (SpecKey k : req.waiting.keySet()) {
            List<Request> reqs = byKey.get(k);
            if (reqs != null) {
                reqs.remove(req);
                if (reqs.isEmpty()) {
                    byKey.remove(k);
                }
            }
        }
        req.waiting.clear();
    }
}
