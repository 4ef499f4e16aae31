package dev.ovnj.ovsdb.tx;

/** The server does not support what the operation asked for, e.g. a durable commit ("not supported"). */
public final class NotSupportedException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public NotSupportedException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "not supported", details);
    }
}
