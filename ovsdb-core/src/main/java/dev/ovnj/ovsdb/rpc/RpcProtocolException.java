package dev.ovnj.ovsdb.rpc;

import dev.ovnj.ovsdb.wire.ProtocolException;

/** The peer sent a well-formed JSON object that is not a valid JSON-RPC 1.0 message. */
public final class RpcProtocolException extends ProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param problem what is wrong with the message, e.g. "response without id"
     */
    public RpcProtocolException(String problem) {
        super("invalid JSON-RPC message: " + problem);
    }
}
