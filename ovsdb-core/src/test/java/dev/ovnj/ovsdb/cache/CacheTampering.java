package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.Row;
import java.util.Map;
import java.util.UUID;

/** Edits a cache behind its client's back, for tests of the cache audit. */
public final class CacheTampering {
    private CacheTampering() {
    }

    /**
     * Changes one column of a cached row, as a garbled update would.
     *
     * @param cache the cache
     * @param table the table
     * @param uuid the row
     * @param column the column
     * @param value its new value
     */
    public static void corrupt(RowCache cache, String table, UUID uuid, String column, Object value) {
        cache.tamper(table, uuid, row -> row.with(Map.of(column, value)));
    }

    /**
     * Drops one cached row, as a lost insert would.
     *
     * @param cache the cache
     * @param table the table
     * @param uuid the row
     */
    public static void drop(RowCache cache, String table, UUID uuid) {
        cache.tamper(table, uuid, row -> null);
    }
}
