package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.testkit.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * ovnj's own client against the in-memory server's fault hooks: a leader-only client leaves a
 * server that starts to look like a follower, and resumes (monitor_cond_since) after the server
 * drops its connection.
 */
class OvnjClientTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void leaderOnlyClientMovesOffAServerThatBecomesAFollower() {
        try (InMemoryOvsdbServer a = InMemoryOvsdbServer.start(); InMemoryOvsdbServer b = InMemoryOvsdbServer.start();
                RawClient writeA = new RawClient(a.port()); RawClient writeB = new RawClient(b.port())) {
            writeA.call("transact", lb("on-a"));
            writeB.call("transact", lb("on-b"));
            try (OvsdbClient client = OvsdbClient.builder().remotes(a.remote() + "," + b.remote())
                    .monitor(MonitorRequest.tables("Load_Balancer")).backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                    .build()) {
                client.startAndWait(WAIT);
                String first = name(client);
                InMemoryOvsdbServer current = first.equals("on-a") ? a : b;
                String other = first.equals("on-a") ? "on-b" : "on-a";
                current.follower(true);
                Await.until(WAIT, "client on the other server", () -> client.isSynced() && other.equals(name(client)));
            }
        }
    }

    @Test
    void clientResyncsAfterDroppedConnections() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient writer = new RawClient(server.port())) {
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .monitor(MonitorRequest.tables("Load_Balancer")).backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                    .build()) {
                client.startAndWait(WAIT);
                long connects = client.stats().connects();
                server.dropConnections();
                writer.close();
                try (RawClient again = new RawClient(server.port())) {
                    again.call("transact", lb("after-drop"));
                }
                Await.until(WAIT, "reconnected and synced", () -> client.stats().connects() > connects && client.isSynced()
                        && "after-drop".equals(name(client)));
                // The transaction history let the client resume with only what it missed.
                assertThat(client.stats().resumedSyncs()).isPositive();
            }
        }
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode lb(String name) {
        com.fasterxml.jackson.databind.node.ArrayNode p = RawClient.JSON.createArrayNode().add("OVN_Northbound");
        p.addObject().put("op", "insert").put("table", "Load_Balancer").putObject("row").put("name", name);
        return p;
    }

    private static String name(OvsdbClient client) {
        var rows = client.cache().table("Load_Balancer").rows();
        return rows.size() == 1 ? String.valueOf(rows.get(0).get("name")) : "";
    }
}
