package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.cache.RowCache;
import java.util.Objects;

/**
 * Typed reads of a {@link RowCache}: the rows of each table of a {@link DatabaseModel} as their
 * generated value types. Rows are converted on every read with the generated {@code fromRow}, so
 * the cache keeps a single untyped copy and a read always reflects its latest batch.
 */
public final class TypedCache {

    private final RowCache cache;
    private final DatabaseModel model;

    private TypedCache(RowCache cache, DatabaseModel model) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.model = Objects.requireNonNull(model, "model");
    }

    /**
     * Returns typed reads over a cache, e.g. {@code TypedCache.of(client.cache(), OvnNorthboundModel.MODEL)}.
     *
     * @param cache the cache, usually {@code OvsdbClient.cache()}
     * @param model the compiled model of the cached database
     * @return the typed cache
     */
    public static TypedCache of(RowCache cache, DatabaseModel model) {
        return new TypedCache(cache, model);
    }

    /**
     * Returns the typed view of one table.
     *
     * @param type the generated value type, e.g. {@code LoadBalancer.class}
     * @param <T> the value type
     * @return the view; empty while the table is not cached (not monitored, or missing on the server)
     * @throws IllegalArgumentException if the type is no table of the model
     */
    public <T extends TypedRow> TypedTable<T> table(Class<T> type) {
        return new TypedTable<>(cache, model.table(type));
    }

    /**
     * Returns the model.
     *
     * @return the compiled model
     */
    public DatabaseModel model() {
        return model;
    }
}
