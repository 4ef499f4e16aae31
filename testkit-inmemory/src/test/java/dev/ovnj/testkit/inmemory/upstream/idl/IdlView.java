package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What an OVS IDL user sees between two calls of {@code Idl.run()}: the rows of the ovnj
 * client's cache as of the last {@link #run()}, and the IDL's {@code change_seqno}. ovnj applies
 * updates on its own thread as they arrive; the OVS IDL applies them only when its user runs it,
 * and the test steps depend on that (a {@code verify} that must see an old value, a step prefixed
 * {@code +} that must not wait). So every batch of the cache's events and every sync is queued
 * here by the client's listeners and applied to this view, in the client's order, only when the
 * driver runs the IDL.
 */
final class IdlView {
    /** One item the client reported: a batch of cache events, or a (re)sync. */
    private sealed interface Item {
    }

    private record Batch(List<CacheEvent> events) implements Item {
    }

    /** A sync: the monitor reply's cache events and the client saying it is synced, one change as in the IDL. */
    private record Synced(List<CacheEvent> events) implements Item {
    }

    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private final Map<String, Map<UUID, Row>> tables = new LinkedHashMap<>();
    private long changeSeqno;
    private Consumer<CacheEvent> notify = e -> { };
    /** The cache events of a sync in progress (client's callback thread only), or null. */
    private List<CacheEvent> syncing;

    /** The client's cache listener (on its callback thread). */
    void onEvents(List<CacheEvent> events) {
        if (syncing != null) {
            syncing.addAll(events);
        } else {
            queue.add(new Batch(List.copyOf(events)));
        }
    }

    /**
     * The client's connection listener (on its callback thread, in order with the cache's events):
     * what the cache reports between an attempt to connect and the sync is the monitor reply's
     * doing, one change for the IDL even when it changed no row.
     */
    void onConnection(ConnectionEvent event) {
        if (event.kind() == ConnectionEvent.Kind.CONNECTING) {
            syncing = new ArrayList<>();
        } else if (event.kind() == ConnectionEvent.Kind.SYNCED && syncing != null) {
            queue.add(new Synced(List.copyOf(syncing)));
            syncing = null;
        }
    }

    /**
     * Receives each event as the view applies it, as the Python IDL's {@code notify} hook does.
     *
     * @return the hook it replaces
     */
    Consumer<CacheEvent> notify(Consumer<CacheEvent> hook) {
        Consumer<CacheEvent> previous = notify;
        notify = hook;
        return previous;
    }

    /**
     * Applies everything the client reported so far.
     *
     * @return whether the view changed ({@code Idl.run()}'s result)
     */
    boolean run() {
        List<Item> items = new ArrayList<>();
        queue.drainTo(items);
        return process(items);
    }

    /** Waits up to {@code millis} for the client to report something, then runs. */
    boolean runAfterWait(long millis) throws InterruptedException {
        Item first = queue.poll(millis, TimeUnit.MILLISECONDS);
        List<Item> items = new ArrayList<>();
        if (first != null) {
            items.add(first);
        }
        queue.drainTo(items);
        return process(items);
    }

    private boolean process(List<Item> items) {
        long before = changeSeqno;
        for (Item item : items) {
            List<CacheEvent> events = item instanceof Batch b ? b.events() : ((Synced) item).events();
            // The whole update first, then its notifications, as the IDLs do: a notified row's
            // references to rows of the same update resolve.
            events.forEach(this::apply);
            events.forEach(notify);
            changeSeqno++;
        }
        return before != changeSeqno;
    }

    long changeSeqno() {
        return changeSeqno;
    }

    private void apply(CacheEvent e) {
        Map<UUID, Row> rows = tables.computeIfAbsent(e.table(), t -> new LinkedHashMap<>());
        if (e instanceof CacheEvent.Inserted i) {
            rows.put(i.uuid(), i.row());
        } else if (e instanceof CacheEvent.Updated u) {
            rows.put(u.uuid(), u.newRow());
        } else {
            rows.remove(e.uuid());
        }
    }

    /** The rows of a table, in no particular order (the driver's output is sorted). */
    List<Row> rows(String table) {
        return List.copyOf(tables.getOrDefault(table, Map.of()).values());
    }

    Optional<Row> get(String table, UUID uuid) {
        return Optional.ofNullable(tables.getOrDefault(table, Map.of()).get(uuid));
    }
}
