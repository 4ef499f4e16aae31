package dev.ovnj.ovsdb.wire;

import dev.ovnj.ovsdb.FrameLimits;

/** The peer sent a message longer than {@link FrameLimits#maxMessageBytes()}. */
public final class FrameTooLargeException extends ProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for the given limit.
     *
     * @param maxMessageBytes the limit that was exceeded
     */
    public FrameTooLargeException(int maxMessageBytes) {
        super("OVSDB message exceeds maxMessageBytes=" + maxMessageBytes);
    }
}
