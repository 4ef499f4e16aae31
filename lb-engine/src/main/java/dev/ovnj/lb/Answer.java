package dev.ovnj.lb;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The future a caller of the engine holds. The engine decides it on its own thread ({@link #decide},
 * {@link #decideExceptionally}), which wakes a caller blocked in {@code get()} or {@code join()} at
 * once, while the future's dependent stages ({@code thenApply}, {@code whenComplete}, a relay of
 * {@code allOf}, ...) run later on the answer executor: never on the engine thread, and without
 * the extra thread hand-off that completing the whole future elsewhere would cost a blocked caller.
 *
 * <p>When a caller is blocked in {@code get()} or {@code join()} at the moment of the verdict and
 * no stage depends on the future yet, the engine hands nothing to the answer executor: the woken
 * caller completes the (so far empty) stages itself before it returns, so the common
 * {@code apply(...).get()} costs one wake-up (of the caller) instead of two. A stage attached in
 * that instant then runs on that caller's thread; still never on the engine thread.
 *
 * <p>The verdict is the single source of truth: {@code isDone()}, {@code get()}, {@code join()},
 * {@code getNow()} read it, and every other completion ({@code complete}, {@code cancel}, a
 * timeout) must win it first, so the value a blocked caller sees is the value every dependent
 * stage sees.
 *
 * @param <T> the value type
 */
final class Answer<T> extends CompletableFuture<T> {
    /** Set in {@link #blocked} with {@link #CHOSEN} when the verdict left the stages to the callers blocked then. */
    private static final int LEFT_TO_CALLERS = 1 << 30;
    /** Set in {@link #blocked} once the decider chose who completes the stages (itself or the blocked callers). */
    private static final int CHOSEN = 1 << 29;
    private static final int COUNT = CHOSEN - 1;
    /** How long a caller waits for the decider's choice before it completes the stages itself. */
    private static final int MAX_SPINS = 10_000;

    private final CompletableFuture<T> verdict = new CompletableFuture<>();
    /**
     * The callers blocked in {@code get()} or {@code join()} right now, plus {@link #CHOSEN} and
     * maybe {@link #LEFT_TO_CALLERS} once the decider chose. A caller that finds the verdict decided
     * waits for that choice before it leaves (see {@link #leave}), so the decider never counts a
     * caller that is already gone, and every caller blocked when the stages were left to them
     * reads the choice when it leaves: one of them always completes the stages.
     */
    private final AtomicInteger blocked = new AtomicInteger();

    /**
     * Decides the value: wakes blocked callers here, runs dependent stages on {@code stages} (or,
     * with none yet and a caller blocked, on that caller's thread).
     *
     * @return false if the future was already decided
     */
    boolean decide(T value, Executor stages) {
        if (!verdict.complete(value)) {
            return false;
        }
        if (!leftToCallers()) {
            forward(stages, () -> super.complete(value));
        }
        return true;
    }

    /** Like {@link #decide} with a failure. */
    boolean decideExceptionally(Throwable error, Executor stages) {
        if (!verdict.completeExceptionally(error)) {
            return false;
        }
        if (!leftToCallers()) {
            forward(stages, () -> super.completeExceptionally(error));
        }
        return true;
    }

    /**
     * After the verdict, on the deciding thread: leaves the stages to the blocked callers if there
     * are some and no stage yet, and marks the choice made.
     */
    private boolean leftToCallers() {
        for (;;) {
            int b = blocked.get();
            boolean left = (b & COUNT) > 0 && getNumberOfDependents() == 0;
            if (blocked.compareAndSet(b, b | CHOSEN | (left ? LEFT_TO_CALLERS : 0))) {
                return left;
            }
        }
    }

    private static void forward(Executor stages, Runnable completion) {
        try {
            stages.execute(completion);
        } catch (RejectedExecutionException e) {
            // Never on the deciding (engine) thread: the JDK's default async executor instead.
            CompletableFuture.runAsync(completion);
        }
    }

    /**
     * Runs {@code action} once the future is decided, however (a verdict, a caller's completion,
     * cancellation or timeout), on the deciding thread: for the engine's own cheap bookkeeping only,
     * since it may run on the engine thread and is not a stage of the caller's future.
     *
     * @param action what to run
     */
    void onVerdict(Runnable action) {
        verdict.whenComplete((v, e) -> action.run());
    }

    /** How many callers are blocked in {@code get()} or {@code join()} now (for tests). */
    int blockedCallers() {
        return blocked.get() & COUNT;
    }

    /** A caller is about to block on the verdict. */
    private void enter() {
        blocked.incrementAndGet();
    }

    /**
     * A caller stopped waiting (answered, timed out or interrupted). Before the verdict it just
     * leaves; after it, it waits for the decider's choice (the decider is between the two, a few
     * instructions), and if the stages were left to the blocked callers, completes them here from
     * the verdict (a no-op for all but the first).
     */
    private void leave() {
        for (int spins = 0; ; spins++) {
            int b = blocked.get();
            if ((b & CHOSEN) != 0 || spins >= MAX_SPINS && verdict.isDone()) {
                // Past MAX_SPINS the choice is overdue (a decider descheduled for long): completing
                // the stages here too is harmless, as only the first completion counts. Only once
                // the verdict is in, or the completion would run on the deciding thread.
                blocked.decrementAndGet();
                if ((b & LEFT_TO_CALLERS) != 0 || (b & CHOSEN) == 0) {
                    completeStagesHere();
                }
                return;
            }
            if (!verdict.isDone()) {
                if (blocked.compareAndSet(b, b - 1)) {
                    return;
                }
            } else if (spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Completes the stages from the decided verdict on this (a caller's) thread. */
    private void completeStagesHere() {
        verdict.whenComplete((v, e) -> {
            if (e == null) {
                super.complete(v);
            } else {
                super.completeExceptionally(e);
            }
        });
    }

    /** Any completion but the engine's verdict: its caller completes the stages itself. */
    private void chooseNone() {
        blocked.getAndUpdate(b -> b | CHOSEN);
    }

    @Override
    public boolean complete(T value) {
        if (!verdict.complete(value)) {
            return false;
        }
        chooseNone();
        return super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        if (!verdict.completeExceptionally(ex)) {
            return false;
        }
        chooseNone();
        return super.completeExceptionally(ex);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!verdict.cancel(mayInterruptIfRunning)) {
            return false;
        }
        chooseNone();
        return super.cancel(mayInterruptIfRunning);
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        // The JDK's own completeAsync would bypass complete() and leave the verdict open.
        executor.execute(() -> {
            try {
                complete(supplier.get());
            } catch (Throwable t) {
                completeExceptionally(t);
            }
        });
        return this;
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier) {
        return completeAsync(supplier, defaultExecutor());
    }

    @Override
    public void obtrudeValue(T value) {
        verdict.obtrudeValue(value);
        chooseNone();
        super.obtrudeValue(value);
    }

    @Override
    public void obtrudeException(Throwable ex) {
        verdict.obtrudeException(ex);
        chooseNone();
        super.obtrudeException(ex);
    }

    @Override
    public boolean isDone() {
        return verdict.isDone();
    }

    @Override
    public boolean isCancelled() {
        return verdict.isCancelled();
    }

    @Override
    public boolean isCompletedExceptionally() {
        return verdict.isCompletedExceptionally();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        enter();
        try {
            return verdict.get();
        } finally {
            leave();
        }
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        enter();
        try {
            return verdict.get(timeout, unit);
        } finally {
            leave();
        }
    }

    @Override
    public T join() {
        enter();
        try {
            return verdict.join();
        } finally {
            leave();
        }
    }

    @Override
    public T getNow(T valueIfAbsent) {
        return verdict.getNow(valueIfAbsent);
    }

    @Override
    public String toString() {
        String state = verdict.toString();
        return super.toString().replaceFirst("\\[[^\\[]*\\]$", state.substring(state.lastIndexOf('[')));
    }
}
