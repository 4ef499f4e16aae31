package dev.ovnj.ovsdb.tx;

/** An arithmetic mutation divided by zero ("domain error"). */
public final class DomainErrorException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public DomainErrorException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "domain error", details);
    }
}
