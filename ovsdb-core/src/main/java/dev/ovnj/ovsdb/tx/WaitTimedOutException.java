package dev.ovnj.ovsdb.tx;

/** A {@code wait} did not see the expected rows within its timeout ("timed out"); retriable, since it signals a concurrent change. */
public final class WaitTimedOutException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public WaitTimedOutException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "timed out", details);
    }
}
