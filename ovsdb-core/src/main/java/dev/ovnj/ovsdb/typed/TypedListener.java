package dev.ovnj.ovsdb.typed;

import java.util.List;

/**
 * Receives the changes of one table, converted to its value type, on the same thread and in the
 * same order as {@link dev.ovnj.ovsdb.cache.CacheListener}s.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface TypedListener<T extends TypedRow> {

    /**
     * Called once per applied batch that changed the table.
     *
     * @param events the table's changes in the batch, in order; never empty
     */
    void onEvents(List<TypedEvent<T>> events);
}
