package dev.ovnj.lb;

import dev.ovnj.ovsdb.client.LockListener;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this engine may write: the client is synced with the database and, for an
 * active/standby pair, this replica holds the OVSDB lock. Leadership lives here, outside the
 * reconciler; {@link #close()} gives the lock back so a standby takes over at once.
 */
final class LeaseGate {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGate.class);

    private final OvsdbClient client;
    private final Optional<String> lockName;
    private volatile boolean closed;
    // Engine thread only.
    private boolean lockHeld;

    LeaseGate(OvsdbClient client, Optional<String> lockName) {
        this.client = client;
        this.lockName = lockName;
    }

    /**
     * Asks for the lock, if any; {@code onLock} runs (through the engine's executor) whenever it
     * is granted or taken away. Notifications after {@link #close()} are ignored.
     */
    void start(Consumer<Boolean> onLock) {
        lockName.ifPresent(name -> {
            client.addLockListener(new LockListener() {
                @Override
                public void locked(String lockId) {
                    if (!closed && lockId.equals(name)) {
                        onLock.accept(true);
                    }
                }

                @Override
                public void stolen(String lockId) {
                    if (!closed && lockId.equals(name)) {
                        onLock.accept(false);
                    }
                }
            });
            client.lock(name).whenComplete((granted, err) -> {
                if (!closed && Boolean.TRUE.equals(granted)) {
                    onLock.accept(true);
                }
            });
        });
    }

    /** Engine thread: the lock was granted or lost. */
    void lockChanged(boolean held) {
        if (held != lockHeld) {
            lockHeld = held;
            LOG.info("engine lock {} {}", lockName.orElse(""), held ? "acquired: this replica writes" : "lost: standing by");
        }
    }

    /** Engine thread: the connection dropped (the server forgets our locks with it). */
    void disconnected() {
        if (lockName.isPresent()) {
            lockHeld = false;
        }
    }

    boolean mayWrite() {
        return !closed && client.isSynced() && (lockName.isEmpty() || lockHeld);
    }

    String reason() {
        if (closed) {
            return "engine closed";
        }
        if (!client.isSynced()) {
            return client.gaveUp().map(g -> g.describe()).orElse("not connected to the Northbound database");
        }
        if (lockName.isPresent() && !lockHeld) {
            return "lock " + lockName.get() + " held by another replica";
        }
        return "connected";
    }

    /**
     * Stops listening and releases the lock without waiting: the request is sent, and the returned
     * future completes when the server answered (a failure counts as an answer: not connected, the
     * server drops the lock with the connection anyway).
     */
    CompletableFuture<Void> close() {
        closed = true;
        if (lockName.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        String name = lockName.get();
        return client.unlock(name).exceptionally(e -> {
            LOG.debug("releasing lock {}: {}", name, e.toString());
            return null;
        });
    }
}
