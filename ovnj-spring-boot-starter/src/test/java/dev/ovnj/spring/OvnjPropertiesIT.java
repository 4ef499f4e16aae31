package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.micrometer.OvsdbClientMetrics;
import dev.ovnj.ovsdb.client.ClientOptions;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * What a controller configures, from properties alone, against real Northbound and Southbound
 * ovsdb-servers: the connection settings of each client, the engine's EIP policy and deletion
 * budget, the Southbound's own health component and the {@code database} tag of each client's
 * meters.
 */
class OvnjPropertiesIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void connectionSettingsReachEachClientAndTheSouthboundHasItsOwnHealthAndMeters(@TempDir Path dir) {
        try (OvsdbServer nb = OvsdbServer.start();
             OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             ConfigurableApplicationContext ctx = app(Registry.class,
                     "ovnj.northbound.remotes=" + nb.remote(),
                     "ovnj.northbound.probe-interval=0",
                     "ovnj.northbound.leader-only=false",
                     "ovnj.northbound.connect-timeout=2s",
                     "ovnj.northbound.request-timeout=20s",
                     "ovnj.northbound.cache-audit=0",
                     "ovnj.northbound.reconnect-backoff.min=50ms",
                     "ovnj.northbound.reconnect-backoff.max=3s",
                     "ovnj.southbound.remotes=" + sb.remote(),
                     "ovnj.southbound.probe-interval=7s",
                     "ovnj.southbound.reconnect-backoff.max=1s")) {
            ClientOptions north = ctx.getBean("ovnjNorthbound", OvsdbClient.class).options();
            assertThat(north.probeInterval()).isZero();
            assertThat(north.leaderOnly()).isFalse();
            assertThat(north.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(north.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
            assertThat(north.cacheAudit()).isZero();
            assertThat(north.minBackoff()).isEqualTo(Duration.ofMillis(50));
            assertThat(north.maxBackoff()).isEqualTo(Duration.ofSeconds(3));
            ClientOptions south = ctx.getBean("ovnjSouthbound", OvsdbClient.class).options();
            assertThat(south.database()).isEqualTo("OVN_Southbound");
            assertThat(south.probeInterval()).isEqualTo(Duration.ofSeconds(7));
            // Unset: the client's defaults.
            assertThat(south.leaderOnly()).isTrue();
            assertThat(south.minBackoff()).isEqualTo(Duration.ofMillis(100));
            assertThat(south.maxBackoff()).isEqualTo(Duration.ofSeconds(1));

            OvnjSouthboundHealthIndicator southHealth = ctx.getBean("ovnjSouthboundHealthIndicator", OvnjSouthboundHealthIndicator.class);
            OvnjHealthIndicator northHealth = ctx.getBean(OvnjHealthIndicator.class);
            Await.until(WAIT, "the Southbound UP", () -> southHealth.health().getStatus().equals(Status.UP));
            assertThat(southHealth.health().getDetails()).containsEntry("database", "OVN_Southbound")
                    .containsEntry("remote", sb.remote()).containsEntry("synced", true);

            MeterRegistry meters = ctx.getBean(MeterRegistry.class);
            Await.until(WAIT, "both clients connected", () -> ctx.getBean("ovnjNorthbound", OvsdbClient.class).isSynced());
            assertThat(meters.get("ovnj.client.connected").tag(OvsdbClientMetrics.DATABASE_TAG, "OVN_Northbound").gauge().value())
                    .isEqualTo(1.0);
            assertThat(meters.get("ovnj.client.connected").tag(OvsdbClientMetrics.DATABASE_TAG, "OVN_Southbound").gauge().value())
                    .isEqualTo(1.0);

            sb.kill();
            Await.until(WAIT, "the Southbound DOWN", () -> southHealth.health().getStatus().equals(Status.DOWN));
            assertThat(meters.get("ovnj.client.connected").tag(OvsdbClientMetrics.DATABASE_TAG, "OVN_Southbound").gauge().value())
                    .isZero();
            // The engine writes without the Southbound: the Northbound component stays UP.
            assertThat(northHealth.health().getStatus()).isEqualTo(Status.UP);
        }
    }

    @Test
    void eipPolicyRejectMakesAVipOutsideTheRoutersNetworksInvalid() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "r0");
            try (ConfigurableApplicationContext ctx = app(SampleApplication.class, "ovnj.northbound.remotes=" + server.remote(),
                    "ovnj.engine.owner=sample", "sample.router=r0", "sample.vip=10.0.0.100:80", "ovnj.engine.eip-policy=reject")) {
                OvnjHealthIndicator health = ctx.getBean(OvnjHealthIndicator.class);
                Await.until(WAIT, "the spec judged", () -> Map.of("INVALID", 1).equals(health.health().getDetails().get("specs")));

                // r0 has no port network holding 10.0.0.100: with the default (warn) it would be written.
                assertThat(nbctl.run("lr-lb-list", "r0")).doesNotContain("10.0.0.100");
                assertThat(ctx.getBean(LoadBalancerEngine.class).status("sample").get("web").reason())
                        .contains("10.0.0.100");
            }
        }
    }

    @Test
    void theDeletionBudgetFromPropertiesHoldsOrLetsAMassDeletionThrough() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            try (ConfigurableApplicationContext ctx = app(Registry.class, "ovnj.northbound.remotes=" + server.remote(),
                    "ovnj.engine.deletion-budget.share=0", "ovnj.engine.deletion-budget.min-rows=1")) {
                LoadBalancerEngine engine = ctx.getBean(LoadBalancerEngine.class);
                assertThat(engine.apply("team", specs(3)).get(30, TimeUnit.SECONDS).allApplied()).isTrue();

                ApplyResult shrunk = engine.apply("team", specs(1)).get(30, TimeUnit.SECONDS);

                // Two deletions: more than min-rows 1 and more than 0% of the rows, so held.
                assertThat(shrunk.statuses().values()).extracting(SpecStatus::state).contains(SpecStatus.State.HELD);
                assertThat(Nbctl.of(server).run("--bare", "--columns=name", "list", "Load_Balancer")).contains("lb-2-tcp");
            }
            try (ConfigurableApplicationContext ctx = app(Registry.class, "ovnj.northbound.remotes=" + server.remote(),
                    "ovnj.engine.deletion-budget.unlimited=true")) {
                LoadBalancerEngine engine = ctx.getBean(LoadBalancerEngine.class);

                ApplyResult emptied = engine.apply("team", List.of()).get(30, TimeUnit.SECONDS);

                assertThat(emptied.statuses().values()).extracting(SpecStatus::state).doesNotContain(SpecStatus.State.HELD);
                Await.until(WAIT, "every row deleted",
                        () -> Nbctl.of(server).run("--bare", "--columns=name", "list", "Load_Balancer").isBlank());
            }
        }
    }

    private static List<LoadBalancerSpec> specs(int n) {
        return IntStream.range(0, n).mapToObj(i -> LoadBalancerSpec.builder("lb-" + i).tcp("10.0.0." + (10 + i) + ":80", "10.1.0.1:8080")
                .build()).toList();
    }

    private static ConfigurableApplicationContext app(Class<?> application, String... properties) {
        return new SpringApplicationBuilder(application).web(WebApplicationType.NONE).properties(properties).run();
    }

    /** An application with a registry that every binder is bound to, as Actuator's metrics auto-configuration does. */
    @org.springframework.boot.SpringBootConfiguration
    @org.springframework.boot.autoconfigure.EnableAutoConfiguration
    static class Registry {
        @Bean
        MeterRegistry meterRegistry(List<io.micrometer.core.instrument.binder.MeterBinder> binders) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            binders.forEach(b -> b.bindTo(registry));
            return registry;
        }
    }
}
