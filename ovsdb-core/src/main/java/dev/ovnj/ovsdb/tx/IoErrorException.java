package dev.ovnj.ovsdb.tx;

/** The server could not write the commit to storage ("I/O error"); retriable. */
public final class IoErrorException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public IoErrorException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "I/O error", details);
    }
}
