package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.typed.SchemaMismatchException;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the connection: picks the next remote, opens a session ({@link Connector}), passes it
 * through the {@link Handshake} and the main monitor ({@link MonitorRegistry}), makes it current,
 * and starts over when it ends, trying each remote once before backing off exponentially with
 * jitter. It watches the {@code _Server} row of the current session and leaves a cluster member
 * that stops being leader or loses its cluster, or a relay that loses its source.
 *
 * <p>All its state changes on the control event loop, so {@link #current()} has one writer. Each
 * state change is logged once at INFO with the cause's message; stack traces only at DEBUG.
 */
final class ConnectionSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionSupervisor.class);

    private final ClientOptions options;
    private final EventLoop control;
    private final Connector connector;
    private final Handshake handshake;
    private final MonitorRegistry monitors;
    private final CacheFeed feed;
    private final CallbackThread callbacks;
    private final ListenerFence fence;
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Session>> onSynced = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> firstSync = new CompletableFuture<>();
    private final AtomicLong connects = new AtomicLong();

    // Confined to the control event loop.
    private int nextRemote;
    private int failuresThisRound;
    private int mismatchesThisRound;
    private Duration backoff;
    private boolean started;
    // Whether this outage's "no usable server" INFO line was written; later failed rounds log at DEBUG.
    private boolean outageReported;
    // Written on the control event loop only; read anywhere.
    private volatile Session current;
    /** Why the latest connection attempt failed; null once synced. */
    private volatile Throwable lastFailure;
    /** Set once when the client stops connecting for good; read anywhere. */
    private volatile GaveUp gaveUp;
    private volatile boolean closed;

    ConnectionSupervisor(ClientOptions options, EventLoop control, Connector connector, Handshake handshake,
                         MonitorRegistry monitors, CacheFeed feed, CallbackThread callbacks, ListenerFence fence) {
        this.options = options;
        this.control = control;
        this.connector = connector;
        this.handshake = handshake;
        this.monitors = monitors;
        this.feed = feed;
        this.callbacks = callbacks;
        this.fence = fence;
        this.backoff = options.minBackoff();
    }

    /**
     * Registers work to do on every newly synced session (re-request locks, re-open side monitors).
     *
     * @param hook called on the control loop after the session became current
     */
    void onSynced(Consumer<Session> hook) {
        onSynced.add(hook);
    }

    void addListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    boolean removeListener(ConnectionListener listener) {
        return listeners.remove(listener);
    }

    /**
     * The current session, once synced; null while connecting.
     *
     * @return the session or null
     */
    Session current() {
        return current;
    }

    long connects() {
        return connects.get();
    }

    /**
     * The first sync.
     *
     * @return completes, on the callback thread, at the first sync
     */
    CompletableFuture<Void> firstSync() {
        return firstSync;
    }

    /** Why the latest connection attempt failed, while not synced (for a message that says why). */
    java.util.Optional<Throwable> lastFailure() {
        return current == null ? java.util.Optional.ofNullable(lastFailure) : java.util.Optional.empty();
    }

    /** Why the client stopped connecting for good, if it did. */
    java.util.Optional<GaveUp> gaveUp() {
        return java.util.Optional.ofNullable(gaveUp);
    }

    /** Starts connecting, once; after close it does nothing (the first-sync future has failed). */
    void start() {
        if (closed) {
            return;
        }
        try {
            control.execute(() -> {
                if (!started && !closed) {
                    started = true;
                    connectNext();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // Closed concurrently: close() failed the first-sync future.
        }
    }

    /** Stops reconnecting and closes the current session. */
    void close() {
        closed = true;
        Session s = current;
        if (s != null) {
            s.close();
        }
        callbacks.complete(firstSync, null, new NotConnectedException("client closed before it synced"));
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CLOSED, null, null));
    }

    private void connectNext() {
        if (closed) {
            return;
        }
        List<Remote> remotes = options.remotes();
        Remote remote = remotes.get(nextRemote % remotes.size());
        nextRemote = (nextRemote + 1) % remotes.size();
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CONNECTING, remote, null));
        connector.open(remote)
                .thenCompose(s -> handshake.run(s)
                        .thenCompose(monitors::establishMain)
                        .whenComplete((resumed, e) -> {
                            if (e != null) {
                                s.close();
                            }
                        })
                        .thenApply(resumed -> new Synced(s, resumed)))
                .whenCompleteAsync((synced, err) -> {
                    if (err != null) {
                        attemptFailed(remote, connector.lateTlsRefusal(remote, Futures.unwrap(err)));
                    } else {
                        synced(synced.session, synced.resumed);
                    }
                }, control);
    }

    private record Synced(Session session, boolean resumed) {
    }

    private void attemptFailed(Remote remote, Throwable cause) {
        if (closed) {
            return;
        }
        LOG.debug("connection attempt to {} failed", remote, cause);
        fire(ConnectionEvent.of(ConnectionEvent.Kind.DISCONNECTED, remote, cause));
        failuresThisRound++;
        lastFailure = cause;
        if (cause instanceof SchemaMismatchException || cause instanceof ConnectionRejectedException r && r.isPermanent()) {
            mismatchesThisRound++;
        }
        if (failuresThisRound < options.remotes().size()) {
            // As OVS does: one immediate try of every remote before backing off.
            connectNext();
            return;
        }
        // Retrying cannot help a first connection that every server refuses for its schema or
        // database; once synced, a refusal may be a rolling upgrade in progress, so the client
        // keeps trying.
        if (mismatchesThisRound == options.remotes().size() && !firstSync.isDone()) {
            GaveUp why = new GaveUp(options.remotes(), java.util.Optional.of(remote), message(cause), cause);
            gaveUp = why;
            LOG.error("stopped connecting: {}", why.describe());
            fire(ConnectionEvent.of(ConnectionEvent.Kind.GAVE_UP, remote, cause));
            callbacks.complete(firstSync, null, cause);
            return;
        }
        failuresThisRound = 0;
        mismatchesThisRound = 0;
        long base = backoff.toMillis();
        long jittered = base == 0 ? 0 : base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
        backoff = backoff.multipliedBy(2).compareTo(options.maxBackoff()) <= 0 ? backoff.multipliedBy(2) : options.maxBackoff();
        if (backoff.isZero()) {
            backoff = options.maxBackoff();
        }
        if (!outageReported) {
            LOG.info("no usable server among {} (last: {}); retrying with backoff up to {} ms", options.remotes(), message(cause),
                    options.maxBackoff().toMillis());
            outageReported = true;
        } else {
            LOG.debug("still no usable server among {} (last: {}); retrying in {} ms", options.remotes(), message(cause), jittered);
        }
        control.schedule(this::connectNext, jittered, TimeUnit.MILLISECONDS);
    }

    /** The session passed the handshake and its monitor reply is in the cache (control loop). */
    private void synced(Session s, boolean resumed) {
        if (closed) {
            s.close();
            return;
        }
        // Counted as a sync even if the connection is already gone: the cache was synced from it.
        connects.incrementAndGet();
        if (!s.isOpen()) {
            // It closed after the monitor reply but before now; sessionEnded ignored it, as it was
            // not current yet. Start over from here.
            ended(s, s.rpc.closeFuture().join());
            return;
        }
        s.rpc.closeFuture().thenAccept(cause -> control.execute(() -> sessionEnded(s, cause)));
        s.synced = true;
        current = s;
        backoff = options.minBackoff();
        failuresThisRound = 0;
        mismatchesThisRound = 0;
        outageReported = false;
        LOG.info("connected to {} ({} {}, {}, {} rows, {})", s.remote, options.database(), s.schema.version().orElse("?"),
                s.model().name().toLowerCase(java.util.Locale.ROOT), feed.cache().size(),
                resumed ? "resumed with monitor_cond_since" : "full sync");
        fire(ConnectionEvent.of(ConnectionEvent.Kind.CONNECTED, s.remote, null));
        fire(ConnectionEvent.of(ConnectionEvent.Kind.SYNCED, s.remote, null));
        for (Consumer<Session> hook : onSynced) {
            hook.accept(s);
        }
        callbacks.complete(firstSync, null, null);
    }

    private void sessionEnded(Session s, Throwable cause) {
        if (current != s) {
            return;
        }
        current = null;
        ended(s, cause);
    }

    private void ended(Session s, Throwable cause) {
        if (closed) {
            return;
        }
        LOG.info("disconnected from {}: {}", s.remote, cause == null ? "closed" : message(cause));
        if (cause != null) {
            LOG.debug("disconnect cause", cause);
        }
        fire(ConnectionEvent.of(ConnectionEvent.Kind.DISCONNECTED, s.remote, cause));
        failuresThisRound = 0;
        mismatchesThisRound = 0;
        connectNext();
    }

    /**
     * A {@code _Server} update on a session (callback thread). It is decoded against that
     * session's own last row, so an update from a session that is ending cannot mix with the
     * row of the next one.
     *
     * @param s the session it arrived on
     * @param updates the table-updates
     */
    void onServerUpdate(Session s, JsonNode updates) {
        ServerCheck check = ServerCheck.fromUpdates2(JsonNodeFactory.instance.objectNode().set("Database", updates.path("Database")),
                options.database(), s.serverCheck);
        if (check == null) {
            return;
        }
        s.serverCheck = check;
        if (!s.isOpen()) {
            return;
        }
        check.refusal(options.leaderOnly()).ifPresent(why -> {
            boolean leaderMoved = check.clustered() && check.connected() && options.leaderOnly() && !check.leader();
            LOG.info("{} {}; reconnecting{}", s.remote, why, leaderMoved ? " to the new leader" : "");
            if (leaderMoved) {
                fire(ConnectionEvent.of(ConnectionEvent.Kind.LEADER_CHANGED, s.remote, null));
            }
            s.close();
        });
    }

    private void fire(ConnectionEvent event) {
        if (listeners.isEmpty()) {
            return;
        }
        callbacks.execute(() -> {
            for (ConnectionListener l : listeners) {
                fence.call("connection listener (" + event.kind() + ")", () -> l.onEvent(event));
            }
        });
    }

    private static String message(Throwable cause) {
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }
}
