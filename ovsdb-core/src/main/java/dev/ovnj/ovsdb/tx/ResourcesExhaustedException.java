package dev.ovnj.ovsdb.tx;

/** The server ran out of memory or another resource ("resources exhausted"). */
public final class ResourcesExhaustedException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public ResourcesExhaustedException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "resources exhausted", details);
    }
}
