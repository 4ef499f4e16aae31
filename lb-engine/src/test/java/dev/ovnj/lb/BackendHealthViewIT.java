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
 * ovn-controller would leave them, then the chassis' ovn-controller gone and the port unbound.
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
            // As ovn-controller leaves them: the monitor's port bound to a chassis whose controller is there.
            sbctl.addChassis("hv1", "127.0.0.1");
            sbctl.run("--id=@dp", "create", "datapath_binding", "tunnel_key=1", "--", "--id=@c", "get", "chassis", "hv1",
                    "--", "create", "port_binding", "logical_port=dns1", "datapath=@dp", "tunnel_key=1", "chassis=@c");
            monitor(sbctl, "10.0.0.5", "tcp", "online");
            monitor(sbctl, "10.0.0.5", "udp", "offline");
            monitor(sbctl, "fd00:10::5", "tcp", "error");
            monitor(sbctl, "fd00:10::5", "udp", "online");
            BackendHealthView.INDEXES.forEach(sb.cache()::addIndex);
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
            assertThat(OperatingStatus.ofVips(dns, BackendHealthView.of(dns, sb.cache()))).isEqualTo(Map.of(
                    "10.96.0.10:53", OperatingStatus.ONLINE, "10.96.0.10:53/udp", OperatingStatus.ERROR,
                    "[fd00:96::10]:53", OperatingStatus.ERROR, "[fd00:96::10]:53/udp", OperatingStatus.ONLINE));

            // The chassis' ovn-controller goes (its Chassis_Private row with it): every verdict it left is stale.
            sbctl.run("destroy", "chassis_private", sbctl.run("--bare", "--columns=_uuid", "find", "chassis_private", "name=hv1").trim());
            Await.until(WAIT, "Chassis_Private gone", () -> sb.cache().table("Chassis_Private").size() == 0);
            assertThat(BackendHealthView.of(dns, sb.cache())).containsOnlyKeys(expected.keySet()).allSatisfy((b, h) ->
                    assertThat(h).as(b).isEqualTo(BackendHealth.UNKNOWN));
            sbctl.run("--id=@c", "get", "chassis", "hv1", "--", "create", "chassis_private", "name=hv1", "chassis=@c");
            Await.until(WAIT, "Chassis_Private back", () -> BackendHealthView.of(dns, sb.cache()).equals(expected));
            // The port unbound: nobody probes it.
            sbctl.run("clear", "port_binding", sbctl.run("--bare", "--columns=_uuid", "find", "port_binding", "logical_port=dns1").trim(),
                    "chassis");
            Await.until(WAIT, "unbound port's monitors unknown", () -> BackendHealthView.of(dns, sb.cache()).values().stream()
                    .allMatch(h -> h == BackendHealth.UNKNOWN));
            assertThat(BackendHealthView.key(Endpoint.parse("10.0.0.5:53"), Protocol.TCP)).isEqualTo("10.0.0.5:53");
        }
    }

    private static void monitor(Sbctl sbctl, String ip, String protocol, String status) {
        sbctl.run("create", "service_monitor", "ip=\"" + ip + "\"", "port=53", "protocol=" + protocol,
                "logical_port=dns1", "status=" + status);
    }
}
