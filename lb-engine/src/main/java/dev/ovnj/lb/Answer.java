package dev.ovnj.lb;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The future a caller of the engine holds. The engine decides it on its own thread ({@link #decide},
 * {@link #decideExceptionally}), which wakes a caller blocked in {@code get()} or {@code join()} at
 * once, while the future's dependent stages ({@code thenApply}, {@code whenComplete}, a relay of
 * {@code allOf}, ...) run later on the answer executor: never on the engine thread, and without
 * the extra thread hand-off that completing the whole future elsewhere would cost a blocked caller.
 *
 * <p>The verdict is the single source of truth: {@code isDone()}, {@code get()}, {@code join()},
 * {@code getNow()} read it, and every other completion ({@code complete}, {@code cancel}, a
 * timeout) must win it first, so the value a blocked caller sees is the value every dependent
 * stage sees.
 *
 * @param <T> the value type
 */
final class Answer<T> extends CompletableFuture<T> {
    private final CompletableFuture<T> verdict = new CompletableFuture<>();

    /**
     * Decides the value: wakes blocked callers here, runs dependent stages on {@code stages}.
     *
     * @return false if the future was already decided
     */
    boolean decide(T value, Executor stages) {
        if (!verdict.complete(value)) {
            return false;
        }
        forward(stages, () -> super.complete(value));
        return true;
    }

    /** Like {@link #decide} with a failure. */
    boolean decideExceptionally(Throwable error, Executor stages) {
        if (!verdict.completeExceptionally(error)) {
            return false;
        }
        forward(stages, () -> super.completeExceptionally(error));
        return true;
    }

    private static void forward(Executor stages, Runnable completion) {
        try {
            stages.execute(completion);
        } catch (RejectedExecutionException e) {
            // Never on the deciding (engine) thread: the JDK's default async executor instead.
            CompletableFuture.runAsync(completion);
        }
    }

    @Override
    public boolean complete(T value) {
        return verdict.complete(value) && super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        return verdict.completeExceptionally(ex) && super.completeExceptionally(ex);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return verdict.cancel(mayInterruptIfRunning) && super.cancel(mayInterruptIfRunning);
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
        super.obtrudeValue(value);
    }

    @Override
    public void obtrudeException(Throwable ex) {
        verdict.obtrudeException(ex);
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
        return verdict.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return verdict.get(timeout, unit);
    }

    @Override
    public T join() {
        return verdict.join();
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
