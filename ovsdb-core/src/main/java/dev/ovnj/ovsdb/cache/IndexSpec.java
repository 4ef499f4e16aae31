package dev.ovnj.ovsdb.cache;

import java.util.Objects;

/**
 * A secondary index on a column, or on one key of a map column (e.g. {@code external_ids} key
 * {@code ovnj.owner}). For a set column every element is a key. A unique index keeps one row
 * per key; if the database ever holds two, the most recently changed one wins.
 *
 * @param table table name
 * @param column column name
 * @param mapKey for a map column, the key whose value is indexed; null to index the column itself
 * @param unique whether one row per key is expected
 */
public record IndexSpec(String table, String column, String mapKey, boolean unique) {

    /**
     * Checks the names.
     *
     * @param column column name
     * @param mapKey for a map column, the key whose value is indexed; null to index the column itself
     * @param table table name
     * @param unique whether one row per key is expected
     */
    public IndexSpec {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
    }

    /**
     * A unique index on a column, e.g. {@code Load_Balancer.name}.
     *
     * @param table table name
     * @param column column name
     * @return the spec
     */
    public static IndexSpec unique(String table, String column) {
        return new IndexSpec(table, column, null, true);
    }

    /**
     * A non-unique index on a column.
     *
     * @param table table name
     * @param column column name
     * @return the spec
     */
    public static IndexSpec of(String table, String column) {
        return new IndexSpec(table, column, null, false);
    }

    /**
     * A non-unique index on one key of a map column, e.g. {@code external_ids:ovnj.owner}.
     *
     * @param table table name
     * @param column map column name
     * @param key the map key
     * @return the spec
     */
    public static IndexSpec mapKey(String table, String column, String key) {
        return new IndexSpec(table, column, key, false);
    }

    /**
     * A readable name, {@code table.column} or {@code table.column:key}.
     *
     * @return a readable name, {
     */
    public String name() {
        return table + "." + column + (mapKey == null ? "" : ":" + mapKey);
    }
}
