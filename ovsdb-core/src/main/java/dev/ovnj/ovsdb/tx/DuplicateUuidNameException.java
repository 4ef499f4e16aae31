package dev.ovnj.ovsdb.tx;

/** Two inserts used the same uuid-name ("duplicate uuid-name"). */
public final class DuplicateUuidNameException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public DuplicateUuidNameException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "duplicate uuid-name", details);
    }
}
