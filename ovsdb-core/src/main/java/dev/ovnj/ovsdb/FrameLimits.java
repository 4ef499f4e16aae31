package dev.ovnj.ovsdb;

/**
 * Bounds on what one incoming OVSDB message may cost, protecting the client from a peer that is
 * broken or hostile.
 *
 * @param maxMessageBytes largest accepted message in bytes, counting whitespace before it
 * @param maxDepth        deepest accepted nesting of objects and arrays; the top-level object is 1
 */
public record FrameLimits(int maxMessageBytes, int maxDepth) {

    /**
     * Default {@link #maxMessageBytes()}: 1 GiB. It bounds a broken or hostile peer, not a real
     * database: the initial reply of the doctor's Southbound monitor is over 64 MiB already at
     * 10,000 load balancers on OVN 26.03 (their logical flows), about ten times that at 100,000.
     * The decoder streams, so a legal large message costs its rows, not a copy of its bytes.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024 * 1024;

    /** Default {@link #maxDepth()}; OVSDB messages are shallow, so this is generous. */
    public static final int DEFAULT_MAX_DEPTH = 64;

    /**
     * Validates the limits.
     *
     * @param maxMessageBytes largest accepted message in bytes
     * @param maxDepth        deepest accepted nesting
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public FrameLimits {
        if (maxMessageBytes <= 0) {
            throw new IllegalArgumentException("maxMessageBytes must be positive: " + maxMessageBytes);
        }
        if (maxDepth <= 0) {
            throw new IllegalArgumentException("maxDepth must be positive: " + maxDepth);
        }
    }

    /**
     * Returns the default limits.
     *
     * @return 1 GiB and depth 64
     */
    public static FrameLimits defaults() {
        return new FrameLimits(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_DEPTH);
    }

    /**
     * Returns a copy with another message size limit.
     *
     * @param bytes the new {@link #maxMessageBytes()}
     * @return the new limits
     */
    public FrameLimits withMaxMessageBytes(int bytes) {
        return new FrameLimits(bytes, maxDepth);
    }

    /**
     * Returns a copy with another depth limit.
     *
     * @param depth the new {@link #maxDepth()}
     * @return the new limits
     */
    public FrameLimits withMaxDepth(int depth) {
        return new FrameLimits(maxMessageBytes, depth);
    }
}
