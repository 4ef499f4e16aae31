package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.ConnectionClosedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * How the client knows, once a transaction's reply arrived, that the monitor updates the
 * transaction caused have arrived too, so that its future can complete after the cache holds them
 * (read-your-writes).
 *
 * <p>{@link #ORDERED}: {@code ovsdb-server} flushes every pending monitor update of a connection
 * before it sends any reply on it ({@code ovsdb_jsonrpc_session_send}); measured with its jsonrpc
 * debug log (OVS 3.1) for a standalone server, a cluster leader, a cluster follower and a relay
 * (see docs/architecture.md). The reply itself is then the confirmation: no extra request.
 *
 * <p>{@link #barrier}: for a server that does not say what it is (no {@code _Server} database:
 * ovsdb-server before 2.9 or another implementation), an {@code echo} sent after the reply and
 * answered proves that everything the server sent before it has arrived. One echo covers every
 * reply that arrived before it was sent, so a burst of replies costs one request, not one each.
 */
abstract class WriteConfirmation {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /** The server sends a transaction's updates before its reply: nothing to wait for. */
    static final WriteConfirmation ORDERED = new WriteConfirmation() {
        @Override
        CompletableFuture<Void> afterReply() {
            return DONE;
        }
    };

    /**
     * Called on the session's I/O thread when a committed transaction's reply arrived.
     *
     * @return completes once every update the server sent before that reply has been read
     */
    abstract CompletableFuture<Void> afterReply();

    /**
     * An echo barrier, shared by the replies of a burst.
     *
     * @param session the session whose replies it confirms
     * @param timeout bound on each echo
     * @return the confirmation
     */
    static WriteConfirmation barrier(Session session, Duration timeout) {
        return new Barrier(session, timeout);
    }

    /** One echo in flight at most; replies that arrive meanwhile wait for the next one. */
    private static final class Barrier extends WriteConfirmation {
        private final Session session;
        private final Duration timeout;
        // Confined to the session's event loop.
        private List<CompletableFuture<Void>> waiting = new ArrayList<>();
        private boolean inFlight;
        private boolean scheduled;

        Barrier(Session session, Duration timeout) {
            this.session = session;
            this.timeout = timeout;
        }

        @Override
        CompletableFuture<Void> afterReply() {
            CompletableFuture<Void> done = new CompletableFuture<>();
            if (session.channel.eventLoop().inEventLoop()) {
                enqueue(done);
            } else {
                try {
                    session.channel.eventLoop().execute(() -> enqueue(done));
                } catch (RejectedExecutionException closing) {
                    done.completeExceptionally(new ConnectionClosedException(closing));
                }
            }
            return done;
        }

        private void enqueue(CompletableFuture<Void> done) {
            waiting.add(done);
            sendSoon();
        }

        /**
         * Sends the echo after the I/O thread's current task, so that every reply read from the
         * same socket read shares it.
         */
        private void sendSoon() {
            if (!inFlight && !scheduled) {
                scheduled = true;
                try {
                    session.channel.eventLoop().execute(() -> {
                        scheduled = false;
                        send();
                    });
                } catch (RejectedExecutionException closing) {
                    // The client is closing: the barrier can never be answered.
                    List<CompletableFuture<Void>> lost = waiting;
                    waiting = new ArrayList<>();
                    lost.forEach(f -> f.completeExceptionally(new ConnectionClosedException(closing)));
                }
            }
        }

        private void send() {
            if (waiting.isEmpty()) {
                return;
            }
            inFlight = true;
            List<CompletableFuture<Void>> batch = waiting;
            waiting = new ArrayList<>();
            // RpcConnection completes calls on the event loop (this method runs there too), so the
            // state stays confined to it.
            session.rpc.call("echo", JsonNodeFactory.instance.arrayNode().add("ovnj-barrier"), timeout).whenComplete((r, e) -> {
                inFlight = false;
                for (CompletableFuture<Void> f : batch) {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(null);
                    }
                }
                if (!waiting.isEmpty()) {
                    sendSoon();
                }
            });
        }
    }
}
