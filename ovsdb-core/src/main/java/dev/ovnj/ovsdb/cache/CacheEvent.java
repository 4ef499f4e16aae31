package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.Row;
import java.util.UUID;

/** A change to one cached row, delivered to {@link CacheListener}s in commit order. */
public sealed interface CacheEvent {

    /**
     * The table of the row.
     *
     * @return the table of the row
     */
    String table();

    /**
     * The row's UUID.
     *
     * @return the row's UUID
     */
    UUID uuid();

    /**
     * A row appeared.
     *
     * @param table table name
     * @param row the new row
     */
    record Inserted(String table, Row row) implements CacheEvent {
        @Override
        public UUID uuid() {
            return row.uuid();
        }
    }

    /**
     * A row changed.
     *
     * @param table table name
     * @param oldRow the row before
     * @param newRow the row after
     */
    record Updated(String table, Row oldRow, Row newRow) implements CacheEvent {
        @Override
        public UUID uuid() {
            return newRow.uuid();
        }
    }

    /**
     * A row disappeared.
     *
     * @param table table name
     * @param oldRow the row as it was
     */
    record Deleted(String table, Row oldRow) implements CacheEvent {
        @Override
        public UUID uuid() {
            return oldRow.uuid();
        }
    }
}
