package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbRpcException;

/**
 * The client has no synced connection right now (connecting, reconnecting or failing over).
 * Retriable: the client reconnects by itself; retry after its state is SYNCED again. The
 * exception is a client that {@linkplain OvsdbClient#gaveUp() gave up} connecting: then the
 * message names the reason and the remote, and {@link #retriable()} is false.
 */
public final class NotConnectedException extends OvsdbRpcException {
    private static final long serialVersionUID = 1L;
    private final boolean permanent;

    NotConnectedException(String message) {
        this(message, null, false);
    }

    NotConnectedException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private NotConnectedException(String message, Throwable cause, boolean permanent) {
        super(message, cause);
        this.permanent = permanent;
    }

    /** The client gave up connecting: retrying cannot help. */
    static NotConnectedException gaveUp(GaveUp why) {
        return new NotConnectedException(why.describe(), why.cause(), true);
    }

    @Override
    public boolean retriable() {
        return !permanent;
    }
}
