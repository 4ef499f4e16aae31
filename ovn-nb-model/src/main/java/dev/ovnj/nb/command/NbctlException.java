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
}
