package dev.ovnj.ovsdb.wire;

import dev.ovnj.ovsdb.FrameLimits;

/** The peer sent a string (a value or a member name) longer than {@link FrameLimits#maxStringLength()}. */
public final class StringTooLongException extends ProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for the given limit.
     *
     * @param maxStringLength the limit that was exceeded, in characters
     */
    public StringTooLongException(int maxStringLength) {
        super("OVSDB message has a string longer than maxStringLength=" + maxStringLength
                + " characters (FrameLimits.withMaxStringLength; OVN's longest strings are a few hundred KB)");
    }
}
