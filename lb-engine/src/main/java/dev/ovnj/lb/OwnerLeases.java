package dev.ovnj.lb;

import dev.ovnj.ovsdb.client.LockListener;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer per owner: before the engine writes an owner's rows it takes an OVSDB lock named
 * after the owner ({@link #lockName}), so two engines with the same owner (the old and the new
 * pod of a rolling update, two {@code ovnj reconcile --watch}) never fight over its rows: the
 * second stands by until the first lets go (closes, or its connection drops) and then takes over.
 * Engines of different owners never wait for each other.
 *
 * <p>Engine thread only, except the lock notifications, which arrive on the client's callback
 * thread and are handed to the engine thread through {@code onChange}.
 */
final class OwnerLeases {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerLeases.class);
    private static final int READABLE_PART = 40;

    /** Where one owner's lease stands. */
    enum State {
        /** Asked for; the server has not answered yet. */
        REQUESTED,
        /** This engine holds the lock: it writes the owner's rows. */
        HELD,
        /** Another engine (or client) holds the lock: this one stands by. */
        STANDBY
    }

    private final OvsdbClient client;
    private final boolean enabled;
    private final Map<String, State> owners = new LinkedHashMap<>();
    private final Map<String, String> ownerByLock = new HashMap<>();
    private BiConsumer<String, Boolean> onChange;
    /** The owners whose lock another engine holds, as of the engine thread's last change: read from any thread. */
    private volatile List<String> standby = List.of();
    private volatile boolean closed;

    OwnerLeases(OvsdbClient client, boolean enabled) {
        this.client = client;
        this.enabled = enabled;
    }

    /**
     * The OVSDB lock that stands for an owner: {@code ovnj_} and the owner with every character an
     * OVSDB id does not allow replaced by {@code _} (cut to 40 characters), then {@code _} and the
     * first 8 hex digits of the owner's SHA-256, so that owners differing only in such characters
     * (e.g. {@code a/b} and {@code a_b}) still get different locks.
     *
     * @param owner the owner
     * @return the lock name, a valid OVSDB {@code <id>}
     */
    static String lockName(String owner) {
        StringBuilder readable = new StringBuilder("ovnj_");
        for (int i = 0; i < owner.length() && i < READABLE_PART; i++) {
            char c = owner.charAt(i);
            readable.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(owner.getBytes(StandardCharsets.UTF_8));
            return readable.append('_').append(HexFormat.of().formatHex(hash, 0, 4)).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Starts following lock notifications; {@code onChange(owner, held)} runs on the client's callback thread. */
    void start(BiConsumer<String, Boolean> onChange) {
        if (!enabled) {
            return;
        }
        this.onChange = onChange;
        client.addLockListener(new LockListener() {
            @Override
            public void locked(String lockId) {
                lockNotice(lockId, true);
            }

            @Override
            public void stolen(String lockId) {
                lockNotice(lockId, false);
            }

            @Override
            public void waiting(String lockId) {
                lockNotice(lockId, false);
            }
        });
    }

    private void lockNotice(String lockId, boolean held) {
        String owner;
        synchronized (ownerByLock) {
            owner = ownerByLock.get(lockId);
        }
        if (!closed && owner != null) {
            onChange.accept(owner, held);
        }
    }

    /** Engine thread: asks for the owner's lock the first time the owner is seen. */
    void want(String owner) {
        if (!enabled || owners.containsKey(owner)) {
            return;
        }
        String lock = lockName(owner);
        synchronized (ownerByLock) {
            ownerByLock.put(lock, owner);
        }
        owners.put(owner, State.REQUESTED);
        publish();
        client.lock(lock).whenComplete((granted, err) -> {
            if (closed) {
                return;
            }
            if (err instanceof dev.ovnj.ovsdb.RpcErrorException || err != null && err.getCause() instanceof dev.ovnj.ovsdb.RpcErrorException) {
                // A server that does not take locks at all: writing without one beats never writing.
                LOG.warn("owner {}: the server refused lock {} ({}); writing without the owner lock", owner, lock, err.toString());
                onChange.accept(owner, true);
            } else if (err != null) {
                // Not connected: the client asks again on its next session and says "locked" then.
                LOG.debug("asking for lock {}: {}", lock, err.toString());
            } else {
                onChange.accept(owner, granted);
            }
        });
    }

    /** Engine thread: the server granted or took away (or refused) an owner's lock; true if the state changed. */
    boolean changed(String owner, boolean held) {
        State before = owners.get(owner);
        if (before == null) {
            return false;
        }
        State now = held ? State.HELD : State.STANDBY;
        owners.put(owner, now);
        publish();
        if (before == State.REQUESTED && held) {
            // The usual first answer, once per owner: not worth a line each for a thousand owners.
            LOG.debug("owner {}: lock {} acquired", owner, lockName(owner));
        } else if (before != now) {
            LOG.info("owner {}: lock {} {}", owner, lockName(owner),
                    held ? "acquired: this engine now writes its load balancers" : "held by another engine: standing by");
        }
        return before != now;
    }

    /** Engine thread: the connection dropped, and the server forgot our locks with it. */
    void disconnected() {
        owners.replaceAll((o, s) -> State.REQUESTED);
        publish();
    }

    /**
     * Whether this engine may write the owner's rows now.
     *
     * @param owner the owner
     * @return true without owner locks, or when its lock is held
     */
    boolean mayWrite(String owner) {
        return !enabled || owners.get(owner) == State.HELD;
    }

    /** The owners whose lock another engine holds, so that this one stands by for them; any thread. */
    List<String> standby() {
        return standby;
    }

    private void publish() {
        List<String> out = new ArrayList<>();
        owners.forEach((o, s) -> {
            if (s == State.STANDBY) {
                out.add(o);
            }
        });
        standby = List.copyOf(out);
    }

    /** Why the owner's rows are not written now, for its specs' status. */
    String reason(String owner) {
        State s = owners.get(owner);
        return s == State.STANDBY
                ? "standby: another engine holds lock " + lockName(owner) + " for owner " + owner + " and writes its load balancers"
                : "waiting for lock " + lockName(owner) + " of owner " + owner;
    }

    /**
     * Releases every owner lock without waiting: the requests are sent, and the returned future
     * completes when the server answered them all (a failure counts as an answer: not connected,
     * the server drops the locks with the connection anyway).
     */
    CompletableFuture<Void> close() {
        closed = true;
        if (!enabled) {
            return CompletableFuture.completedFuture(null);
        }
        List<String> locks;
        synchronized (ownerByLock) {
            locks = List.copyOf(ownerByLock.keySet());
        }
        CompletableFuture<?>[] calls = locks.stream().map(l -> client.unlock(l).exceptionally(e -> {
            LOG.debug("releasing owner lock {}: {}", l, e.toString());
            return null;
        })).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(calls);
    }
}
