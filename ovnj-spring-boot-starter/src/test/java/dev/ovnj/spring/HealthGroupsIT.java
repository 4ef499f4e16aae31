package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample application with Actuator's health endpoint, started while its Northbound database
 * is down, which then comes up and goes down again (a real ovsdb-server on a fixed port): the
 * application starts regardless, {@code liveness} stays UP throughout, {@code readiness} follows
 * the database, and the load balancer declared at start while the database was down is written
 * once it is up.
 */
class HealthGroupsIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void livenessStaysUpWhileReadinessFollowsTheDatabaseDownUpDown() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SampleApplication.class).web(WebApplicationType.NONE)
                .properties("ovnj.northbound.remotes=tcp:127.0.0.1:" + port, "ovnj.engine.owner=sample", "ovnj.engine.request-timeout=2s",
                        "sample.router=r0", "sample.vip=10.0.0.100:80", "spring.jmx.enabled=true",
                        "management.endpoints.jmx.exposure.include=health")
                .run()) {
            HealthEndpoint health = ctx.getBean(HealthEndpoint.class);
            // Down at boot: the application started (run() returned), alive, not ready.
            assertThat(status(health, "liveness")).isEqualTo(Status.UP);
            assertThat(status(health, "readiness")).isEqualTo(Status.DOWN);
            assertThat(((CompositeHealth) health.healthForPath("readiness")).getComponents()).containsOnlyKeys("ovnj", "readinessState");
            assertThat(((CompositeHealth) health.healthForPath("liveness")).getComponents()).containsOnlyKeys("livenessState");

            try (OvsdbServer server = OvsdbServer.builder().port(port).start()) {
                Nbctl.of(server).run("lr-add", "r0");
                Await.until(WAIT, "readiness UP with the database", () -> status(health, "readiness").equals(Status.UP));
                assertThat(status(health, "liveness")).isEqualTo(Status.UP);
                Await.until(WAIT, "the load balancer declared while the database was down is written",
                        () -> Nbctl.of(server).run("lr-lb-list", "r0").contains("10.0.0.100:80"));

                server.kill();
                Await.until(WAIT, "readiness DOWN without the database", () -> status(health, "readiness").equals(Status.DOWN));
                assertThat(status(health, "liveness")).isEqualTo(Status.UP);
            }
        }
    }

    private static Status status(HealthEndpoint health, String group) {
        return health.healthForPath(group).getStatus();
    }
}
