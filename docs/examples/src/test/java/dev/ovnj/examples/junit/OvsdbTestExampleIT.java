package dev.ovnj.examples.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A controller's test with {@code @OvsdbTest}: each test method that takes an {@link OvsdbServer}
 * gets a fresh local ovsdb-server process with the OVN Northbound schema, closed after the test.
 * Needs only the testkit on the test classpath and the OVS/OVN tools on the machine.
 */
@OvsdbTest
class OvsdbTestExampleIT {

    @Test
    void theEngineWritesWhatTheSpecSays(OvsdbServer server) throws Exception {
        try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                     .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
            engine.start();
            client.startAndWait(Duration.ofSeconds(20));

            LoadBalancerSpec web = LoadBalancerSpec.builder("web").tcp("10.0.0.10:80", "10.1.0.1:8080").build();
            ApplyResult result = engine.apply("team-a", List.of(web)).get(20, TimeUnit.SECONDS);

            assertThat(result.allApplied()).as(result.toString()).isTrue();
            // Cross-checked with OVN's own tool, not with ovnj.
            assertThat(Nbctl.of(server).run("get", "Load_Balancer", "web-tcp", "vips"))
                    .isEqualTo("{\"10.0.0.10:80\"=\"10.1.0.1:8080\"}");
        }
    }
}
