package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Schemas;
import dev.ovnj.testkit.scripted.ScriptedConnection;
import dev.ovnj.testkit.scripted.ScriptedOvsdbServer;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Servers older or stranger than ovsdb-server 3.1, played by a script. */
class ScriptedServerIT {
    static final String LB = "11111111-1111-1111-1111-111111111111";

    /** An OVSDB server from before monitor_cond (OVS 2.5 era): no _Server, plain monitor only. */
    static void oldServer(ScriptedConnection c, JsonNode m) {
        switch (m.path("method").asText()) {
            case "get_schema" -> c.reply(m, c.json(Schemas.ovnNorthboundJson().replace('"', '\'')));
            case "monitor" -> c.reply(m, c.json("{'Load_Balancer':{'" + LB + "':{'new':{'name':'old-lb','vips':['map',[['10.0.0.1:80','10.1.0.1:80']]]}}}}"));
            case "echo" -> c.reply(m, m.get("params"));
            case "monitor_cond", "monitor_cond_since", "set_db_change_aware" -> c.error(m, "unknown method");
            default -> c.error(m, "unknown method");
        }
    }

    @Test
    void fallsBackFromMonitorCondSinceToMonitorCondToMonitor() {
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(ScriptedServerIT::oldServer);
             OvsdbClient client = Clients.connect(server.remote())) {
            assertThat(server.receivedMethods()).containsSubsequence("monitor_cond", "get_schema", "monitor_cond_since", "monitor_cond", "monitor");
            assertThat(client.cache().table("Load_Balancer").get(UUID.fromString(LB)).orElseThrow().get("name")).isEqualTo("old-lb");
            // RFC 7047 "update" notifications (old and new rows) keep the cache current.
            server.broadcast(("{'id':null,'method':'update','params':['ovnj-OVN_Northbound',{'Load_Balancer':{'" + LB
                    + "':{'old':{'name':'old-lb'},'new':{'name':'renamed','vips':['map',[['10.0.0.1:80','10.1.0.1:80']]]}}}}]}").replace('\'', '"'));
            Await.until(WAIT, "update applied", () -> "renamed".equals(
                    client.cache().table("Load_Balancer").get(UUID.fromString(LB)).orElseThrow().get("name")));
        }
    }
}
