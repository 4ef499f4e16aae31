package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The server's own view of a database, from its {@code _Server.Database} row: whether it is
 * clustered, connected to its cluster, leader, and how far its log has progressed. Decoded
 * straight from JSON, because the {@code _Server} schema is fixed and tiny.
 *
 * @param found whether the server serves the database at all
 * @param clustered model is "clustered"
 * @param connected connected to a quorum
 * @param leader this server is the leader
 * @param index the index of the latest log entry seen (clustered only)
 */
record ServerCheck(boolean found, boolean clustered, boolean connected, boolean leader, OptionalLong index) {

    static ServerCheck fromUpdates2(JsonNode tableUpdates, String database, ServerCheck previous) {
        JsonNode rows = tableUpdates.path("Database");
        Iterator<Map.Entry<String, JsonNode>> it = rows.fields();
        ServerCheck result = previous;
        while (it.hasNext()) {
            JsonNode change = it.next().getValue();
            JsonNode row = change.has("initial") ? change.get("initial")
                    : change.has("insert") ? change.get("insert")
                    : change.get("modify");
            if (change.has("delete")) {
                continue;
            }
            if (row == null) {
                continue;
            }
            if (row.has("name") && !database.equals(row.get("name").asText())) {
                continue;
            }
            // ovsdb-server leaves columns at their defaults (false, empty) out of initial and insert
            // rows, so a full row starts from the defaults and only a modify starts from before.
            boolean full = !change.has("modify");
            ServerCheck base = full || result == null ? new ServerCheck(true, false, false, false, OptionalLong.empty()) : result;
            boolean clustered = row.has("model") ? "clustered".equals(row.get("model").asText()) : base.clustered;
            boolean connected = row.has("connected") ? row.get("connected").asBoolean() : base.connected;
            boolean leader = row.has("leader") ? row.get("leader").asBoolean() : base.leader;
            OptionalLong index = base.index;
            if (row.has("index")) {
                JsonNode i = row.get("index");
                index = i.isIntegralNumber() ? OptionalLong.of(i.asLong()) : OptionalLong.empty();
            }
            result = new ServerCheck(true, clustered, connected, leader, index);
        }
        return result;
    }
}
