package dev.ovnj.lb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A caller waiting for some specs to reach a verdict: an {@code apply} waits for all of its
 * owner's keys, an {@code upsert} or {@code remove} for one. Engine thread only, except
 * {@link #answer()} and {@link #keys}, which the request's deadline reads.
 */
final class Request {
    /** What the caller asked for, which decides how a verdict completes the future. */
    enum Kind { APPLY, UPSERT, REMOVE }

    final Kind kind;
    final String owner;
    final Answer<ApplyResult> future;
    /** Keys still undecided, with the generation each must reach. */
    final Map<SpecKey, Long> waiting = new HashMap<>();
    /** Every key the request waits for, once the engine has taken it in (null before). */
    volatile List<SpecKey> keys;
    /**
     * Engine thread: undoes the declaration of a failed {@code upsert} (see
     * {@link Declarations#withdraw}); null for other requests and for an upsert that keeps its
     * declaration when it fails ({@link UpsertOption#KEEP_DECLARED}).
     */
    volatile Runnable withdrawOnFailure;
    /** Set by whoever decides the answer first: a verdict, close() or the deadline. */
    private final AtomicBoolean answered = new AtomicBoolean();

    Request(Kind kind, String owner, Answer<ApplyResult> future) {
        this.kind = kind;
        this.owner = owner;
        this.future = future;
    }

    /**
     * Claims the right to answer; the future is completed asynchronously, so this, not
     * {@code future.isDone()}, tells whether an answer is already on its way.
     *
     * @return true for the first caller only
     */
    boolean answer() {
        return answered.compareAndSet(false, true);
    }

    /** Whether an answer was already decided. */
    boolean answered() {
        return answered.get();
    }
}
