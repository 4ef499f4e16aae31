package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.tx.Condition;
import java.util.Map;

/**
 * One key of a map column, for conditions on its value.
 *
 * <p>RFC 7047 conditions compare whole columns and cannot address a single map key, so these
 * conditions are written as {@code includes} and {@code excludes} of a one-entry map, which the
 * server evaluates with the same meaning.
 *
 * @param column the map column
 * @param key the key
 * @param <K> the typed key
 * @param <V> the typed value
 */
public record MapKey<K, V>(MapColumn<K, V> column, K key) {

    /**
     * Returns the condition that the key is present with this value.
     *
     * @param value the value
     * @return {@code [column, "includes", ["map", [[key, value]]]]}
     */
    public Condition eq(V value) {
        return column.includes(Map.of(key, value));
    }

    /**
     * Returns the condition that the key is absent or has another value.
     *
     * @param value the value
     * @return {@code [column, "excludes", ["map", [[key, value]]]]}
     */
    public Condition ne(V value) {
        return column.excludes(Map.of(key, value));
    }
}
