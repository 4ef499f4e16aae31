package dev.ovnj.ovsdb.tx;

/** The commit would leave a strong reference to a missing row ("referential integrity violation"). */
public final class ReferentialIntegrityException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param details the server's explanation, or null
     */
    public ReferentialIntegrityException(int operationIndex, Operation operation, String details) {
        super(operationIndex, operation, "referential integrity violation", details);
    }
}
