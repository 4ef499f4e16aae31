package dev.ovnj.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application on Spring Boot 3.5's own dependency management: it runs with the Micrometer and
 * Jackson that Boot manages, which are the versions ovnj itself is built and tested with, and the
 * starter gives it a working engine, the readiness group and tagged meters against a real
 * ovsdb-server, cross-checked with ovn-nbctl.
 */
class BootBomIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void theClasspathHasBootsVersionsWhichAreOvnjsOwn() throws IOException {
        String micrometer = System.getProperty("boot.micrometer.version");
        String jackson = System.getProperty("boot.jackson.version");

        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
        assertThat(MeterRegistry.class.getPackage().getImplementationVersion()).isEqualTo(micrometer);
        assertThat(PackageVersion.VERSION.toString()).isEqualTo(jackson);
        // ovnj's parent builds and tests every module with the same versions.
        String parent = Files.readString(Path.of(System.getProperty("ovnj-parent.pom")));
        assertThat(property(parent, "micrometer.version")).as("ovnj's micrometer.version").isEqualTo(micrometer);
        assertThat(property(parent, "jackson.version")).as("ovnj's jackson.version").isEqualTo(jackson);
    }

    @Test
    void theApplicationDeclaresALoadBalancerAndReportsHealthAndTaggedMeters() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "r0");
            try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(BootApplication.class)
                    .web(WebApplicationType.NONE).run("--ovnj.northbound.remotes=" + server.remote())) {
                LoadBalancerEngine engine = ctx.getBean(LoadBalancerEngine.class);
                ApplyResult result = engine.apply("boot-example", List.of(LoadBalancerSpec.builder("web")
                        .tcp("10.0.0.100:80", "10.1.0.10:8080").routers("r0").build())).get(60, TimeUnit.SECONDS);

                assertThat(result.allApplied()).as(result.toString()).isTrue();
                assertThat(nbctl.run("lr-lb-list", "r0")).contains("10.0.0.100:80");

                HealthEndpoint health = ctx.getBean(HealthEndpoint.class);
                Await.until(WAIT, "readiness UP", () -> health.healthForPath("readiness").getStatus().equals(Status.UP));
                assertThat(health.healthForPath("ovnj").getStatus()).isEqualTo(Status.UP);

                MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                assertThat(meters.get("ovnj.client.connected").tag("database", "OVN_Northbound").gauge().value()).isEqualTo(1.0);
                assertThat(meters.get("ovnj.engine.specs").tags("owner", "boot-example", "state", "applied").gauge().value())
                        .isEqualTo(1.0);
            }
        }
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
        assertThat(m.find()).as("%s in ovnj's parent pom", name).isTrue();
        return m.group(1);
    }
}
