package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Sbctl;
import dev.ovnj.testkit.Schemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link BackendHealthView} over a Southbound cache replicated from an ovsdb-server with the OVN
 * Southbound schema, its {@code Service_Monitor} rows written with ovn-sbctl as ovn-northd and
 * ovn-controller would leave them.
 */
class BackendHealthViewIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aBackendCheckedOverTcpAndUdpReportsEachMonitorUnderItsOwnKey() throws Exception {
        Path dir = Files.createTempDirectory("ovnj-sb");
        try (OvsdbServer server = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient sb = OvsdbClient.builder().remotes(server.remote()).database("OVN_Southbound")
                     .monitor(LoadBalancerEngine.southboundMonitorRequest()).build()) {
            Sbctl sbctl = Sbctl.of(server);
            monitor(sbctl, "10.0.0.5", "tcp", "online");
            monitor(sbctl, "10.0.0.5", "udp", "offline");
            monitor(sbctl, "fd00:10::5", "tcp", "error");
            monitor(sbctl, "fd00:10::5", "udp", "online");
            sb.cache().addIndex(BackendHealthView.MONITOR_BY_IP);
            sb.startAndWait(WAIT);
            // DNS: one backend per family, served over TCP and UDP, every VIP health-checked.
            LoadBalancerSpec dns = LoadBalancerSpec.builder("dns")
                    .vip(VipSpec.tcp("10.96.0.10:53", "10.0.0.5:53").withHealthCheck(HealthCheck.DEFAULTS))
                    .vip(VipSpec.of(Protocol.UDP, "10.96.0.10:53", List.of("10.0.0.5:53"))
                            .withHealthCheck(HealthCheck.DEFAULTS))
                    .vip(VipSpec.tcp("[fd00:96::10]:53", "[fd00:10::5]:53").withHealthCheck(HealthCheck.DEFAULTS))
                    .vip(VipSpec.of(Protocol.UDP, "[fd00:96::10]:53", List.of("[fd00:10::5]:53"))
                            .withHealthCheck(HealthCheck.DEFAULTS))
                    .build();
            Map<String, BackendHealth> expected = Map.of(
                    "10.0.0.5:53", BackendHealth.ONLINE,
                    "10.0.0.5:53/udp", BackendHealth.OFFLINE,
                    "[fd00:10::5]:53", BackendHealth.ERROR,
                    "[fd00:10::5]:53/udp", BackendHealth.ONLINE);
            Await.until(WAIT, "four monitors replicated", () -> sb.cache().table("Service_Monitor").size() == 4);
            assertThat(BackendHealthView.of(dns, sb.cache())).isEqualTo(expected);
            assertThat(BackendHealthView.key(Endpoint.parse("[fd00:10::5]:53"), Protocol.UDP)).isEqualTo("[fd00:10::5]:53/udp");
            assertThat(BackendHealthView.key(Endpoint.parse("10.0.0.5:53"), Protocol.TCP)).isEqualTo("10.0.0.5:53");
        }
    }

    private static void monitor(Sbctl sbctl, String ip, String protocol, String status) {
        sbctl.run("create", "service_monitor", "ip=\"" + ip + "\"", "port=53", "protocol=" + protocol,
                "logical_port=dns1", "status=" + status);
    }
}
