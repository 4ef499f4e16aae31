package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.cache.CacheInconsistencyException;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the server's notifications by monitor id, on the callback thread: the main monitor's
 * updates to the {@link CacheFeed}, side monitors' to their listeners, {@code _Server} updates to
 * the supervisor, {@code locked}/{@code stolen} to the {@link LockManager}. Only the server's own
 * faults (a malformed notification, an update that does not fit the cache) drop the connection to
 * resync; listeners are called through the {@link ListenerFence}, so their faults never get here.
 */
final class UpdateRouter {
    private static final Logger LOG = LoggerFactory.getLogger(UpdateRouter.class);

    private final CallbackThread callbacks;
    private final CacheFeed feed;
    private final MonitorRegistry monitors;
    private final LockManager locks;
    private final BiConsumer<Session, JsonNode> serverUpdates;

    UpdateRouter(CallbackThread callbacks, CacheFeed feed, MonitorRegistry monitors, LockManager locks,
                 BiConsumer<Session, JsonNode> serverUpdates) {
        this.callbacks = callbacks;
        this.feed = feed;
        this.monitors = monitors;
        this.locks = locks;
        this.serverUpdates = serverUpdates;
    }

    /**
     * Accepts a notification on the I/O thread and queues it for the callback thread, in wire
     * order with the replies around it.
     *
     * @param s the session it arrived on
     * @param n the notification
     */
    void accept(Session s, RpcNotification n) {
        callbacks.execute(() -> route(s, n));
    }

    void route(Session s, RpcNotification n) {
        ArrayNode p = n.params();
        String monitorId = p.size() >= 1 ? p.get(0).asText() : "";
        try {
            switch (n.method()) {
                case "update3" -> {
                    requireSize(n, 3);
                    UpdateBatch batch = UpdateBatch.fromUpdates2(p.get(2), Optional.of(p.get(1).asText()));
                    if (monitors.mainId().equals(monitorId)) {
                        feed.apply(batch, p.get(1).asText());
                    } else {
                        monitors.side(monitorId).ifPresent(side -> side.deliver(s, batch, p.get(1).asText()));
                    }
                }
                case "update2" -> {
                    requireSize(n, 2);
                    if (Handshake.SERVER_MONITOR_ID.equals(monitorId)) {
                        serverUpdates.accept(s, p.get(1));
                        return;
                    }
                    UpdateBatch batch = UpdateBatch.fromUpdates2(p.get(1), Optional.empty());
                    if (monitors.mainId().equals(monitorId)) {
                        feed.apply(batch, null);
                    } else {
                        monitors.side(monitorId).ifPresent(side -> side.deliver(s, batch, null));
                    }
                }
                case "update" -> {
                    requireSize(n, 2);
                    if (monitors.mainId().equals(monitorId)) {
                        feed.apply(UpdateBatch.fromUpdates(p.get(1), false), null);
                    }
                }
                case "locked" -> {
                    requireSize(n, 1);
                    locks.locked(monitorId);
                }
                case "stolen" -> {
                    requireSize(n, 1);
                    locks.stolen(monitorId);
                }
                case "monitor_canceled" -> {
                    if (monitors.mainId().equals(monitorId)) {
                        LOG.info("{} canceled the monitor (database changed or removed); resyncing", s.remote);
                        s.close();
                    } else {
                        // The server cancels every monitor of a database together; the side monitor
                        // is re-opened on the next session, which the main monitor's cancel starts.
                        LOG.debug("{} canceled monitor {}", s.remote, monitorId);
                    }
                }
                default -> LOG.debug("ignoring notification {}", n.method());
            }
        } catch (CacheInconsistencyException e) {
            feed.inconsistent();
            LOG.warn("update from {} does not fit the cache ({}); dropping the connection to resync", s.remote, e.getMessage());
            s.close();
        } catch (RuntimeException e) {
            LOG.warn("bad {} notification from {} ({}); dropping the connection to resync", n.method(), s.remote, e.getMessage());
            LOG.debug("bad notification", e);
            feed.forget();
            s.close();
        }
    }

    private static void requireSize(RpcNotification n, int size) {
        if (n.params().size() < size) {
            throw new IllegalArgumentException(n.method() + " needs " + size + " parameters, got " + n.params().size());
        }
    }
}
