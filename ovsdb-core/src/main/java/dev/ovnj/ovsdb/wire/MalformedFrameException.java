package dev.ovnj.ovsdb.wire;

/** The peer sent bytes that are not a sequence of JSON objects. */
public final class MalformedFrameException extends ProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param problem    what is wrong with the input
     * @param byteOffset offset in the stream at which the problem was found, or -1 if unknown
     * @param cause      the parser error, or {@code null}
     */
    public MalformedFrameException(String problem, long byteOffset, Throwable cause) {
        super(byteOffset < 0
                ? "malformed OVSDB message: " + problem
                : "malformed OVSDB message at byte offset " + byteOffset + ": " + problem, cause);
    }
}
