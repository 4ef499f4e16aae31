package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.rpc.SerialExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one ordered callback thread: cache updates, listener calls and the completion of
 * returned futures run here in the order they were submitted. Once closed it drops notifications
 * (nobody listens any more) instead of throwing {@link RejectedExecutionException} into the I/O
 * thread, but still completes futures, on the submitting thread, so none is left pending.
 */
final class CallbackThread {
    private static final Logger LOG = LoggerFactory.getLogger(CallbackThread.class);

    private final ExecutorService thread = Executors.newSingleThreadExecutor(new DefaultThreadFactory("ovnj-callbacks", true));
    private final SerialExecutor serial = new SerialExecutor(thread);
    private volatile boolean closed;

    /**
     * Runs a task on the callback thread; after {@link #close()} the task is dropped.
     *
     * @param task the task; an exception it throws is logged and does not stop later tasks
     */
    void execute(Runnable task) {
        if (closed) {
            LOG.debug("client closed; dropping callback {}", task);
            return;
        }
        try {
            serial.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("client closed; dropping callback {}", task);
        }
    }

    /**
     * Completes {@code target} from {@code source} on the callback thread (or at once after close),
     * with the cause unwrapped from {@link CompletionException}.
     *
     * @param source the future to follow
     * @param <T> the value type
     * @return a future completing on the callback thread
     */
    <T> CompletableFuture<T> follow(CompletableFuture<T> source) {
        CompletableFuture<T> out = new CompletableFuture<>();
        source.whenComplete((v, e) -> complete(out, v, e));
        return out;
    }

    /**
     * Completes a future on the callback thread, behind everything submitted before; after close,
     * right here.
     *
     * @param future the future
     * @param value its value, when {@code error} is null
     * @param error the failure, or null
     * @param <T> the value type
     */
    <T> void complete(CompletableFuture<T> future, T value, Throwable error) {
        Runnable task = () -> {
            if (error != null) {
                future.completeExceptionally(Futures.unwrap(error));
            } else {
                future.complete(value);
            }
        };
        if (closed) {
            task.run();
            return;
        }
        try {
            serial.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** Stops the thread after the tasks already queued, waiting up to two seconds for them. */
    void close() {
        closed = true;
        thread.shutdown();
        try {
            thread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
