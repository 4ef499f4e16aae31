package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.CacheListener;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The rows of one cached table as their generated value type. A table the cache does not hold,
 * e.g. one missing on the server, reads as empty.
 *
 * @param <T> the value type
 */
public final class TypedTable<T extends TypedRow> {

    private final RowCache cache;
    private final TableModel<T> model;

    TypedTable(RowCache cache, TableModel<T> model) {
        this.cache = cache;
        this.model = model;
    }

    /**
     * Returns the table's descriptor.
     *
     * @return the table model
     */
    public TableModel<T> model() {
        return model;
    }

    /**
     * Returns a row by UUID.
     *
     * @param uuid the row's UUID
     * @return the row, if cached
     */
    public Optional<T> get(UUID uuid) {
        return tableCache().flatMap(t -> t.get(uuid)).map(model::fromRow);
    }

    /**
     * Returns every cached row, all from the same batch.
     *
     * @return the rows, in no particular order
     */
    public List<T> rows() {
        return tableCache().map(t -> convert(t.rows())).orElse(List.of());
    }

    /**
     * Returns the number of cached rows.
     *
     * @return the count
     */
    public int size() {
        return tableCache().map(TableCache::size).orElse(0);
    }

    /**
     * Returns the rows an untyped index maps a key to.
     *
     * @param spec an index added with {@link RowCache#addIndex}
     * @param key the untyped key, e.g. a string, or an enum's wire value
     * @return the rows, possibly none
     */
    public List<T> lookup(IndexSpec spec, Object key) {
        return tableCache().map(t -> convert(t.lookup(spec, key))).orElse(List.of());
    }

    /**
     * Adds (or reuses) an index on a scalar column.
     *
     * @param column the column, e.g. {@code LoadBalancer.NAME}
     * @param unique whether one row per key is expected
     * @param <K> the typed key
     * @return the index
     */
    public <K> TypedIndex<T, K> index(ScalarColumn<K> column, boolean unique) {
        return add(new IndexSpec(model.name(), column.name(), null, unique), column.atomMapping());
    }

    /**
     * Adds (or reuses) a non-unique index on an optional column; rows without a value are not indexed.
     *
     * @param column the column
     * @param <K> the typed key
     * @return the index
     */
    public <K> TypedIndex<T, K> index(OptionalColumn<K> column) {
        return add(IndexSpec.of(model.name(), column.name()), column.atomMapping());
    }

    /**
     * Adds (or reuses) a non-unique index on a set column: a row is found by any of its elements.
     *
     * @param column the column, e.g. {@code LogicalRouter.LOAD_BALANCER} to find routers by load balancer
     * @param <K> the typed element
     * @return the index
     */
    public <K> TypedIndex<T, K> index(SetColumn<K> column) {
        return add(IndexSpec.of(model.name(), column.name()), column.elementMapping());
    }

    /**
     * Adds (or reuses) a non-unique index on the value of one key of a map column.
     *
     * @param column the column, e.g. {@code LoadBalancer.EXTERNAL_IDS}
     * @param key the map key, e.g. {@code "owner"}
     * @param <V> the typed map value
     * @return the index, keyed by the map value
     */
    public <V> TypedIndex<T, V> index(MapColumn<String, V> column, String key) {
        return add(IndexSpec.mapKey(model.name(), column.name(), key), column.valueMapping());
    }

    private <K> TypedIndex<T, K> add(IndexSpec spec, AtomMapping<K> key) {
        DatabaseSchema schema = cache.schema();
        // The cache would fail on its next resync if asked to index a column the server lacks.
        if (schema != null && schema.findTable(model.name()).isPresent()
                && schema.table(model.name()).findColumn(spec.column()).isEmpty()) {
            throw new IllegalArgumentException("cannot index " + model.name() + "." + spec.column()
                    + ": missing on server (schema " + schema.version().orElse("without version") + ")");
        }
        cache.addIndex(spec);
        return new TypedIndex<>(this, spec, key);
    }

    /**
     * Registers a listener for this table's future changes.
     *
     * @param listener the listener
     * @return the registration; close it to stop
     */
    public Subscription addListener(TypedListener<T> listener) {
        Objects.requireNonNull(listener, "listener");
        CacheListener filtered = events -> {
            List<TypedEvent<T>> mine = new ArrayList<>();
            for (CacheEvent event : events) {
                if (event.table().equals(model.name())) {
                    mine.add(convert(event));
                }
            }
            if (!mine.isEmpty()) {
                listener.onEvents(List.copyOf(mine));
            }
        };
        cache.addListener(filtered);
        return new Subscription(cache, filtered);
    }

    private TypedEvent<T> convert(CacheEvent event) {
        if (event instanceof CacheEvent.Inserted inserted) {
            return new TypedEvent.Inserted<>(model.fromRow(inserted.row()));
        }
        if (event instanceof CacheEvent.Updated updated) {
            return new TypedEvent.Updated<>(model.fromRow(updated.oldRow()), model.fromRow(updated.newRow()));
        }
        return new TypedEvent.Deleted<>(model.fromRow(((CacheEvent.Deleted) event).oldRow()));
    }

    private List<T> convert(List<Row> rows) {
        List<T> typed = new ArrayList<>(rows.size());
        for (Row row : rows) {
            typed.add(model.fromRow(row));
        }
        return List.copyOf(typed);
    }

    private Optional<TableCache> tableCache() {
        return cache.findTable(model.name());
    }
}
