package dev.ovnj.ovsdb.wire;

import dev.ovnj.ovsdb.OvsdbException;

/**
 * A violation of the OVSDB wire protocol by the peer. The connection that produced it cannot be
 * trusted to stay in sync and is closed.
 */
public class ProtocolException extends OvsdbException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception describing the violation.
     *
     * @param message what was violated, naming the limit or problem
     */
    public ProtocolException(String message) {
        super(message, null);
    }

    /**
     * Creates an exception describing the violation and the error that revealed it.
     *
     * @param message what was violated, naming the limit or problem
     * @param cause   the underlying error
     */
    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
