package dev.ovnj.ovsdb.wire;

import dev.ovnj.ovsdb.FrameLimits;

/** The peer sent a message nested deeper than {@link FrameLimits#maxDepth()}. */
public final class FrameTooDeepException extends ProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for the given limit.
     *
     * @param maxDepth the limit that was exceeded
     */
    public FrameTooDeepException(int maxDepth) {
        super("OVSDB message nesting exceeds maxDepth=" + maxDepth);
    }
}
