package dev.ovnj.nb.eip;

import dev.ovnj.ovsdb.Futures;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for the futures of this package on behalf of the blocking conveniences. */
final class Blocking {
    private Blocking() {
    }

    /**
     * Waits for a future, rethrowing its unchecked failure as is so that callers catch the same
     * exceptions as from the asynchronous method.
     */
    static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CompletionException(new TimeoutException(what + " did not complete within " + timeout.toMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = Futures.unwrap(e);
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new CompletionException(cause);
        }
    }
}
