package dev.ovnj.ovsdb;


/**
 * Base of the failures an OVSDB call can end with, telling callers whether trying again
 * (possibly on a new connection) may succeed.
 */
public abstract class OvsdbRpcException extends OvsdbException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the description
     * @param cause   the underlying failure, or {@code null}
     */
    protected OvsdbRpcException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Tells whether the same call may succeed if repeated, typically after reconnecting.
     *
     * @return {@code true} if the failure was transient rather than a rejection of the call
     */
    public abstract boolean retriable();
}
