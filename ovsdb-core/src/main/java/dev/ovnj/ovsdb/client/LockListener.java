package dev.ovnj.ovsdb.client;

/**
 * Observes OVSDB locks (RFC 7047 4.1.8-4.1.10): {@code locked} when a waited-for lock is granted,
 * {@code stolen} when another client took it. Locks live on one server, so use them with a
 * leader-only connection to a cluster.
 */
public interface LockListener {
    /**
     * The lock is now held by this client.
     *
     * @param lockId the lock's name
     */
    void locked(String lockId);

    /**
     * Another client stole the lock; this client no longer holds it.
     *
     * @param lockId the lock's name
     */
    void stolen(String lockId);

    /**
     * The lock, asked for again on a new connection, is held by another client: this client waits
     * for it ({@link #locked} follows when it is granted). Lets a waiter tell "waiting for the
     * server's answer" from "another client has it" after a reconnect.
     *
     * @param lockId the lock's name
     */
    default void waiting(String lockId) {
    }
}
