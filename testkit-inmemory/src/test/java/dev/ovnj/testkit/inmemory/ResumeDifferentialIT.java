package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.testkit.OvsdbCluster;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * monitor_cond_since resumption compared with ovsdb-server where it keeps a history, a
 * one-member RAFT cluster: a client monitors, sees random transactions, goes away while more
 * happen, and comes back with the last transaction id it saw. Both servers must agree whether
 * they still have it and send the same rows (transaction ids themselves are each server's own).
 */
class ResumeDifferentialIT {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final int SEEDS = Integer.getInteger("ovnj.resume.seeds", 4);
    private static final String ZERO = "00000000-0000-0000-0000-000000000000";

    @Test
    void resumedMonitorsGetWhatTheyMissedAsFromAClusteredOvsdbServer() {
        int resumed = 0;
        int snapshots = 0;
        int missedTransactions = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            try (OvsdbCluster cluster = OvsdbCluster.start(1); InMemoryOvsdbServer memory = InMemoryOvsdbServer.start()) {
                int realPort = cluster.member(0).port();
                TransactionGenerator before = new TransactionGenerator(9000 + seed);
                String realLast;
                String fakeLast;
                try (RawClient real = new RawClient(realPort); RawClient fake = new RawClient(memory.port())) {
                    ArrayNode params = N.arrayNode().add("OVN_Northbound").add("r").add(request()).add(ZERO);
                    realLast = real.call("monitor_cond_since", params.deepCopy()).reply().get("result").get(1).asText();
                    fakeLast = fake.call("monitor_cond_since", params.deepCopy()).reply().get("result").get(1).asText();
                    for (int i = 0; i < 15; i++) {
                        ArrayNode tx = before.transaction();
                        realLast = lastTxn(real.call("transact", tx.deepCopy()), realLast);
                        fakeLast = lastTxn(fake.call("transact", tx.deepCopy()), fakeLast);
                    }
                }
                // While the monitoring client is away, the same generator keeps writing.
                try (RawClient real = new RawClient(realPort); RawClient fake = new RawClient(memory.port())) {
                    int missed = seed % 2 == 0 ? 2 : 10;
                    for (int i = 0; i < missed; i++) {
                        ArrayNode tx = before.transaction();
                        real.call("transact", tx.deepCopy());
                        fake.call("transact", tx.deepCopy());
                        missedTransactions++;
                    }
                }
                try (RawClient real = new RawClient(realPort); RawClient fake = new RawClient(memory.port())) {
                    JsonNode a = real.call("monitor_cond_since", N.arrayNode().add("OVN_Northbound").add("r").add(request())
                            .add(realLast)).reply().get("result");
                    JsonNode b = fake.call("monitor_cond_since", N.arrayNode().add("OVN_Northbound").add("r").add(request())
                            .add(fakeLast)).reply().get("result");
                    // Found or not depends on the history ovsdb-server kept (trimmed to no more atoms
                    // than the database holds); the in-memory server keeps the same.
                    assertThat(b.get(0).asBoolean()).as("found, seed " + seed).isEqualTo(a.get(0).asBoolean());
                    assertThat(sort(b.get(2)).toString()).as("seed " + seed).isEqualTo(sort(a.get(2)).toString());
                    if (a.get(0).asBoolean()) {
                        resumed++;
                    } else {
                        snapshots++;
                    }
                }
            }
        }
        System.out.printf("resume differential: %d seeds, %d resumed from history, %d full snapshots, %d missed "
                + "transactions, 0 differences%n", SEEDS, resumed, snapshots, missedTransactions);
        assertThat(resumed).as("some resumptions used the history").isPositive();
    }

    private static ObjectNode request() {
        ObjectNode r = N.objectNode();
        for (String t : List.of("Load_Balancer", "Logical_Switch", "Logical_Switch_Port", "ACL", "Address_Set", "NB_Global")) {
            r.set(t, N.arrayNode().add(N.objectNode()));
        }
        return r;
    }

    private static String lastTxn(RawClient.Exchange e, String previous) {
        String last = previous;
        for (JsonNode n : e.notifications()) {
            if ("update3".equals(n.path("method").asText())) {
                last = n.get("params").get(1).asText();
            }
        }
        return last;
    }

    /** Keys sorted, _version values dropped (each server makes its own). */
    private static JsonNode sort(JsonNode json) {
        if (json.isObject()) {
            TreeMap<String, JsonNode> m = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("_version")) {
                    m.put(e.getKey(), sort(e.getValue()));
                }
            }
            ObjectNode o = N.objectNode();
            m.forEach(o::set);
            return o;
        }
        if (json.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            json.forEach(x -> items.add(sort(x)));
            ArrayNode a = N.arrayNode();
            items.forEach(a::add);
            return a;
        }
        return json;
    }
}
