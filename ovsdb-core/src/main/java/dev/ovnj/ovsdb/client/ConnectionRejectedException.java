package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbException;

/**
 * A server answered but is not usable for this client: not the cluster leader, disconnected
 * from its cluster, behind a member already seen, not serving the database, or a TLS failure.
 * The client moves on to the next remote.
 */
public final class ConnectionRejectedException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    ConnectionRejectedException(String message) {
        super(message, null);
    }

    ConnectionRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
