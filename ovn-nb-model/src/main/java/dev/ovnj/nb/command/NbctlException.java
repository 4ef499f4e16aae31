package dev.ovnj.nb.command;

/**
 * A Northbound command refused, with ovn-nbctl's message for the same refusal (without its
 * {@code ovn-nbctl: } prefix). Nothing of the command list it belongs to is sent.
 */
public final class NbctlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the refusal.
     *
     * @param message ovn-nbctl's message
     */
    public NbctlException(String message) {
        super(message);
    }

    /**
     * Creates a refusal that replaces an earlier error of the same command, which ovn-nbctl logs as
     * "Discarding unhandled error" and does not report.
     *
     * @param message ovn-nbctl's message
     * @param discarded the earlier error, or null
     */
    public NbctlException(String message, NbctlException discarded) {
        super(message, discarded);
    }

    /**
     * The earlier error of the same command that this one replaced, if any.
     *
     * @return the discarded message, or null
     */
    public String discarded() {
        return getCause() == null ? null : getCause().getMessage();
    }
}
