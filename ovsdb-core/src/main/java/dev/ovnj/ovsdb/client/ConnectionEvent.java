package dev.ovnj.ovsdb.client;

import java.util.Optional;

/**
 * A change in a client's connection, delivered to {@link ConnectionListener}s.
 *
 * @param kind what happened
 * @param remote the remote concerned, when there is one
 * @param cause why a connection ended or an attempt failed, when known
 */
public record ConnectionEvent(Kind kind, Optional<Remote> remote, Optional<Throwable> cause) {

    /** What happened. */
    public enum Kind {
        /** An attempt to connect to a remote started. */
        CONNECTING,
        /** A remote accepted the connection and passed the server checks (leader, database). */
        CONNECTED,
        /** The cache holds the database as of now; transactions are accepted. */
        SYNCED,
        /** The connection ended or an attempt failed; the client will try again (unless {@link #GAVE_UP} follows). */
        DISCONNECTED,
        /** The cluster's leader moved away from the connected server; the client follows it. */
        LEADER_CHANGED,
        /**
         * The client stopped connecting for good: every remote refused it, before its first sync,
         * for a reason retrying cannot cure (see {@link GaveUp}); the cause says why. Nothing
         * follows but {@link #CLOSED}.
         */
        GAVE_UP,
        /** The client was closed by its owner. */
        CLOSED
    }

    static ConnectionEvent of(Kind kind, Remote remote, Throwable cause) {
        return new ConnectionEvent(kind, Optional.ofNullable(remote), Optional.ofNullable(cause));
    }
}
