package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The server's own view of a database, from its {@code _Server.Database} row: how it serves it,
 * whether it is connected to its cluster or relay source, leader, and how far its log has
 * progressed. Decoded straight from JSON, because the {@code _Server} schema is fixed and tiny.
 *
 * @param found whether the server serves the database at all
 * @param model standalone, clustered or relay
 * @param connected connected to a quorum (clustered) or to its source (relay)
 * @param leader this server is the leader (clustered only)
 * @param index the index of the latest log entry seen (clustered only)
 */
record ServerCheck(boolean found, ServerModel model, boolean connected, boolean leader, OptionalLong index) {

    boolean clustered() {
        return model == ServerModel.CLUSTERED;
    }

    /**
     * Why this server cannot be used right now, if it cannot.
     *
     * @param leaderOnly whether only a cluster's leader is acceptable
     * @return the reason, worded to follow the remote's name
     */
    Optional<String> refusal(boolean leaderOnly) {
        if (model == ServerModel.CLUSTERED && !connected) {
            return Optional.of("is not connected to its cluster");
        }
        if (model == ServerModel.CLUSTERED && leaderOnly && !leader) {
            return Optional.of("is not the cluster leader");
        }
        if (model == ServerModel.RELAY && !connected) {
            return Optional.of("is a relay not connected to its source");
        }
        return Optional.empty();
    }

    static ServerCheck fromUpdates2(JsonNode tableUpdates, String database, ServerCheck previous) {
        JsonNode rows = tableUpdates.path("Database");
        Iterator<Map.Entry<String, JsonNode>> it = rows.properties().iterator();
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
            ServerCheck base = full || result == null
                    ? new ServerCheck(true, ServerModel.STANDALONE, false, false, OptionalLong.empty()) : result;
            ServerModel model = row.has("model") ? ServerModel.of(row.get("model").asText()) : base.model;
            boolean connected = row.has("connected") ? row.get("connected").asBoolean() : base.connected;
            boolean leader = row.has("leader") ? row.get("leader").asBoolean() : base.leader;
            OptionalLong index = base.index;
            if (row.has("index")) {
                JsonNode i = row.get("index");
                index = i.isIntegralNumber() ? OptionalLong.of(i.asLong()) : OptionalLong.empty();
            }
            result = new ServerCheck(true, model, connected, leader, index);
        }
        return result;
    }
}
