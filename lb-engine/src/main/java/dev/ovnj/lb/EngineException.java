package dev.ovnj.lb;

/**
 * The root of every exception the {@link LoadBalancerEngine} fails a request's future with (or
 * throws for a request), so that a caller can catch them all in one place and switch over the
 * kinds: it is sealed, and the kinds are
 * <ul>
 *   <li>{@link InvalidSpecException}: a spec cannot work (nothing written for it);</li>
 *   <li>{@link SpecFailedException}: a spec in CONFLICT or FAILED (its status says why);</li>
 *   <li>{@link SpecTimeoutException}: no verdict within the request timeout (the database unavailable);</li>
 *   <li>{@link DatabaseGaveUpException}: the engine's client stopped connecting for good (e.g. its
 *       remotes serve another database), so the request fails at once;</li>
 *   <li>{@link EngineBusyException}: too many requests waiting (backpressure, retry later);</li>
 *   <li>{@link EngineClosedException}: the engine is closed;</li>
 *   <li>{@link UnknownSpecException}: a {@code remove} of a spec that is neither declared nor in the database.</li>
 * </ul>
 * Misuse at the call (a null argument, a builder setting out of range, a request before
 * {@link LoadBalancerEngine#start()}) still throws the JDK's {@link NullPointerException},
 * {@link IllegalArgumentException} or {@link IllegalStateException} at once; a defect inside the
 * engine surfaces as a plain {@link IllegalStateException}, never as one of these.
 *
 * <p>Compatibility: before this root existed, {@code InvalidSpecException} was an
 * {@code IllegalArgumentException} and {@code EngineClosedException} an
 * {@code IllegalStateException}. A common catchable class (an interface cannot be named in a
 * {@code catch}) cannot keep those JDK bases, so both now extend this class only; code that caught
 * them through {@code IllegalArgumentException}/{@code IllegalStateException} catches
 * {@code EngineException} (or the type itself) instead.
 */
public abstract sealed class EngineException extends RuntimeException
        permits InvalidSpecException, SpecFailedException, SpecTimeoutException, DatabaseGaveUpException, EngineBusyException,
                EngineClosedException, UnknownSpecException {
    private static final long serialVersionUID = 1L;

    EngineException(String message) {
        super(message);
    }

    EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
