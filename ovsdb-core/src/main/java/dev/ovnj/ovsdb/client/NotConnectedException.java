package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbRpcException;

/**
 * The client has no synced connection right now (connecting, reconnecting or failing over).
 * Retriable: the client reconnects by itself; retry after its state is SYNCED again.
 */
public final class NotConnectedException extends OvsdbRpcException {
    private static final long serialVersionUID = 1L;

    NotConnectedException(String message) {
        super(message, null);
    }

    NotConnectedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retriable() {
        return true;
    }
}
