package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An engine is refused a client of the wrong database when it is built, naming the database,
 * instead of starting, saying it is available and failing every apply with a missing table; the
 * clients here are synced with real Northbound and Southbound ovsdb-servers.
 */
class EngineDatabaseIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aSouthboundClientIsRefusedAsTheEnginesClientAndANorthboundOneAsItsSouthbound() throws Exception {
        Path dir = Files.createTempDirectory("ovnj-sb");
        try (OvsdbServer sbServer = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbServer nbServer = OvsdbServer.start();
             OvsdbClient sb = OvsdbClient.builder().remotes(sbServer.remote()).database("OVN_Southbound").build().startAndWait(WAIT);
             OvsdbClient nb = EngineFixture.client(nbServer.remote()).startAndWait(WAIT)) {
            assertThatThrownBy(() -> LoadBalancerEngine.builder(sb)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("needs a client of database OVN_Northbound, not of OVN_Southbound");
            assertThatThrownBy(() -> LoadBalancerEngine.builder(nb).southbound(nb)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("needs a client of database OVN_Southbound, not of OVN_Northbound");
            try (LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).southbound(sb).build().start()) {
                dev.ovnj.testkit.Await.until(WAIT, "the engine on the right clients is available", engine::isAvailable);
            }
        }
    }
}
