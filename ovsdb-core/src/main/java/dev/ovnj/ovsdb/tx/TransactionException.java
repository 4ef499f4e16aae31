package dev.ovnj.ovsdb.tx;

import dev.ovnj.ovsdb.OvsdbException;
import java.util.Optional;
import java.util.Set;

/**
 * A transaction that the server executed and rejected: an operation yielded an
 * {@code {"error": ..., "details": ...}} result, or the commit itself failed (RFC 7047 section
 * 4.1.3). Subclasses correspond to the error strings of RFC 7047; {@link #of} picks the right one.
 *
 * <p>{@link #retriable()} is true for errors that say nothing is wrong with the transaction
 * itself: "timed out" (a {@code wait} found the rows changed, i.e. an optimistic-concurrency
 * conflict, so re-read and retry), "I/O error" (transient storage failure) and "not leader" (a
 * clustered server lost leadership). All other errors will recur if the same transaction is
 * resent.
 */
public class TransactionException extends OvsdbException {

    private static final long serialVersionUID = 1L;

    private static final Set<String> RETRIABLE = Set.of("timed out", "I/O error", "not leader");

    /** The position of the failed operation, or -1 for a commit failure. */
    private final int operationIndex;
    private final transient Operation operation;
    /** The server's error string. */
    private final String error;
    /** The server's details, or null. */
    private final String details;

    /**
     * Creates the exception.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param error the {@code error} string
     * @param details the {@code details} string, or null if the server gave none
     */
    public TransactionException(int operationIndex, Operation operation, String error, String details) {
        super(message(operationIndex, operation, error, details), null);
        this.operationIndex = operationIndex;
        this.operation = operation;
        this.error = error;
        this.details = details;
    }

    private static String message(int index, Operation operation, String error, String details) {
        String where = index < 0 ? "transaction commit" : "operation " + index + " ("
                + (operation == null ? "unknown" : operation.summary()) + ")";
        return where + " failed: " + error + (details == null ? "" : ": " + details);
    }

    /**
     * Creates the exception class that matches the error string.
     *
     * @param operationIndex the position of the failed operation, or -1 for a commit failure
     * @param operation the failed operation, or null for a commit failure
     * @param error the {@code error} string
     * @param details the {@code details} string, or null
     * @return the specific exception, or a plain {@code TransactionException} for other errors
     */
    public static TransactionException of(int operationIndex, Operation operation, String error, String details) {
        return switch (error) {
            case "constraint violation" -> new ConstraintViolationException(operationIndex, operation, details);
            case "referential integrity violation" ->
                    new ReferentialIntegrityException(operationIndex, operation, details);
            case "timed out" -> new WaitTimedOutException(operationIndex, operation, details);
            case "not owner" -> new NotOwnerException(operationIndex, operation, details);
            case "aborted" -> new AbortedException(operationIndex, operation, details);
            case "duplicate uuid-name" -> new DuplicateUuidNameException(operationIndex, operation, details);
            case "resources exhausted" -> new ResourcesExhaustedException(operationIndex, operation, details);
            case "not supported" -> new NotSupportedException(operationIndex, operation, details);
            case "domain error" -> new DomainErrorException(operationIndex, operation, details);
            case "range error" -> new RangeErrorException(operationIndex, operation, details);
            case "I/O error" -> new IoErrorException(operationIndex, operation, details);
            default -> new TransactionException(operationIndex, operation, error, details);
        };
    }

    /**
     * Returns the position of the failed operation in the transaction.
     *
     * @return the index, or -1 if the operations succeeded and the commit failed
     */
    public int operationIndex() {
        return operationIndex;
    }

    /**
     * Returns the failed operation.
     *
     * @return the operation, or empty for a commit failure
     */
    public Optional<Operation> operation() {
        return Optional.ofNullable(operation);
    }

    /**
     * Returns the server's error string, e.g. {@code "constraint violation"}.
     *
     * @return the error
     */
    public String error() {
        return error;
    }

    /**
     * Returns the server's explanation.
     *
     * @return the details, or empty if the server gave none
     */
    public Optional<String> details() {
        return Optional.ofNullable(details);
    }

    /**
     * Tells whether resending the transaction, after refreshing any state it was based on, can
     * succeed; see the class comment.
     *
     * @return true for "timed out", "I/O error" and "not leader"
     */
    public boolean retriable() {
        return RETRIABLE.contains(error);
    }
}
