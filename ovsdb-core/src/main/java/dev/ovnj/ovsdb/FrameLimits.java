package dev.ovnj.ovsdb;

/**
 * Bounds on what one incoming OVSDB message may cost, protecting the client from a peer that is
 * broken or hostile.
 *
 * @param maxMessageBytes largest accepted message in bytes, counting whitespace before it
 * @param maxDepth        deepest accepted nesting of objects and arrays; the top-level object is 1
 * @param maxStringLength longest accepted string (a value or a member name) in characters, on its
 *                        own: a message may be large, but a single string of it this long at most
 */
public record FrameLimits(int maxMessageBytes, int maxDepth, int maxStringLength) {

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
     * Default {@link #maxStringLength()}: 4 Mi characters. OVN's longest strings are a few hundred
     * KB (a VIP with 20,000 backends is 330 KB; a logical flow's actions a few KB), while a string
     * is the one thing the streaming decoder must hold whole: without its own bound a peer sending
     * one endless string made the parser's buffers grow, doubling, up to the message limit (3.7 GB
     * of RSS against the 1 GiB one).
     */
    public static final int DEFAULT_MAX_STRING_LENGTH = 4 * 1024 * 1024;

    /**
     * Validates the limits.
     *
     * @param maxMessageBytes largest accepted message in bytes
     * @param maxDepth        deepest accepted nesting
     * @param maxStringLength longest accepted string in characters
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
        if (maxStringLength <= 0) {
            throw new IllegalArgumentException("maxStringLength must be positive: " + maxStringLength);
        }
    }

    /**
     * Limits with the default string bound, {@link #DEFAULT_MAX_STRING_LENGTH}.
     *
     * @param maxMessageBytes largest accepted message in bytes
     * @param maxDepth        deepest accepted nesting
     */
    public FrameLimits(int maxMessageBytes, int maxDepth) {
        this(maxMessageBytes, maxDepth, DEFAULT_MAX_STRING_LENGTH);
    }

    /**
     * Returns the default limits.
     *
     * @return 1 GiB, depth 64, strings of 4 Mi characters
     */
    public static FrameLimits defaults() {
        return new FrameLimits(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STRING_LENGTH);
    }

    /**
     * Returns a copy with another message size limit; the string limit stays.
     *
     * @param bytes the new {@link #maxMessageBytes()}
     * @return the new limits
     */
    public FrameLimits withMaxMessageBytes(int bytes) {
        return new FrameLimits(bytes, maxDepth, maxStringLength);
    }

    /**
     * Returns a copy with another depth limit.
     *
     * @param depth the new {@link #maxDepth()}
     * @return the new limits
     */
    public FrameLimits withMaxDepth(int depth) {
        return new FrameLimits(maxMessageBytes, depth, maxStringLength);
    }

    /**
     * Returns a copy with another string length limit.
     *
     * @param characters the new {@link #maxStringLength()}
     * @return the new limits
     */
    public FrameLimits withMaxStringLength(int characters) {
        return new FrameLimits(maxMessageBytes, maxDepth, characters);
    }
}
