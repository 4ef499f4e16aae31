package dev.ovnj.ovsdb;

/**
 * The root of every exception ovnj's OVSDB client throws or fails a future with, so that a caller
 * can catch them all in one place. Below it: {@link dev.ovnj.ovsdb.OvsdbRpcException} (a call
 * failed; says whether retrying may help), {@link dev.ovnj.ovsdb.tx.TransactionException} (the
 * server refused a transaction), schema, value, cache and connection exceptions, and the protocol
 * errors of malformed input on the wire (internal types: they close the connection, which the
 * client reopens, and reach a caller only as the cause of a {@code ConnectionEvent}). Argument checks on public methods
 * still throw the JDK's {@link IllegalArgumentException} and {@link NullPointerException}; a value
 * that breaks a column's constraints while a transaction is built is such an argument error
 * ({@link dev.ovnj.ovsdb.data.ValueConstraintException}).
 */
public abstract class OvsdbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, naming the table, column, remote or request concerned
     * @param cause the underlying failure, or {@code null}
     */
    protected OvsdbException(String message, Throwable cause) {
        super(message, cause);
    }
}
