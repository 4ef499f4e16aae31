package dev.ovnj.ovsdb;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What callers of this library's futures need to read their failures. */
public final class Futures {
    private Futures() {
    }

    /**
     * The failure itself, without the {@link CompletionException} or {@link ExecutionException}
     * wrappers that {@code CompletableFuture} stages and {@code get()} put around it.
     *
     * @param failure a future's failure, wrapped or not
     * @return the innermost cause that is not such a wrapper (a wrapper without a cause is returned as is)
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
