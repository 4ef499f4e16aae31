package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * Health checks end to end on NB and SB ovsdb-servers with ovn-northd between them (no
 * ovn-controller: bindings and monitor verdicts are set with ovn-sbctl): the engine writes the
 * health check rows and ip_port_mappings, northd makes one Service_Monitor per mapped backend,
 * the monitor's verdict reaches the spec's status and listeners, and northd's flows follow it.
 *
 * <p>Topology: router lr0 (lrp-int 10.0.0.1/24, fd00:10::1/64) on switch ls-int
 * (other_config:subnet 10.0.0.0/24, ipv6_prefix fd00:10::), ports web1 (10.0.0.2, fd00:10::2)
 * and web2 (10.0.0.3, fd00:10::3).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HealthCheckIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Map<String, List<String>> SOURCES = Map.of("ls-int", List.of("10.0.0.254", "fd00:10::fe"));

    private OvnCentral central;
    private Nbctl nbctl;
    private Sbctl sbctl;
    private OvsdbClient nb;
    private OvsdbClient sb;
    private LoadBalancerEngine engine;
    private final List<BackendHealthChange> changes = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() {
        central = OvnCentral.start();
        nbctl = central.nbctl();
        sbctl = central.sbctl();
        nbctl.run("lr-add", "lr0", "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24", "fd00:10::1/64");
        nbctl.run("ls-add", "ls-int", "--", "set", "logical_switch", "ls-int", "other_config:subnet=10.0.0.0/24",
                "other_config:ipv6_prefix=\"fd00:10::\"",
                "--", "lsp-add", "ls-int", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int",
                "--", "lsp-add", "ls-int", "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 10.0.0.2 fd00:10::2",
                "--", "lsp-add", "ls-int", "web2", "--", "lsp-set-addresses", "web2", "00:00:00:00:02:02 10.0.0.3 fd00:10::3");
        sbctl.addChassis("hv1", "127.0.0.1");
        central.sync();
        sbctl.run("lsp-bind", "web1", "hv1", "--", "lsp-bind", "web2", "hv1");
        nb = OvsdbClient.builder().remotes(central.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        sb = OvsdbClient.builder().remotes(central.southbound().remote()).database("OVN_Southbound")
                .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
        engine = LoadBalancerEngine.builder(nb).southbound(sb).build();
        engine.addListener(new EngineListener() {
            @Override
            public void onBackendHealth(BackendHealthChange change) {
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

    private static LoadBalancerSpec web(String owner, String vip, HealthCheck hc, String... backends) {
        return LoadBalancerSpec.builder(owner).routers("lr0").switches("ls-int")
                .vip(VipSpec.tcp(vip, backends).withHealthCheck(hc)).healthCheckSources(SOURCES).build();
    }

    @Test
    void ipv4ServiceMonitorsStatusAndFlowsFollowTheMonitor() throws Exception {
        String owner = "v4";
        ApplyResult r = engine.apply(owner, List.of(web(owner, "172.16.0.100:80", HealthCheck.DEFAULTS.withInterval(7),
                "10.0.0.2:80", "10.0.0.3:80"))).get(30, TimeUnit.SECONDS);
        assertThat(r.statuses().get(owner).state()).as(r.statuses().get(owner).reasons().toString()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").trim())
                .isEqualTo("10.0.0.2=web1:10.0.0.254 10.0.0.3=web2:10.0.0.254");
        assertThat(nbctl.run("--bare", "--columns=vip,options", "list", "load_balancer_health_check"))
                .contains("172.16.0.100:80").contains("interval=7");
        central.sync();
        List<String> monitors = lines(sbctl.run("--bare", "--columns=ip,port,logical_port,src_ip", "--format=csv",
                "--no-headings", "list", "service_monitor"));
        assertThat(monitors).containsExactlyInAnyOrder("10.0.0.2,80,web1,10.0.0.254", "10.0.0.3,80,web2,10.0.0.254");
        eventually(() -> health(owner).equals(Map.of("10.0.0.2:80", BackendHealth.UNKNOWN, "10.0.0.3:80", BackendHealth.UNKNOWN)));
        assertThat(lbFlows("172.16.0.100")).anyMatch(f -> f.contains("10.0.0.2:80") && f.contains("10.0.0.3:80"));

        // northd forces a monitor of a port that is not up offline; an ovn-controller would set up=true.
        for (String p : List.of("web1", "web2")) {
            sbctl.run("set", "port_binding", uuid("port_binding", "logical_port=" + p), "up=true");
        }
        sbctl.run("set", "service_monitor", uuid("service_monitor", "logical_port=web2"), "status=online");
        sbctl.run("set", "service_monitor", uuid("service_monitor", "logical_port=web1"), "status=offline");
        long t0 = System.nanoTime();
        eventually(() -> health(owner).equals(Map.of("10.0.0.2:80", BackendHealth.OFFLINE, "10.0.0.3:80", BackendHealth.ONLINE)));
        long millis = (System.nanoTime() - t0) / 1_000_000;
        LoggerFactory.getLogger(HealthCheckIT.class).info("Service_Monitor offline seen in the spec's status after {} ms", millis);
        assertThat(millis).as("offline seen in status within a second").isLessThan(1000);
        // Listeners run off the engine thread, after the status is published: the event follows shortly.
        BackendHealthChange offline = new BackendHealthChange(owner, owner, "10.0.0.2:80", BackendHealth.UNKNOWN, BackendHealth.OFFLINE);
        eventually(() -> changes.contains(offline));
        assertThat(changes).contains(offline);
        central.sync();
        List<String> flows = lbFlows("172.16.0.100");
        assertThat(flows).isNotEmpty().allMatch(f -> !f.contains("10.0.0.2:80")).anyMatch(f -> f.contains("10.0.0.3:80"));

        // Removing the health check removes the row and the mappings.
        engine.apply(owner, List.of(LoadBalancerSpec.builder(owner).routers("lr0").switches("ls-int")
                .tcp("172.16.0.100:80", "10.0.0.2:80", "10.0.0.3:80").build())).get(30, TimeUnit.SECONDS);
        assertThat(nbctl.run("--bare", "--columns=_uuid", "list", "load_balancer_health_check").trim()).isEmpty();
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").trim()).isEmpty();
        eventually(() -> engine.status(owner).get(owner).backendHealth().isEmpty());
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void ipv6BackendsAreMappedWithBracketsAndMonitored() throws Exception {
        String owner = "v6";
        ApplyResult r = engine.apply(owner, List.of(web(owner, "[fd00:172::100]:80", HealthCheck.DEFAULTS,
                "[fd00:10::2]:80", "[fd00:10::3]:80"))).get(30, TimeUnit.SECONDS);
        assertThat(r.statuses().get(owner).state()).as(r.statuses().get(owner).reasons().toString()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").trim())
                .isEqualTo("[fd00:10::2]=web1:[fd00:10::fe] [fd00:10::3]=web2:[fd00:10::fe]");
        central.sync();
        assertThat(lines(sbctl.run("--bare", "--columns=ip,port,logical_port,src_ip", "--format=csv", "--no-headings",
                "list", "service_monitor"))).containsExactlyInAnyOrder("fd00:10::2,80,web1,fd00:10::fe", "fd00:10::3,80,web2,fd00:10::fe");
        eventually(() -> health(owner).keySet().equals(java.util.Set.of("[fd00:10::2]:80", "[fd00:10::3]:80")));
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void backendWithoutPortWaitsThenIsMappedWhenThePortAppears() throws Exception {
        String owner = "wait";
        ApplyResult r = engine.apply(owner, List.of(web(owner, "172.16.0.101:80", HealthCheck.DEFAULTS,
                "10.0.0.2:80", "10.0.0.9:80"))).get(30, TimeUnit.SECONDS);
        SpecStatus s = r.statuses().get(owner);
        assertThat(s.state()).isEqualTo(SpecStatus.State.WAITING);
        assertThat(s.reason()).contains("backend 10.0.0.9").contains("no logical switch port has address 10.0.0.9")
                .contains("OVN sends no traffic");
        // The other backend is mapped meanwhile.
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").trim())
                .isEqualTo("10.0.0.2=web1:10.0.0.254");
        nbctl.run("lsp-add", "ls-int", "web9", "--", "lsp-set-addresses", "web9", "00:00:00:00:02:09 10.0.0.9");
        eventually(() -> engine.status(owner).get(owner).state() == SpecStatus.State.APPLIED);
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").trim())
                .isEqualTo("10.0.0.2=web1:10.0.0.254 10.0.0.9=web9:10.0.0.254");
        // Drift: someone drops a mapping and edits the health check; both are repaired.
        nbctl.run("remove", "load_balancer", owner + "-tcp", "ip_port_mappings", "10.0.0.9");
        nbctl.run("set", "load_balancer_health_check", nbctl.run("--bare", "--columns=_uuid", "list", "load_balancer_health_check").trim(),
                "options:interval=99");
        eventually(() -> nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + owner + "-tcp").contains("web9")
                && !nbctl.run("--bare", "--columns=options", "list", "load_balancer_health_check").contains("99"));
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
        nbctl.run("lsp-del", "web9");
    }

    @Test
    void badSourcesAreInvalidWithClearMessagesAndNothingIsWritten() throws Exception {
        String owner = "bad";
        LoadBalancerSpec outside = LoadBalancerSpec.builder("outside").switches("ls-int")
                .vip(VipSpec.tcp("172.16.0.102:80", "10.0.0.2:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("192.168.9.9"))).build();
        LoadBalancerSpec taken = LoadBalancerSpec.builder("taken").switches("ls-int")
                .vip(VipSpec.tcp("172.16.0.103:80", "10.0.0.2:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("10.0.0.3"))).build();
        LoadBalancerSpec twice = LoadBalancerSpec.builder("twice").switches("ls-int").healthCheckSources(SOURCES)
                .vip(VipSpec.tcp("172.16.0.106:80", "10.0.0.2:80").withHealthCheck(HealthCheck.DEFAULTS))
                .vip(VipSpec.tcp("172.16.0.106:81", "10.0.0.2:81").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("10.0.0.253"))).buildUnchecked();
        ApplyResult r = engine.apply(owner, List.of(outside, taken, twice)).get(30, TimeUnit.SECONDS);
        assertThat(r.statuses().values()).allMatch(st -> st.state() == SpecStatus.State.INVALID);
        assertThat(r.statuses().get("outside").reason())
                .isEqualTo("health-check source 192.168.9.9 for backend 10.0.0.2 of 172.16.0.102:80 is outside the subnets of switch ls-int"
                        + " (10.0.0.0/24)");
        assertThat(r.statuses().get("taken").reason()).contains("source 10.0.0.3").contains("is the address of port web2 on switch ls-int");
        assertThat(r.statuses().get("twice").reason()).contains("backend 10.0.0.2 is checked by 172.16.0.106:80")
                .contains("ip_port_mappings");
        assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "external_ids:ovnj.owner=bad").trim()).isEmpty();
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aRouterPortsAddressIsAHealthCheckSourceFromOvn2603OnForALoadBalancerOnItsRouter() throws Exception {
        LoadBalancerSpec router = LoadBalancerSpec.builder("router").routers("lr0").switches("ls-int")
                .vip(VipSpec.tcp("172.16.0.104:80", "10.0.0.2:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("10.0.0.1"))).build();
        // The same source for a load balancer not on lr0: northd would answer ARP for lr0's address on the switch itself.
        LoadBalancerSpec switchOnly = LoadBalancerSpec.builder("switch-only").switches("ls-int")
                .vip(VipSpec.tcp("172.16.0.109:80", "10.0.0.2:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("10.0.0.1"))).build();
        Map<String, SpecStatus> st = engine.apply("lrp-source", List.of(router, switchOnly)).get(30, TimeUnit.SECONDS).statuses();
        if (OvnRelease.current().ovnAtLeast(26, 3)) {
            assertThat(st.get("router").state()).as(st.get("router").reasons().toString()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=router-tcp").trim())
                    .isEqualTo("10.0.0.2=web1:10.0.0.1");
            central.sync();
            // ovn-northd accepts it: the service monitor probes from the router port's address and MAC.
            eventually(() -> sbctl.run("--bare", "--columns=src_ip,src_mac", "find", "service_monitor", "ip=10.0.0.2", "port=80")
                    .contains("10.0.0.1") && sbctl.run("--bare", "--columns=src_mac", "find", "service_monitor", "ip=10.0.0.2", "port=80")
                    .contains("00:00:00:00:01:02"));
            assertThat(st.get("switch-only").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(st.get("switch-only").reason()).isEqualTo("health-check source 10.0.0.1 for backend 10.0.0.2 of 172.16.0.109:80 is"
                    + " the address of router port lrp-int on switch ls-int, whose router this load balancer is not on; OVN probes from a"
                    + " router port's address only for a load balancer on that router: add its router to routers, or use an unused"
                    + " address of the subnet");
        } else {
            for (SpecStatus s : st.values()) {
                assertThat(s.state()).isEqualTo(SpecStatus.State.INVALID);
                assertThat(s.reason()).contains("source 10.0.0.1").contains("router port lrp-int")
                        .contains("needs OVN 26.03 or later; the connected OVN is " + OvnRelease.current().ovnVersion().substring(0, 5));
            }
            assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "name=router-tcp").trim()).isEmpty();
        }
        assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "name=switch-only-tcp").trim()).isEmpty();
        engine.apply("lrp-source", List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void portEventsReachOnlyTheSpecsTheyConcern() throws Exception {
        String owner = "events";
        engine.apply(owner, List.of(web(owner, "172.16.0.107:80", HealthCheck.DEFAULTS, "10.0.0.2:80"))).get(30, TimeUnit.SECONDS);
        long plans = engine.metrics().specPlans();
        nbctl.run("lsp-add", "ls-int", "other", "--", "lsp-set-addresses", "other", "00:00:00:00:02:77 10.0.0.77");
        central.sync();
        Thread.sleep(300);
        assertThat(engine.metrics().specPlans()).as("a port no checked spec uses re-plans nothing").isEqualTo(plans);

        // A port taking the health-check source address makes the spec INVALID; freeing it heals it.
        nbctl.run("lsp-add", "ls-int", "thief", "--", "lsp-set-addresses", "thief", "00:00:00:00:02:fe 10.0.0.254");
        eventually(() -> engine.status(owner).get(owner).state() == SpecStatus.State.INVALID);
        assertThat(engine.status(owner).get(owner).reason()).contains("is the address of port thief");
        nbctl.run("lsp-del", "thief");
        eventually(() -> engine.status(owner).get(owner).state() == SpecStatus.State.APPLIED);
        nbctl.run("lsp-del", "other");
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void healthTurnsUnknownWhenTheSouthboundConnectionIsGone() throws Exception {
        String owner = "sbgone";
        OvsdbClient sb2 = OvsdbClient.builder().remotes(central.southbound().remote()).database("OVN_Southbound")
                .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
        try (LoadBalancerEngine e2 = LoadBalancerEngine.builder(nb).southbound(sb2).build().start()) {
            sb2.startAndWait(WAIT);
            e2.apply(owner, List.of(web(owner, "172.16.0.108:80", HealthCheck.DEFAULTS, "10.0.0.2:80"))).get(30, TimeUnit.SECONDS);
            central.sync();
            sbctl.run("set", "port_binding", uuid("port_binding", "logical_port=web1"), "up=true");
            sbctl.run("set", "service_monitor", uuid("service_monitor", "logical_port=web1"), "status=online");
            eventually(() -> e2.status(owner).get(owner).backendHealth().equals(Map.of("10.0.0.2:80", BackendHealth.ONLINE)));
            sb2.close();
            eventually(() -> e2.status(owner).get(owner).backendHealth().equals(Map.of("10.0.0.2:80", BackendHealth.UNKNOWN)));
            e2.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
        } finally {
            sb2.close();
        }
    }

    private Map<String, BackendHealth> health(String owner) {
        SpecStatus s = engine.status(owner).get(owner);
        return s == null ? Map.of() : s.backendHealth();
    }

    private String uuid(String table, String condition) {
        return sbctl.run("--bare", "--columns=_uuid", "find", table, condition).trim();
    }

    /** Northd's load-balancing flows whose match names the VIP address. */
    private List<String> lbFlows(String vip) {
        List<String> out = new ArrayList<>();
        for (String l : sbctl.run("lflow-list").split("\n")) {
            if (l.contains("ct_lb") && l.contains(vip)) {
                out.add(l.trim());
            }
        }
        return out;
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n")) {
            if (!l.isBlank()) {
                out.add(l.trim().replace("\"", ""));
            }
        }
        return out;
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within " + WAIT);
            }
            Thread.sleep(10);
        }
    }
}
