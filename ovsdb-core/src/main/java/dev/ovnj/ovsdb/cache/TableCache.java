package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.Interner;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * The cached rows of one table. Single-row reads never block; multi-row reads and index lookups
 * take the cache's read lock, so they see whole update batches, never half of one. Rows are kept
 * by their own UUID in an open-addressing table, with no entry object per row.
 */
public final class TableCache {
    private final TableSchema schema;
    private final ReadWriteLock lock;
    private final RowTable rows = new RowTable();
    // An array, not a map by IndexSpec.name(): a lookup finds its index among the table's few
    // without building the name string, and a row update walks them without an iterator. Replaced
    // (never changed in place) under the write lock; read under the read lock.
    private RowIndex[] indexes = new RowIndex[0];
    private final Interner.Table sharing;
    /** The cache-wide change counter this table's {@link #version} is drawn from. */
    private final AtomicLong changes;
    private volatile long version;

    TableCache(TableSchema schema, ReadWriteLock lock, Interner interner, AtomicLong changes) {
        this.schema = schema;
        this.lock = lock;
        this.sharing = interner.table(schema);
        this.changes = changes;
        this.version = changes.incrementAndGet();
    }

    /**
     * A number that changes whenever a row of this table is inserted, updated or deleted, also
     * across a resync (which replaces the table): for keeping a value derived from the table's rows
     * until they change. Read it in the same {@link RowCache#read} as the rows it stands for.
     *
     * @return this table's version; never the same for two different contents of the table
     */
    public long version() {
        return version;
    }

    /** How this table's rows share repeated values with each other. */
    Interner.Table sharing() {
        return sharing;
    }

    /**
     * The table's schema as the server reported it.
     *
     * @return the table's schema as the server reported it
     */
    public TableSchema schema() {
        return schema;
    }

    /**
     * The table name.
     *
     * @return the table name
     */
    public String name() {
        return schema.name();
    }

    /**
     * Returns a row by UUID.
     *
     * @param uuid the row's UUID
     * @return the row, if cached
     */
    public Optional<Row> get(UUID uuid) {
        return Optional.ofNullable(rows.get(uuid));
    }

    /**
     * Number of cached rows.
     *
     * @return number of cached rows
     */
    public int size() {
        return rows.size();
    }

    /**
     * A consistent copy of all cached rows.
     *
     * @return a consistent copy of all cached rows
     */
    public List<Row> rows() {
        lock.readLock().lock();
        try {
            return rows.values();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Rows whose indexed value equals {@code key}.
     *
     * @param spec an index added with {@link RowCache#addIndex(IndexSpec)}
     * @param key the value to look up
     * @return matching rows, possibly none
     * @throws IllegalArgumentException when the index was never added
     */
    public List<Row> lookup(IndexSpec spec, Object key) {
        lock.readLock().lock();
        try {
            RowIndex idx = index(spec);
            if (idx == null) {
                throw new IllegalArgumentException("no index " + spec.name() + "; add it with RowCache.addIndex first");
            }
            return idx.lookup(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The single row whose indexed value equals {@code key}.
     *
     * @param spec an index added with {@link RowCache#addIndex(IndexSpec)}
     * @param key the value to look up
     * @return the row, if any
     */
    public Optional<Row> lookupOne(IndexSpec spec, Object key) {
        List<Row> found = lookup(spec, key);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    // Mutators below run under the cache's write lock.

    /** The index added with a spec of the same table, column and map key (as its name says), or null. */
    private RowIndex index(IndexSpec spec) {
        for (RowIndex idx : indexes) {
            IndexSpec s = idx.spec();
            if (s.column().equals(spec.column()) && s.table().equals(spec.table())
                    && Objects.equals(s.mapKey(), spec.mapKey())) {
                return idx;
            }
        }
        return null;
    }

    void addIndex(IndexSpec spec) {
        if (index(spec) != null) {
            return;
        }
        RowIndex idx = new RowIndex(spec, schema.columnIndex(spec.column()), rows);
        rows.values().forEach(idx::add);
        RowIndex[] more = Arrays.copyOf(indexes, indexes.length + 1);
        more[indexes.length] = idx;
        indexes = more;
    }

    Row put(Row row) {
        version = changes.incrementAndGet();
        Row old = rows.put(row);
        for (RowIndex idx : indexes) {
            if (old != null) {
                idx.replace(old, row);
            } else {
                idx.add(row);
            }
        }
        return old;
    }

    Row remove(UUID uuid) {
        Row old = rows.remove(uuid);
        if (old != null) {
            version = changes.incrementAndGet();
            for (RowIndex idx : indexes) {
                idx.remove(old);
            }
        }
        return old;
    }

    Collection<Row> snapshotForReplace() {
        return rows.values();
    }
}
