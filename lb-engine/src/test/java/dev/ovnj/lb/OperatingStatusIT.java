package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The operating status of specs, VIPs and backends, rolled up from OVN's service monitors: NB and
 * SB ovsdb-servers with ovn-northd between them, the test playing ovn-controller's part in the
 * Southbound (chassis, bindings, {@code up}, each monitor's {@code status}).
 *
 * <p>Topology: router lr0 (lrp-int 10.0.0.1/24) on switch ls-int (other_config:subnet
 * 10.0.0.0/24); ports web1 (10.0.0.2) and web2 (10.0.0.3) bound to chassis hv1, web3 (10.0.0.4)
 * bound to chassis hv2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperatingStatusIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Map<String, List<String>> SOURCES = Map.of("ls-int", List.of("10.0.0.254"));

    private OvnCentral central;
    private Nbctl nbctl;
    private Sbctl sbctl;
    private OvsdbClient nb;
    private OvsdbClient sb;
    private LoadBalancerEngine engine;
    private final List<OperatingStatusChange> changes = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() {
        central = OvnCentral.start();
        nbctl = central.nbctl();
        sbctl = central.sbctl();
        nbctl.run("lr-add", "lr0", "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24");
        nbctl.run("ls-add", "ls-int", "--", "set", "logical_switch", "ls-int", "other_config:subnet=10.0.0.0/24",
                "--", "lsp-add", "ls-int", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int",
                "--", "lsp-add", "ls-int", "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 10.0.0.2",
                "--", "lsp-add", "ls-int", "web2", "--", "lsp-set-addresses", "web2", "00:00:00:00:02:02 10.0.0.3",
                "--", "lsp-add", "ls-int", "web3", "--", "lsp-set-addresses", "web3", "00:00:00:00:02:03 10.0.0.4");
        sbctl.addChassis("hv1", "127.0.0.1");
        sbctl.addChassis("hv2", "127.0.0.2");
        central.sync();
        sbctl.run("lsp-bind", "web1", "hv1", "--", "lsp-bind", "web2", "hv1", "--", "lsp-bind", "web3", "hv2");
        // northd forces a monitor of a port that is not up offline; ovn-controller sets up=true on binding.
        for (String p : List.of("web1", "web2", "web3")) {
            sbctl.run("set", "port_binding", uuid("port_binding", "logical_port=" + p), "up=true");
        }
        nb = OvsdbClient.builder().remotes(central.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        sb = OvsdbClient.builder().remotes(central.southbound().remote()).database("OVN_Southbound")
                .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
        engine = LoadBalancerEngine.builder(nb).southbound(sb).build();
        engine.addListener(new EngineListener() {
            @Override
            public void onOperatingStatus(OperatingStatusChange change) {
                changes.add(change);
            }
        });
        engine.start();
        nb.startAndWait(WAIT);
        sb.startAndWait(WAIT);
    }

    @AfterAll
    void stop() {
        if (engine != null) {
            engine.close();
        }
        if (sb != null) {
            sb.close();
        }
        if (nb != null) {
            nb.close();
        }
        if (central != null) {
            central.close();
        }
    }

    private static LoadBalancerSpec checked(String name, String vip, String... backends) {
        return LoadBalancerSpec.builder(name).routers("lr0").switches("ls-int").healthCheckSources(SOURCES)
                .vip(VipSpec.tcp(vip, backends).withHealthCheck(HealthCheck.DEFAULTS)).build();
    }

    @Test
    void backendsGoingOfflineOneByOneTakeTheSpecFromOnlineToDegradedToErrorAndBack() throws Exception {
        String owner = "web";
        SpecStatus applied = engine.apply(owner, List.of(checked(owner, "172.16.0.100:80", "10.0.0.2:80", "10.0.0.3:80")))
                .get(30, TimeUnit.SECONDS).statuses().get(owner);
        assertThat(applied.state()).as(applied.toString()).isEqualTo(SpecStatus.State.APPLIED);
        // northd made the monitors; no ovn-controller has set a status yet.
        assertThat(applied.operatingStatus()).isEqualTo(OperatingStatus.UNKNOWN);
        central.sync();
        String m1 = uuid("service_monitor", "logical_port=web1");
        String m2 = uuid("service_monitor", "logical_port=web2");

        sbctl.run("set", "service_monitor", m1, "status=online", "--", "set", "service_monitor", m2, "status=online");
        awaitOperating(owner, OperatingStatus.ONLINE);
        SpecStatus online = status(owner);
        assertThat(online.vipOperatingStatus()).isEqualTo(Map.of("172.16.0.100:80", OperatingStatus.ONLINE));
        assertThat(online.backendOperatingStatus())
                .isEqualTo(Map.of("10.0.0.2:80", OperatingStatus.ONLINE, "10.0.0.3:80", OperatingStatus.ONLINE));
        assertThat(online.state()).isEqualTo(SpecStatus.State.APPLIED);

        sbctl.run("set", "service_monitor", m1, "status=offline");
        awaitOperating(owner, OperatingStatus.DEGRADED);
        assertThat(status(owner).backendOperatingStatus())
                .isEqualTo(Map.of("10.0.0.2:80", OperatingStatus.ERROR, "10.0.0.3:80", OperatingStatus.ONLINE));
        assertThat(engine.metrics().specs(OperatingStatus.DEGRADED)).isEqualTo(1);

        sbctl.run("set", "service_monitor", m2, "status=error");
        awaitOperating(owner, OperatingStatus.ERROR);
        assertThat(status(owner).vipOperatingStatus()).isEqualTo(Map.of("172.16.0.100:80", OperatingStatus.ERROR));
        // Southbound updates that change no verdict (the same status again, another column) make no event.
        sbctl.run("set", "service_monitor", m2, "status=error", "--", "set", "service_monitor", m1, "external_ids:poll=1");

        sbctl.run("set", "service_monitor", m1, "status=online", "--", "set", "service_monitor", m2, "status=online");
        awaitOperating(owner, OperatingStatus.ONLINE);
        Await.until(WAIT, "four events", () -> changesOf(owner).size() >= 4);
        assertThat(changesOf(owner)).as("one event per transition, in order").containsExactly(
                new OperatingStatusChange(owner, owner, OperatingStatus.UNKNOWN, OperatingStatus.ONLINE, Map.of("172.16.0.100:80",
                        OperatingStatus.ONLINE)),
                new OperatingStatusChange(owner, owner, OperatingStatus.ONLINE, OperatingStatus.DEGRADED, Map.of("172.16.0.100:80",
                        OperatingStatus.DEGRADED)),
                new OperatingStatusChange(owner, owner, OperatingStatus.DEGRADED, OperatingStatus.ERROR, Map.of("172.16.0.100:80",
                        OperatingStatus.ERROR)),
                new OperatingStatusChange(owner, owner, OperatingStatus.ERROR, OperatingStatus.ONLINE, Map.of("172.16.0.100:80",
                        OperatingStatus.ONLINE)));
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aVipWithoutBackendsIsOfflineAndOneWithoutHealthCheckHasNoMonitor() throws Exception {
        String owner = "plain";
        LoadBalancerSpec unchecked = LoadBalancerSpec.builder("unchecked").routers("lr0").tcp("172.16.0.110:80", "10.0.0.2:80").build();
        LoadBalancerSpec mixed = LoadBalancerSpec.builder("mixed").routers("lr0")
                .vip(VipSpec.tcp("172.16.0.111:80", "10.0.0.2:80"))
                .vip(VipSpec.tcp("172.16.0.111:443"))
                .build();
        Map<String, SpecStatus> st = engine.apply(owner, List.of(unchecked, mixed)).get(30, TimeUnit.SECONDS).statuses();
        awaitOperating(owner, "unchecked", OperatingStatus.NO_MONITOR);
        awaitOperating(owner, "mixed", OperatingStatus.OFFLINE);
        assertThat(st.get("mixed").state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(engine.status(owner).get("mixed").vipOperatingStatus())
                .isEqualTo(Map.of("172.16.0.111:80", OperatingStatus.NO_MONITOR, "172.16.0.111:443", OperatingStatus.OFFLINE));
        assertThat(engine.status(owner).get("unchecked").backendOperatingStatus()).isEmpty();

        // The VIP gains a backend: the spec serves, unmonitored.
        engine.apply(owner, List.of(unchecked, LoadBalancerSpec.builder("mixed").routers("lr0")
                .vip(VipSpec.tcp("172.16.0.111:80", "10.0.0.2:80")).vip(VipSpec.tcp("172.16.0.111:443", "10.0.0.2:443")).build()))
                .get(30, TimeUnit.SECONDS);
        awaitOperating(owner, "mixed", OperatingStatus.NO_MONITOR);
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aMonitorWhoseChassisGoesTurnsUnknownAndBackWhenItReturns() throws Exception {
        String owner = "hv2";
        engine.apply(owner, List.of(checked(owner, "172.16.0.120:80", "10.0.0.4:80"))).get(30, TimeUnit.SECONDS);
        central.sync();
        String m = uuid("service_monitor", "logical_port=web3");
        sbctl.run("set", "service_monitor", m, "status=online");
        awaitOperating(owner, OperatingStatus.ONLINE);

        // ovn-controller on hv2 goes away without cleaning up its Chassis: its Chassis_Private row is gone.
        String priv = uuid("chassis_private", "name=hv2");
        sbctl.run("destroy", "chassis_private", priv);
        awaitOperating(owner, OperatingStatus.UNKNOWN);
        assertThat(status(owner).backendHealth()).isEqualTo(Map.of("10.0.0.4:80", BackendHealth.UNKNOWN));
        assertThat(sbctl.run("--bare", "--columns=status", "list", "service_monitor", m).trim())
                .as("the row still says online; nobody updates it").isEqualTo("online");
        sbctl.run("--id=@c", "get", "chassis", "hv2", "--", "create", "chassis_private", "name=hv2", "chassis=@c");
        awaitOperating(owner, OperatingStatus.ONLINE);

        // The port is unbound from hv2: nobody probes it.
        String binding = uuid("port_binding", "logical_port=web3");
        sbctl.run("clear", "port_binding", binding, "chassis");
        awaitOperating(owner, OperatingStatus.UNKNOWN);
        sbctl.run("lsp-bind", "web3", "hv2");
        awaitOperating(owner, OperatingStatus.ONLINE);

        // The whole chassis is deleted (ovn-sbctl chassis-del, as when a node is removed).
        sbctl.run("chassis-del", "hv2");
        awaitOperating(owner, OperatingStatus.UNKNOWN);
        Await.until(WAIT, "six events", () -> changesOf(owner).size() >= 6);
        assertThat(changesOf(owner).stream().map(OperatingStatusChange::now).toList()).containsExactly(OperatingStatus.ONLINE,
                OperatingStatus.UNKNOWN, OperatingStatus.ONLINE, OperatingStatus.UNKNOWN, OperatingStatus.ONLINE,
                OperatingStatus.UNKNOWN);
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    private SpecStatus status(String spec) {
        return engine.status(spec).get(spec);
    }

    private List<OperatingStatusChange> changesOf(String owner) {
        return changes.stream().filter(c -> c.owner().equals(owner)).toList();
    }

    private void awaitOperating(String owner, OperatingStatus expected) {
        awaitOperating(owner, owner, expected);
    }

    private void awaitOperating(String owner, String spec, OperatingStatus expected) {
        Await.until(WAIT, owner + "/" + spec + " " + expected, () -> {
            SpecStatus s = engine.status(owner).get(spec);
            return s != null && s.operatingStatus() == expected;
        });
    }

    private String uuid(String table, String condition) {
        return sbctl.run("--bare", "--columns=_uuid", "find", table, condition).trim();
    }
}
