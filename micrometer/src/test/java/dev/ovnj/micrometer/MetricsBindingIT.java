package dev.ovnj.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Sbctl;
import dev.ovnj.testkit.junit.OvsdbTest;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import dev.ovnj.testkit.Schemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bindings against a real ovsdb-server: the meters move as the client and the engine work. */
@OvsdbTest
class MetricsBindingIT {

    @Test
    void clientAndEngineMetersFollowAReconcileAndARepair(OvsdbServer server) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                     .monitor(LoadBalancerEngine.monitorRequest()).cacheAudit(Duration.ofMillis(100)).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
            new OvsdbClientMetrics(client).bindTo(registry);
            new LoadBalancerEngineMetrics(engine).bindTo(registry);
            engine.start();
            client.startAndWait(Duration.ofSeconds(20));

            LoadBalancerSpec web = LoadBalancerSpec.builder("web").tcp("10.0.0.10:80", "10.1.0.1:8080").build();
            ApplyResult result = engine.apply("team-a", List.of(web)).get(20, TimeUnit.SECONDS);
            assertThat(result.allApplied()).as(result.toString()).isTrue();

            assertThat(registry.get("ovnj.client.connected").tag("database", "OVN_Northbound").gauge().value())
                    .isEqualTo(1.0);
            assertThat(registry.get("ovnj.client.connects").functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("ovnj.client.syncs").tag("kind", "full").functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("ovnj.client.cache.rows").gauge().value()).isPositive();
            Await.until(Duration.ofSeconds(20), "cache audits counted",
                    () -> registry.get("ovnj.client.cache.audits").functionCounter().count() >= 1.0);
            assertThat(registry.get("ovnj.client.cache.divergences").functionCounter().count()).isZero();
            assertThat(registry.get("ovnj.engine.transactions").functionCounter().count()).isGreaterThanOrEqualTo(1.0);
            assertThat(registry.get("ovnj.engine.operations").functionCounter().count()).isGreaterThanOrEqualTo(1.0);
            assertThat(registry.get("ovnj.engine.transaction").tag("outcome", "success").timer().count())
                    .isGreaterThanOrEqualTo(1L);
            assertThat(registry.get("ovnj.engine.available").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("ovnj.engine.specs").tags("owner", "team-a", "state", "applied").gauge().value())
                    .isEqualTo(1.0);
            assertThat(registry.get("ovnj.engine.specs").tags("owner", "team-a", "state", "invalid").gauge().value())
                    .isZero();

            // A spec waiting for a router is written once the router appears: a write after
            // waiting, counted apart; the repair meters do not move.
            LoadBalancerSpec later = LoadBalancerSpec.builder("later").routers("r-later").tcp("10.0.0.11:80", "10.1.0.2:8080").build();
            engine.upsert("team-a", later).get(20, TimeUnit.SECONDS);
            Nbctl.of(server).run("lr-add", "r-later");
            Await.until(Duration.ofSeconds(20), "write after waiting counted",
                    () -> registry.get("ovnj.engine.awaited.writes").functionCounter().count() >= 1.0);
            Await.until(Duration.ofSeconds(20), "write after waiting timed",
                    () -> registry.get("ovnj.engine.awaited.write").timer().count() >= 1L);
            assertThat(registry.get("ovnj.engine.repairs").functionCounter().count()).isZero();
            assertThat(registry.get("ovnj.engine.repair").timer().count()).isZero();

