package dev.ovnj.ovsdb.monitor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/**
 * One row's change as the server sent it, not yet applied to a cache.
 *
 * @param table table name
 * @param uuid the row
 * @param kind what happened
 * @param row for INITIAL/INSERT the new row, for MODIFY the update2 diff, for REPLACE (RFC
 *     {@code update}) the full new row; null for DELETE
 */
public record RowUpdate(String table, UUID uuid, Kind kind, ObjectNode row) {

    /** What happened to the row. */
    public enum Kind {
        /** Present when the monitor started. */
        INITIAL,
        /** Inserted. */
        INSERT,
        /** Modified; {@code row} holds an update2 diff. */
        MODIFY,
        /** Modified; {@code row} holds the complete new contents (RFC {@code update}). */
        REPLACE,
        /** Deleted. */
        DELETE
    }
}
