package dev.ovnj.ovsdb.tx;

/** The server found a value outside its column constraints, a duplicate index key, or too many rows ("constraint violation"). */
public final class ConstraintViolationException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public ConstraintViolationException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "constraint violation", details);
    }
}
