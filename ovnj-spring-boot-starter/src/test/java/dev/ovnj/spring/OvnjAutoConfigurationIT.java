package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.StderrCapture;
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

    @Test
    void badPropertiesFailTheStartWithAnAnalysisNamingTheProperty() {
        assertThat(failure("ovnj.northbound.remotes=ssl:127.0.0.1:1", "ovnj.northbound.private-key=/tmp/key.pem"))
                .contains("ovnj.northbound.certificate").contains("TLS needs all of private-key, certificate and ca-cert");
        assertThat(failure("ovnj.northbound.remotes=tcp:127.0.0.1"))
                .contains("ovnj.northbound.remotes").contains("no port; OVN's Northbound listens on 6641");
        assertThat(failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.request-timeout=0s"))
                .contains("ovnj.engine.requestTimeout").contains("must be positive");
        assertThat(failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.lock=shop-lb"))
                .contains("ovnj.engine.lock").contains("is not an <id>");
    }

    @Test
    void aMisspeltPropertyFailsTheStartInsteadOfLeavingOvnjUnconfigured() {
        // Without remotes the auto-configuration is off; before issue 45 this started without ovnj and without a word.
        assertThat(failure("ovnj.northbound.remote=tcp:127.0.0.1:6641")).contains("ovnj.northbound.remote").contains("left unbound");
        assertThat(failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.request-timout=5s"))
                .contains("ovnj.engine.request-timout").contains("left unbound");
    }

    /** Starts the sample, which must fail; returns what Spring Boot's failure analysis printed. */
    private static String failure(String... properties) {
        try (StderrCapture err = StderrCapture.start()) {
            assertThatThrownBy(() -> sample(properties).close()).as("the start fails").isInstanceOf(RuntimeException.class);
            String text = err.text();
            assertThat(text).as("the failure analysis").contains("APPLICATION FAILED TO START");
            return text;
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
