package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbException;

/**
 * A server answered but is not usable for this client: not the cluster leader, disconnected
 * from its cluster, behind a member already seen, not serving the database, or a TLS failure.
 * The client moves on to the next remote.
 */
public final class ConnectionRejectedException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    private final boolean permanent;

    ConnectionRejectedException(String message) {
        this(message, null, false);
    }

    ConnectionRejectedException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private ConnectionRejectedException(String message, Throwable cause, boolean permanent) {
        super(message, cause);
        this.permanent = permanent;
    }

    /** A refusal that waiting cannot cure for a client that never synced: the server does not serve the database at all. */
    static ConnectionRejectedException permanent(String message) {
        return new ConnectionRejectedException(message, null, true);
    }

    /**
     * Whether the refusal is one that retrying the same server cannot cure (e.g. it does not serve
     * the database): a client that every remote refuses so before its first sync stops trying.
     *
     * @return true for a permanent refusal
     */
    public boolean isPermanent() {
        return permanent;
    }
}
