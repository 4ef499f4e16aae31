package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

/**
 * The health indicator's operating-status details with ovn-northd and a Southbound whose service
 * monitors the test sets as ovn-controller would: a degraded load balancer is a detail, not DOWN.
 */
class OvnjHealthIndicatorIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aDegradedLoadBalancerIsADetailAndTheApplicationStaysUp() throws Exception {
        try (OvnCentral ovn = OvnCentral.start()) {
            BackendTopology.of(ovn).withSwitchSubnet().create();
            try (OvsdbClient nb = OvsdbClient.builder().remotes(ovn.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
                 OvsdbClient sb = OvsdbClient.builder().remotes(ovn.southbound().remote()).database("OVN_Southbound")
                         .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).southbound(sb).build().start()) {
                nb.startAndWait(WAIT);
                sb.startAndWait(WAIT);
                engine.apply("app", List.of(LoadBalancerSpec.builder("web").routers(BackendTopology.ROUTER).switches(BackendTopology.SWITCH)
                        .healthCheckSources(Map.of(BackendTopology.SWITCH, List.of("10.0.0.254")))
                        .vip(VipSpec.tcp("172.16.0.100:80", BackendTopology.BACKEND1 + ":80", BackendTopology.BACKEND2 + ":80")
                                .withHealthCheck(HealthCheck.DEFAULTS)).build())).get(30, TimeUnit.SECONDS);
                ovn.sync();
                Sbctl sbctl = ovn.sbctl();
                for (String port : List.of("web1", "web2")) {
                    sbctl.run("set", "port_binding", uuid(sbctl, "port_binding", port), "up=true");
                }
                sbctl.run("set", "service_monitor", uuid(sbctl, "service_monitor", "web1"), "status=offline",
                        "--", "set", "service_monitor", uuid(sbctl, "service_monitor", "web2"), "status=online");
                OvnjHealthIndicator indicator = new OvnjHealthIndicator(nb, engine, "app");
                Await.until(WAIT, "degraded in the details",
                        () -> Map.of("DEGRADED", 1).equals(indicator.health().getDetails().get("operating")));
                assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                // Without an owner: every owner's specs, from the engine's metrics.
                assertThat(new OvnjHealthIndicator(nb, engine, null).health().getDetails()).containsEntry("operating", Map.of("DEGRADED", 1));
            }
        }
    }

    @Test
    void aClientThatGaveUpIsDownWithTheReason(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        try (dev.ovnj.testkit.OvsdbServer sb = dev.ovnj.testkit.OvsdbServer.builder().schema(dev.ovnj.testkit.Schemas.ovnSouthbound(dir)).start();
             OvsdbClient nb = OvsdbClient.builder().remotes(sb.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).build().start()) {
            nb.start();
            Await.until(WAIT, "the client gave up", () -> nb.gaveUp().isPresent());
            OvnjHealthIndicator indicator = new OvnjHealthIndicator(nb, engine, "app");
            Await.until(WAIT, "the engine says why", () -> engine.availability().contains("OVN_Southbound"));
            var health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("gaveUp", true).containsEntry("remote", sb.remote());
            assertThat((String) health.getDetails().get("reason")).contains("does not serve database OVN_Northbound")
                    .contains("OVN_Southbound");
            assertThat((String) health.getDetails().get("availability")).contains("does not serve database OVN_Northbound");
        }
    }

    private static String uuid(Sbctl sbctl, String table, String port) {
        return sbctl.run("--bare", "--columns=_uuid", "find", table, "logical_port=" + port).trim();
    }
}
