package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.data.OvsdbId;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The OVSDB locks the client wants (RFC 7047 4.1.8-4.1.10): requested again on every new session
 * until released with {@code unlock}, and their {@code locked}/{@code stolen} notifications fanned
 * out to the lock listeners through the {@link ListenerFence}.
 */
final class LockManager {
    private final ClientOptions options;
    private final CallbackThread callbacks;
    private final ListenerFence fence;
    private final Supplier<Session> current;
    private final Set<String> wanted = ConcurrentHashMap.newKeySet();
    private final List<LockListener> listeners = new CopyOnWriteArrayList<>();

    LockManager(ClientOptions options, CallbackThread callbacks, ListenerFence fence, Supplier<Session> current) {
        this.options = options;
        this.callbacks = callbacks;
        this.fence = fence;
        this.current = current;
    }

    void addListener(LockListener listener) {
        listeners.add(listener);
    }

    boolean removeListener(LockListener listener) {
        return listeners.remove(listener);
    }

    CompletableFuture<Boolean> lock(String lockId) {
        return request("lock", lockId);
    }

    CompletableFuture<Boolean> steal(String lockId) {
        return request("steal", lockId);
    }

    CompletableFuture<Void> unlock(String lockId) {
        wanted.remove(lockId);
        return call(current.get(), "unlock", lockId).thenApply(x -> null);
    }

    /**
     * ovsdb-server refuses a second lock or steal for an id this connection already requested
     * ("must issue unlock before new ..."), so an earlier request is withdrawn first.
     */
    private CompletableFuture<Boolean> request(String method, String lockId) {
        OvsdbId.require("lock name", lockId);
        Session s = current.get();
        boolean earlier = !wanted.add(lockId);
        if (!earlier) {
            return call(s, method, lockId);
        }
        return call(s, "unlock", lockId).thenCompose(x -> call(s, method, lockId));
    }

    /**
     * Requests every wanted lock on a new session; a lock granted at once is reported with
     * {@link LockListener#locked}, one held by another client with {@link LockListener#waiting}.
     *
     * @param s the new, synced session
     */
    void resume(Session s) {
        for (String lock : wanted) {
            call(s, "lock", lock).whenComplete((granted, err) -> {
                if (Boolean.TRUE.equals(granted)) {
                    locked(lock);
                } else if (Boolean.FALSE.equals(granted)) {
                    waiting(lock);
                }
            });
        }
    }

    /**
     * A {@code locked} notification (callback thread).
     *
     * @param lockId the lock
     */
    void locked(String lockId) {
        for (LockListener l : listeners) {
            fence.call("lock listener (locked " + lockId + ")", () -> l.locked(lockId));
        }
    }

    private void waiting(String lockId) {
        for (LockListener l : listeners) {
            fence.call("lock listener (waiting " + lockId + ")", () -> l.waiting(lockId));
        }
    }

    /**
     * A {@code stolen} notification (callback thread).
     *
     * @param lockId the lock
     */
    void stolen(String lockId) {
        for (LockListener l : listeners) {
            fence.call("lock listener (stolen " + lockId + ")", () -> l.stolen(lockId));
        }
    }

    private CompletableFuture<Boolean> call(Session s, String method, String lockId) {
        if (s == null || !s.synced) {
            return CompletableFuture.failedFuture(new NotConnectedException("not connected; the lock is requested on connect"));
        }
        return callbacks.follow(s.call(method, options.requestTimeout(), lockId)).thenApply(r -> r.path("locked").asBoolean(false));
    }
}
