package dev.ovnj.nb.eip;

/**
 * Concurrent writers changed the state an allocation was based on every time it tried to claim
 * an address, and it gave up. Nothing was claimed; trying again later may succeed.
 */
public final class EipConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param port the port allocated from
     * @param attempts how many claims were tried
     * @param last the last conflict the server reported
     */
    public EipConflictException(String port, int attempts, Throwable last) {
        super("gave up allocating an address on Logical_Router_Port " + port + " after " + attempts
                + " attempts: each claim raced with a concurrent change", last);
    }
}
