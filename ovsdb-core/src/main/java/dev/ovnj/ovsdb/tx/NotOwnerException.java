package dev.ovnj.ovsdb.tx;

/** An {@code assert} named a lock this session does not own ("not owner"). */
public final class NotOwnerException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public NotOwnerException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "not owner", details);
    }
}