            // Drift another writer causes: the engine repairs it, and both repair meters move.
            Nbctl.of(server).run("lb-del", "web-tcp");
            Await.until(Duration.ofSeconds(20), "repair counted",
                    () -> registry.get("ovnj.engine.repairs").functionCounter().count() >= 1.0);
            Await.until(Duration.ofSeconds(20), "repair timed",
                    () -> registry.get("ovnj.engine.repair").timer().count() >= 1L);
        }
    }

    @Test
    void theMetersOfTwoDatabasesStayApartByTheirDatabaseTag(OvsdbServer server, @TempDir Path dir) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OvsdbServer sbServer = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient nb = OvsdbClient.builder().remotes(server.remote()).build();
             OvsdbClient sb = OvsdbClient.builder().remotes(sbServer.remote()).database("OVN_Southbound").build()) {
            new OvsdbClientMetrics(nb, Tags.of("cluster", "east")).bindTo(registry);
            new OvsdbClientMetrics(sb, Tags.of("cluster", "east")).bindTo(registry);
            nb.startAndWait(Duration.ofSeconds(20));

            assertThat(registry.find("ovnj.client.connected").gauges()).hasSize(2);
            assertThat(registry.get("ovnj.client.connected").tags("database", "OVN_Northbound", "cluster", "east").gauge().value())
                    .isEqualTo(1.0);
            // The Southbound client is not started: its gauge says so, apart from the Northbound's.
            assertThat(registry.get("ovnj.client.connected").tags("database", "OVN_Southbound", "cluster", "east").gauge().value())
                    .isZero();
            assertThat(registry.get("ovnj.client.connects").tag("database", "OVN_Northbound").functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("ovnj.client.connects").tag("database", "OVN_Southbound").functionCounter().count()).isZero();
        }
    }

    @Test
    void aDatabaseTagGivenByTheCallerReplacesTheClientsOwn(OvsdbServer server) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OvsdbClient nb = OvsdbClient.builder().remotes(server.remote()).build()) {
            new OvsdbClientMetrics(nb, Tags.of("database", "nb-east")).bindTo(registry);

            assertThat(registry.get("ovnj.client.connected").tag("database", "nb-east").gauge().getId().getTags())
                    .containsExactly(io.micrometer.core.instrument.Tag.of("database", "nb-east"));
        }
    }

    @Test
    void operatingStatusGaugesFollowTheServiceMonitor() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OvnCentral ovn = OvnCentral.start()) {
            BackendTopology.of(ovn).withSwitchSubnet().create();
            Sbctl sbctl = ovn.sbctl();
            try (OvsdbClient nb = OvsdbClient.builder().remotes(ovn.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
                 OvsdbClient sb = OvsdbClient.builder().remotes(ovn.southbound().remote()).database("OVN_Southbound")
                         .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).southbound(sb).build()) {
                new LoadBalancerEngineMetrics(engine).bindTo(registry);
                engine.start();
                nb.startAndWait(Duration.ofSeconds(20));
                sb.startAndWait(Duration.ofSeconds(20));
                LoadBalancerSpec checked = LoadBalancerSpec.builder("checked").routers(BackendTopology.ROUTER).switches(BackendTopology.SWITCH)
                        .healthCheckSources(Map.of(BackendTopology.SWITCH, List.of("10.0.0.254")))
                        .vip(VipSpec.tcp("172.16.0.100:80", BackendTopology.BACKEND1 + ":80").withHealthCheck(HealthCheck.DEFAULTS)).build();
                LoadBalancerSpec plain = LoadBalancerSpec.builder("plain").routers(BackendTopology.ROUTER)
                        .tcp("172.16.0.101:80", BackendTopology.BACKEND1 + ":80").build();
                ApplyResult result = engine.apply("team-b", List.of(checked, plain)).get(20, TimeUnit.SECONDS);
                assertThat(result.allApplied()).as(result.toString()).isTrue();
                ovn.sync();
                // Playing ovn-controller: the port is up and its monitor's probes fail.
                sbctl.run("set", "port_binding", sbctl.run("--bare", "--columns=_uuid", "find", "port_binding", "logical_port=web1").trim(),
                        "up=true");
                sbctl.run("set", "service_monitor", sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor",
                        "logical_port=web1").trim(), "status=offline");
                Await.until(Duration.ofSeconds(20), "one spec in error",
                        () -> registry.get("ovnj.engine.specs.operating").tags("owner", "team-b", "status", "error").gauge().value() == 1.0);
                assertThat(registry.get("ovnj.engine.specs.operating").tags("owner", "team-b", "status", "no_monitor").gauge().value())
                        .isEqualTo(1.0);
                assertThat(registry.get("ovnj.engine.specs.operating").tags("owner", "team-b", "status", "online").gauge().value())
                        .isZero();
            }
        }
    }
}
