package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The sample application on the auto-configuration, against a real Northbound ovsdb-server. */
class OvnjAutoConfigurationIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void theSampleDeclaresItsLoadBalancerAndReportsHealthAndMeters() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "r0");
            try (ConfigurableApplicationContext ctx = sample("ovnj.northbound.remotes=" + server.remote())) {
                // The sample declares without waiting: its row comes as soon as the engine has written it.
                Await.until(WAIT, "web-tcp written", () -> nbctl.run("lr-lb-list", "r0").contains("10.0.0.100:80"));
                assertThat(nbctl.run("get", "Load_Balancer", "web-tcp", "vips")).isEqualTo("{\"10.0.0.100:80\"=\"10.1.0.10:8080\"}");
                assertThat(nbctl.run("lr-lb-list", "r0")).contains("10.0.0.100:80");
                assertThat(nbctl.run("get", "Load_Balancer", "web-tcp", "external_ids:ovnj.owner")).isEqualTo("sample");

                OvnjHealthIndicator health = ctx.getBean(OvnjHealthIndicator.class);
                Health h = health.health();
                assertThat(h.getStatus()).isEqualTo(Status.UP);
                assertThat(h.getDetails()).containsEntry("synced", true).containsEntry("writing", true)
                        .containsEntry("specs", Map.of("APPLIED", 1)).containsEntry("owner", "sample");
                // No health check (and no Southbound): it serves, unmonitored.
                Await.until(WAIT, "operating status in the details",
                        () -> Map.of("NO_MONITOR", 1).equals(health.health().getDetails().get("operating")));

                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                assertThat(meters.getMeters()).extracting(m -> m.getId().getName()).anyMatch(n -> n.startsWith("ovnj.engine"))
                        .anyMatch(n -> n.startsWith("ovnj.client"));

                server.kill();
                Await.until(WAIT, "health DOWN without the database", () -> health.health().getStatus().equals(Status.DOWN));
            }
        }
    }

    @Test
    void withoutRemotesNothingIsConfigured() {
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE).run()) {
            assertThat(ctx.getBeansOfType(OvsdbClient.class)).isEmpty();
            assertThat(ctx.getBeansOfType(LoadBalancerEngine.class)).isEmpty();
        }
    }

    private static ConfigurableApplicationContext sample(String... properties) {
        return new SpringApplicationBuilder(SampleApplication.class).web(WebApplicationType.NONE)
                .properties("ovnj.engine.owner=sample", "sample.router=r0", "sample.vip=10.0.0.100:80")
                .properties(properties).run();
    }

    /** An application without any ovnj property. */
    @org.springframework.boot.SpringBootConfiguration
    @org.springframework.boot.autoconfigure.EnableAutoConfiguration
    static class Empty {
    }
}
