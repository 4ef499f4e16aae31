package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.monitor.MonitorMethod;
import dev.ovnj.ovsdb.monitor.MonitorProtocolException;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.RpcErrorException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every monitor the client wants, and their re-establishment on each new session: the main
 * monitor that feeds the cache, with its current conditions (as changed by
 * {@code monitor_cond_change}), and the side monitors, each re-opened after a reconnect with
 * {@code monitor_cond_since} from the last transaction it saw, so that it resumes where it
 * stopped when the server still has that transaction.
 */
final class MonitorRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorRegistry.class);

    private final ClientOptions options;
    private final CallbackThread callbacks;
    private final ListenerFence fence;
    private final CacheFeed feed;
    private final String mainId;
    private final AtomicReference<MonitorRequest> mainRequest;
    /** Condition changes sent and not answered yet; a session that ends with some leaves the cache's view unknown. */
    private final AtomicInteger conditionChangesInFlight = new AtomicInteger();
    /** A condition change went unanswered (its session ended, or it timed out): the next session must not resume. */
    private final AtomicBoolean conditionChangeLost = new AtomicBoolean();
    private final Map<String, Side> sides = new ConcurrentHashMap<>();
    private final AtomicLong sideIds = new AtomicLong();

    MonitorRegistry(ClientOptions options, CallbackThread callbacks, ListenerFence fence, CacheFeed feed) {
        this.options = options;
        this.callbacks = callbacks;
        this.fence = fence;
        this.feed = feed;
        this.mainId = "ovnj-" + options.database();
        this.mainRequest = new AtomicReference<>(options.monitor());
    }

    String mainId() {
        return mainId;
    }

    /**
     * The main monitor's request with its current conditions.
     *
     * @return what the next session monitors
     */
    MonitorRequest mainRequest() {
        return mainRequest.get();
    }

    Optional<Side> side(String id) {
        return Optional.ofNullable(sides.get(id));
    }

    // ---- the main monitor ----

    /**
     * Installs the main monitor on a new session and feeds its initial reply to the cache, trying
     * {@code monitor_cond_since}, then {@code monitor_cond}, then {@code monitor}.
     *
     * @param s the session, past its handshake
     * @return whether the cache was resumed; completes on the callback thread
     */
    CompletableFuture<Boolean> establishMain(Session s) {
        return establish(s, MonitorMethod.MONITOR_COND_SINCE);
    }

    private CompletableFuture<Boolean> establish(Session s, MonitorMethod method) {
        if (method == MonitorMethod.MONITOR_COND_SINCE && conditionChangeUnanswered()) {
            // A condition change was sent on a session that ended before its answer: the server
            // may have sent the rows it adds and removes, or not. Resuming from the last
            // transaction with either condition could leave the cache wrong; a full snapshot with
            // the newest conditions cannot (only what differs is reported), as the OVS IDLs do.
            LOG.info("a condition change was in flight when the last connection ended; monitoring from a full snapshot");
            feed.forget();
        }
        MonitorRequest request = mainRequest.get();
        boolean conditional = method.conditional();
        if (!conditional && request.conditional()) {
            return CompletableFuture.failedFuture(new ConnectionRejectedException(s.remote
                    + " supports only plain monitor, but the monitor request has where conditions"));
        }
        ObjectNode requests = request.toJson(s.schema, conditional);
        JsonNode id = JsonNodeFactory.instance.textNode(mainId);
        long bytesBefore = s.bytesReceived();
        CompletableFuture<JsonNode> reply = method == MonitorMethod.MONITOR_COND_SINCE
                ? s.call(method.method(), options.requestTimeout(), options.database(), id, requests,
                        feed.lastTxnId().orElse(CacheFeed.ZERO_TXN))
                : s.call(method.method(), options.requestTimeout(), options.database(), id, requests);
        s.monitorMethod = method;
        s.monitoredTables = request.resolve(s.schema).stream().map(TableMonitor::table).toList();
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        reply.whenComplete((json, err) -> {
            if (err != null) {
                Throwable e = Futures.unwrap(err);
                if (e instanceof RpcErrorException rpcErr && "unknown method".equals(rpcErr.error()) && method.fallback() != null) {
                    LOG.info("{} does not support {}; falling back to {}", s.remote, method.method(), method.fallback().method());
                    establish(s, method.fallback()).whenComplete((v, e2) -> {
                        if (e2 != null) {
                            done.completeExceptionally(e2);
                        } else {
                            done.complete(v);
                        }
                    });
                } else {
                    done.completeExceptionally(e);
                }
                return;
            }
            // Applied on the callback thread, in wire order with the notifications that follow.
            callbacks.execute(() -> {
                try {
                    done.complete(feed.applyInitial(s, method, json, bytesBefore));
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        });
        return done;
    }

    /** Whether a condition change went unanswered since the last session was established (and forgets it). */
    private boolean conditionChangeUnanswered() {
        boolean lost = conditionChangeLost.getAndSet(false);
        return lost || conditionChangesInFlight.get() > 0;
    }

    /**
     * Changes the main monitor's conditions on the session; from now on they are also what every
     * later session monitors. If the session ends before the server answered, the future fails and
     * the next session monitors the new conditions from a full snapshot (it cannot know whether
     * this server applied them); if the server refuses them, the previous conditions are kept.
     *
     * @param s the current session
     * @param tables the tables whose conditions change
     * @return completes on the callback thread
     */
    CompletableFuture<Void> changeConditions(Session s, List<TableMonitor> tables) {
        if (s.monitorMethod == MonitorMethod.MONITOR) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException(
                    s.remote + " supports only plain monitor; conditions cannot be changed"));
        }
        ObjectNode req = JsonNodeFactory.instance.objectNode();
        for (TableMonitor t : tables) {
            ArrayNode one = req.putArray(t.table());
            ObjectNode cond = one.addObject();
            ArrayNode where = t.whereJson(s.schema.table(t.table()));
            cond.set("where", where.isEmpty() ? JsonNodeFactory.instance.arrayNode().add(true) : where);
        }
        JsonNode id = JsonNodeFactory.instance.textNode(mainId);
        // Wanted from now on, before the request leaves: a reconnect that follows must not go back
        // to the old conditions. Counted in flight until answered, on the I/O thread as the reply
        // (or the close) is read, before the next session could be established.
        MonitorRequest before = mainRequest.get();
        MonitorRequest after = before.withConditions(tables);
        mainRequest.set(after);
        conditionChangesInFlight.incrementAndGet();
        CompletableFuture<JsonNode> accepted = s.call("monitor_cond_change", options.requestTimeout(), id, id, req)
                .whenComplete((r, e) -> {
                    if (Futures.unwrap(e) instanceof RpcErrorException) {
                        // The server refused them: the monitor still has the old ones.
                        mainRequest.compareAndSet(after, before);
                    } else if (e != null) {
                        conditionChangeLost.set(true);
                    }
                    conditionChangesInFlight.decrementAndGet();
                });
        return callbacks.follow(accepted).thenApply(x -> null);
    }

    // ---- side monitors ----

    /**
     * Opens a side monitor on the current session and keeps it for later sessions.
     *
     * @param s the current, synced session
     * @param request what to monitor
     * @param listener its listener
     * @return the monitor, once its initial contents were delivered
     */
    CompletableFuture<SideMonitor> openSide(Session s, MonitorRequest request, SideMonitor.Listener listener) {
        Side side = new Side("ovnj-side-" + sideIds.incrementAndGet(), request, listener);
        sides.put(side.id, side);
        CompletableFuture<SideMonitor> out = new CompletableFuture<>();
        open(side, s).whenComplete((v, e) -> {
            if (e != null) {
                side.end(null);
                callbacks.complete(out, null, e);
            } else {
                callbacks.complete(out, side, null);
            }
        });
        return out;
    }

    /**
     * Re-opens every side monitor on a new session. One the new server refuses ends, with the
     * refusal as {@link SideMonitor#ended()}'s failure; one whose session closes meanwhile waits
     * for the next.
     *
     * @param s the new, synced session
     */
    void reopenSides(Session s) {
        for (Side side : sides.values()) {
            open(side, s).whenComplete((v, e) -> {
                if (e != null && s.isOpen()) {
                    LOG.warn("side monitor {} could not be re-opened on {}: {}", side.id, s.remote, Futures.unwrap(e).getMessage());
                    side.end(Futures.unwrap(e));
                }
            });
        }
    }

    /** Ends every side monitor: the client is closing. */
    void endAll() {
        sides.values().forEach(side -> side.end(null));
    }

    private CompletableFuture<Void> open(Side side, Session s) {
        side.session = s;
        boolean since = s.monitorMethod == MonitorMethod.MONITOR_COND_SINCE;
        ObjectNode requests;
        try {
            requests = side.request.toJson(s.schema, true);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        JsonNode id = JsonNodeFactory.instance.textNode(side.id);
        CompletableFuture<JsonNode> reply = since
                ? s.call("monitor_cond_since", options.requestTimeout(), options.database(), id, requests,
                        Optional.ofNullable(side.lastTxnId).orElse(CacheFeed.ZERO_TXN))
                : s.call("monitor_cond", options.requestTimeout(), options.database(), id, requests);
        CompletableFuture<Void> done = new CompletableFuture<>();
        reply.whenComplete((json, err) -> {
            if (err != null) {
                callbacks.complete(done, null, err);
                return;
            }
            callbacks.execute(() -> {
                try {
                    boolean resumed = false;
                    UpdateBatch batch;
                    if (since) {
                        if (!json.isArray() || json.size() != 3) {
                            throw new MonitorProtocolException("monitor_cond_since reply is not [found, last-txn-id, updates]: "
                                    + CacheFeed.abbreviate(json));
                        }
                        resumed = json.get(0).asBoolean();
                        batch = UpdateBatch.fromUpdates2(json.get(2), Optional.empty());
                        String txn = json.get(1).asText();
                        side.lastTxnId = CacheFeed.ZERO_TXN.equals(txn) ? null : txn;
                    } else {
                        batch = UpdateBatch.fromUpdates2(json, Optional.empty());
                    }
                    if (!resumed || !batch.updates().isEmpty()) {
                        side.deliver(s, batch, null);
                    }
                    done.complete(null);
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        });
        return done;
    }

    /** A side monitor; its listener runs on the callback thread, behind the fence. */
    final class Side implements SideMonitor {
        private final String id;
        private final MonitorRequest request;
        private final SideMonitor.Listener listener;
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private volatile Session session;
        private volatile String lastTxnId;

        Side(String id, MonitorRequest request, SideMonitor.Listener listener) {
            this.id = id;
            this.request = request;
            this.listener = listener;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public CompletableFuture<Void> cancel() {
            Session s = session;
            if (ended.isDone()) {
                return CompletableFuture.completedFuture(null);
            }
            // Ended here at once, so nothing more is delivered even if the cancel's reply is slow.
            end(null);
            if (s == null || !s.isOpen()) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> out = new CompletableFuture<>();
            s.call("monitor_cancel", options.requestTimeout(), JsonNodeFactory.instance.textNode(id))
                    // A connection that closed took the monitor with it: cancelled either way.
                    .whenComplete((r, e) -> callbacks.complete(out, null, e == null || !s.isOpen() ? null : e));
            return out;
        }

        @Override
        public CompletableFuture<Void> ended() {
            return ended;
        }

        /**
         * Delivers one batch, if it came from the session the monitor is open on.
         *
         * @param from the session it arrived on
         * @param batch the rows
         * @param txnId the transaction id of an {@code update3}, else null
         */
        void deliver(Session from, UpdateBatch batch, String txnId) {
            if (ended.isDone() || from != session) {
                return;
            }
            if (txnId != null) {
                lastTxnId = txnId;
            }
            fence.call("side monitor " + id + " listener", () -> listener.onUpdate(batch));
        }

        /**
         * Ends the monitor and forgets it.
         *
         * @param cause why, when the client could not keep it; null for a cancel or close
         */
        void end(Throwable cause) {
            sides.remove(id);
            if (cause == null) {
                ended.complete(null);
            } else {
                ended.completeExceptionally(cause);
            }
        }
    }
}
