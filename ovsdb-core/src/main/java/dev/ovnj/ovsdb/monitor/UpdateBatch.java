package dev.ovnj.ovsdb.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.UuidText;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The row changes of one monitor reply or notification: one committed transaction (or the
 * initial contents), applied to a cache as a unit.
 *
 * @param updates the row changes
 * @param lastTxnId for update3 and monitor_cond_since, the id of the transaction this batch ends with
 */
public record UpdateBatch(List<RowUpdate> updates, Optional<String> lastTxnId) {

    /**
     * Copies the list.
     *
     * @param lastTxnId for update3 and monitor_cond_since, the id of the transaction this batch ends with
     * @param updates the row changes
     */
    public UpdateBatch {
        updates = List.copyOf(updates);
    }

    /**
     * Decodes {@code table-updates2} (monitor_cond, monitor_cond_since, update2, update3).
     *
     * @param json {@code {table: {uuid: {"initial"|"insert"|"modify"|"delete": ...}}}}
     * @param lastTxnId the transaction id, when the message carried one
     * @return the batch
     * @throws MonitorProtocolException naming the table and row when the shape is wrong
     */
    public static UpdateBatch fromUpdates2(JsonNode json, Optional<String> lastTxnId) {
        List<RowUpdate> out = new ArrayList<>();
        forEachRow(json, (table, uuid, change) -> {
            Iterator<Map.Entry<String, JsonNode>> f = change.properties().iterator();
            if (!f.hasNext()) {
                throw new MonitorProtocolException("empty row-update2 for " + table + " " + uuid);
            }
            Map.Entry<String, JsonNode> e = f.next();
            RowUpdate.Kind kind = switch (e.getKey()) {
                case "initial" -> RowUpdate.Kind.INITIAL;
                case "insert" -> RowUpdate.Kind.INSERT;
                case "modify" -> RowUpdate.Kind.MODIFY;
                case "delete" -> RowUpdate.Kind.DELETE;
                default -> throw new MonitorProtocolException("unknown row-update2 member \"" + e.getKey() + "\" for " + table + " " + uuid);
            };
            ObjectNode row = null;
            if (kind != RowUpdate.Kind.DELETE) {
                if (!e.getValue().isObject()) {
                    throw new MonitorProtocolException("row-update2 \"" + e.getKey() + "\" for " + table + " " + uuid + " is not an object");
                }
                row = (ObjectNode) e.getValue();
            }
            out.add(new RowUpdate(table, uuid, kind, row));
        });
        return new UpdateBatch(out, lastTxnId);
    }

    /**
     * Decodes RFC 7047 {@code table-updates} (monitor, update).
     *
     * @param json {@code {table: {uuid: {"old": row, "new": row}}}}
     * @param initial whether this is the monitor reply (rows are then INITIAL, not INSERT)
     * @return the batch
     */
    public static UpdateBatch fromUpdates(JsonNode json, boolean initial) {
        List<RowUpdate> out = new ArrayList<>();
        forEachRow(json, (table, uuid, change) -> {
            JsonNode oldRow = change.get("old");
            JsonNode newRow = change.get("new");
            if (newRow == null || newRow.isNull()) {
                out.add(new RowUpdate(table, uuid, RowUpdate.Kind.DELETE, null));
            } else if (!newRow.isObject()) {
                throw new MonitorProtocolException("row-update \"new\" for " + table + " " + uuid + " is not an object");
            } else if (oldRow == null || oldRow.isNull()) {
                out.add(new RowUpdate(table, uuid, initial ? RowUpdate.Kind.INITIAL : RowUpdate.Kind.INSERT, (ObjectNode) newRow));
            } else {
                out.add(new RowUpdate(table, uuid, RowUpdate.Kind.REPLACE, (ObjectNode) newRow));
            }
        });
        return new UpdateBatch(out, Optional.empty());
    }

    private interface RowVisitor {
        void visit(String table, UUID uuid, ObjectNode change);
    }

    private static void forEachRow(JsonNode json, RowVisitor visitor) {
        if (json == null || json.isNull()) {
            return;
        }
        if (!json.isObject()) {
            throw new MonitorProtocolException("table-updates is not an object: " + abbreviate(json));
        }
        Iterator<Map.Entry<String, JsonNode>> tables = json.properties().iterator();
        while (tables.hasNext()) {
            Map.Entry<String, JsonNode> t = tables.next();
            if (!t.getValue().isObject()) {
                throw new MonitorProtocolException("table-update for " + t.getKey() + " is not an object");
            }
            Iterator<Map.Entry<String, JsonNode>> rows = t.getValue().properties().iterator();
            while (rows.hasNext()) {
                Map.Entry<String, JsonNode> r = rows.next();
                UUID uuid = rowKey(t.getKey(), r.getKey());
                if (!r.getValue().isObject()) {
                    throw new MonitorProtocolException("row-update for " + t.getKey() + " " + uuid + " is not an object");
                }
                visitor.visit(t.getKey(), uuid, (ObjectNode) r.getValue());
            }
        }
    }

    private static UUID rowKey(String table, String key) {
        UUID uuid = UuidText.parse(key);
        if (uuid != null) {
            return uuid;
        }
        try {
            // Not canonical: accepted as before, in whatever form UUID.fromString takes.
            return UUID.fromString(key);
        } catch (IllegalArgumentException e) {
            throw new MonitorProtocolException("row key \"" + key + "\" in " + table + " is not a UUID");
        }
    }

    private static String abbreviate(JsonNode n) {
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
