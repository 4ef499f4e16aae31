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
}
