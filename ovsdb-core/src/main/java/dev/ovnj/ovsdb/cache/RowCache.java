package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.data.Interner;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.RowUpdate;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The replicated contents of one database's monitored tables, kept equal to the server by
 * applying monitor updates one batch at a time. Rows are compact {@link Row}s decoded once; no
 * JSON is kept. Readers on any thread see whole batches: {@link #read(Supplier)} holds the read
 * lock for a multi-table consistent view.
 */
public final class RowCache {
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final ListenerFence fence;
    private final List<CacheListener> listeners = new CopyOnWriteArrayList<>();
    private final List<IndexSpec> indexSpecs = new CopyOnWriteArrayList<>();
    // Kept across resyncs: the strings it shares are still those of the rows.
    private final Interner interner = new Interner();
    /** Every table's inserts, updates and deletes, counted for {@link TableCache#version()}. */
    private final AtomicLong changes = new AtomicLong();
    private volatile DatabaseSchema schema;
    private volatile Map<String, TableCache> tables = Map.of();

    /**
     * Creates an empty cache; the client sets the schema when it connects. A listener that throws
     * is logged and counted ({@link #listenerFailures()}), and later listeners still run.
     */
    public RowCache() {
        this.fence = new ListenerFence();
    }

    /**
     * How many cache listener calls threw. Each was logged and the cache carried on.
     *
     * @return the count since the cache was built
     */
    public long listenerFailures() {
        return fence.failures();
    }

    /**
     * The schema the cache holds rows of, or null before the first connection.
     *
     * @return the schema the cache holds rows of, or null before the first connection
     */
    public DatabaseSchema schema() {
        return schema;
    }

    /**
     * Returns one table's cache.
     *
     * @param name table name
     * @return the table
     * @throws IllegalArgumentException when the table is not monitored
     */
    public TableCache table(String name) {
        TableCache t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("table " + name + " is not in the cache (not monitored, or not in the server's schema)");
        }
        return t;
    }

    /**
     * Returns one table's cache, if monitored.
     *
     * @param name table name
     * @return the table
     */
    public Optional<TableCache> findTable(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    /**
     * Runs {@code reader} while no update batch is being applied, for reads across tables.
     *
     * @param reader code that reads the cache
     * @param <T> result type
     * @return what the reader returned
     */
    public <T> T read(Supplier<T> reader) {
        lock.readLock().lock();
        try {
            return reader.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Adds a secondary index, built from the rows already cached and kept up to date.
     *
     * @param spec the index
     */
    public void addIndex(IndexSpec spec) {
        lock.writeLock().lock();
        try {
            if (!indexSpecs.contains(spec)) {
                indexSpecs.add(spec);
            }
            TableCache t = tables.get(spec.table());
            if (t != null) {
                t.addIndex(spec);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Registers a listener for future batches.
     *
     * @param listener the listener
     */
    public void addListener(CacheListener listener) {
        listeners.add(listener);
    }

    /**
     * Unregisters a listener.
     *
     * @param listener the listener
     */
    public void removeListener(CacheListener listener) {
        listeners.remove(listener);
    }

    /**
     * Applies one batch of monitor updates and notifies listeners.
     *
     * @param batch the batch
     * @throws CacheInconsistencyException when the batch does not fit; the cache is then unchanged
     */
    public void apply(UpdateBatch batch) {
        List<CacheEvent> events;
        lock.writeLock().lock();
        try {
            events = applyLocked(batch);
        } finally {
            lock.writeLock().unlock();
        }
        fire(events);
    }

    /**
     * Replaces the whole contents with a fresh initial batch (a resync after {@code found=false}
     * or a reconnect without history), emitting only the differences as events. Also adopts a new
     * schema, in case the server's changed.
     *
     * @param newSchema the server's schema now
     * @param monitored tables now monitored
     * @param initial the rows now in the database
     */
    public void replace(DatabaseSchema newSchema, List<String> monitored, UpdateBatch initial) {
        List<CacheEvent> events = new ArrayList<>();
        lock.writeLock().lock();
        try {
            Map<String, Map<UUID, Row>> before = new HashMap<>();
            for (TableCache t : tables.values()) {
                Map<UUID, Row> m = new HashMap<>();
                for (Row r : t.snapshotForReplace()) {
                    m.put(r.uuid(), r);
                }
                before.put(t.name(), m);
            }
            Map<String, TableCache> fresh = new LinkedHashMap<>();
            for (String name : monitored) {
                TableCache t = new TableCache(newSchema.table(name), lock, interner, changes);
                for (IndexSpec spec : indexSpecs) {
                    if (spec.table().equals(name)) {
                        t.addIndex(spec);
                    }
                }
                fresh.put(name, t);
            }
            for (RowUpdate u : initial.updates()) {
                TableCache t = fresh.get(u.table());
                if (t == null || u.kind() == RowUpdate.Kind.DELETE) {
                    continue;
                }
                Row row = Row.fromJson(t.schema(), u.uuid(), u.row(), t.sharing());
                t.put(row);
                Map<UUID, Row> previous = before.get(u.table());
                Row old = previous == null ? null : previous.remove(u.uuid());
                if (old == null) {
                    events.add(new CacheEvent.Inserted(u.table(), row));
                } else if (!sameContent(old, row)) {
                    events.add(new CacheEvent.Updated(u.table(), old, row));
                }
            }
            before.forEach((table, gone) -> gone.values().forEach(r -> events.add(new CacheEvent.Deleted(table, r))));
            schema = newSchema;
            tables = Map.copyOf(fresh);
        } finally {
            lock.writeLock().unlock();
        }
        fire(events);
    }

    /**
     * Replaces or drops one cached row without the server's word and without events: a test
     * hook (package-private, reached through the tests' {@code CacheTampering}) that simulates a
     * lost or garbled update, for the client's cache audit to find.
     *
     * @param table the table
     * @param uuid the row
     * @param edit the row to hold instead of the current one, or null to drop the row
     */
    void tamper(String table, UUID uuid, UnaryOperator<Row> edit) {
        lock.writeLock().lock();
        try {
            TableCache t = table(table);
            Row current = t.get(uuid).orElseThrow(() -> new IllegalArgumentException("no " + table + " row " + uuid));
            Row replacement = edit.apply(current);
            if (replacement == null) {
                t.remove(uuid);
            } else {
                t.put(replacement);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Total number of cached rows across tables.
     *
     * @return total number of cached rows across tables
     */
    public int size() {
        return tables.values().stream().mapToInt(TableCache::size).sum();
    }

    private List<CacheEvent> applyLocked(UpdateBatch batch) {
        // Validate first so that a bad batch leaves the cache untouched.
        List<CacheEvent> events = new ArrayList<>(batch.updates().size());
        Map<String, Map<UUID, Row>> staged = new HashMap<>();
        for (RowUpdate u : batch.updates()) {
            TableCache t = tables.get(u.table());
            if (t == null) {
                throw new CacheInconsistencyException("update for table " + u.table() + ", which is not monitored");
            }
            Map<UUID, Row> tableStage = staged.computeIfAbsent(u.table(), k -> new HashMap<>());
            Row current = tableStage.containsKey(u.uuid()) ? tableStage.get(u.uuid()) : t.get(u.uuid()).orElse(null);
            switch (u.kind()) {
                case INITIAL, INSERT -> {
                    Row row = Row.fromJson(t.schema(), u.uuid(), u.row(), t.sharing());
                    events.add(current == null ? new CacheEvent.Inserted(u.table(), row) : new CacheEvent.Updated(u.table(), current, row));
                    tableStage.put(u.uuid(), row);
                }
                case MODIFY, REPLACE -> {
                    if (current == null) {
                        throw new CacheInconsistencyException("modify of " + u.table() + " row " + u.uuid() + ", which the cache does not hold");
                    }
                    Row row = u.kind() == RowUpdate.Kind.MODIFY ? current.applyDiff(u.row(), t.sharing())
                            : Row.fromJson(t.schema(), u.uuid(), u.row(), t.sharing());
                    events.add(new CacheEvent.Updated(u.table(), current, row));
                    tableStage.put(u.uuid(), row);
                }
                case DELETE -> {
                    if (current == null) {
                        throw new CacheInconsistencyException("delete of " + u.table() + " row " + u.uuid() + ", which the cache does not hold");
                    }
                    events.add(new CacheEvent.Deleted(u.table(), current));
                    tableStage.put(u.uuid(), null);
                }
            }
        }
        staged.forEach((table, rows) -> {
            TableCache t = tables.get(table);
            rows.forEach((uuid, row) -> {
                if (row == null) {
                    t.remove(uuid);
                } else {
                    t.put(row);
                }
            });
        });
        return events;
    }

    /**
     * Equal in every column but {@code _version}: a restarted server renumbers versions, and a
     * resync that only sees new versions has nothing to report.
     */
    private static boolean sameContent(Row a, Row b) {
        int n = a.table().columns().size();
        for (int i = 0; i < n; i++) {
            if (i != TableSchema.VERSION_INDEX && !java.util.Objects.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private void fire(List<CacheEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        List<CacheEvent> view = List.copyOf(events);
        for (CacheListener l : listeners) {
            fence.call("cache listener " + l, () -> l.onEvents(view));
        }
    }
}
