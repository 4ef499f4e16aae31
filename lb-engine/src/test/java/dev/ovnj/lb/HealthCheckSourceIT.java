package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Health-check sources the engine chooses when a spec gives none, on NB and SB ovsdb-servers with
 * ovn-northd between them: what the engine writes into {@code ip_port_mappings}, that northd makes
 * its {@code Service_Monitor} (and ARP responder) from it, that a port taking the address moves the
 * source, and that a restarted engine keeps it without writing.
 *
 * <p>Topology: switch ls-a (other_config:subnet 10.1.0.0/24 with exclude_ips 10.1.0.253,
 * ipv6_prefix fd00:11::), ports a1 (10.1.0.2, fd00:11::2) and top (10.1.0.254); router lr1 with
 * port lrp-r (00:00:00:00:01:11, 10.2.0.1/24) on switch ls-r (no other_config:subnet), port r1
 * (10.2.0.2); switch ls-bare (no subnet, no router), port x1 (10.3.0.2).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HealthCheckSourceIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private OvnCentral central;
    private Nbctl nbctl;
    private Sbctl sbctl;
    private OvsdbClient nb;
    private OvsdbClient sb;
    private LoadBalancerEngine engine;

    @BeforeAll
    void start() {
        central = OvnCentral.start();
        nbctl = central.nbctl();
        sbctl = central.sbctl();
        nbctl.run("ls-add", "ls-a", "--", "set", "logical_switch", "ls-a", "other_config:subnet=10.1.0.0/24",
                "other_config:exclude_ips=10.1.0.253", "other_config:ipv6_prefix=\"fd00:11::\"",
                "--", "lsp-add", "ls-a", "a1", "--", "lsp-set-addresses", "a1", "00:00:00:00:03:01 10.1.0.2 fd00:11::2",
                "--", "lsp-add", "ls-a", "top", "--", "lsp-set-addresses", "top", "00:00:00:00:03:fe 10.1.0.254");
        nbctl.run("lr-add", "lr1", "--", "lrp-add", "lr1", "lrp-r", "00:00:00:00:01:11", "10.2.0.1/24",
                "--", "ls-add", "ls-r", "--", "lsp-add", "ls-r", "r-lr1", "--", "lsp-set-type", "r-lr1", "router",
                "--", "lsp-set-addresses", "r-lr1", "router", "--", "lsp-set-options", "r-lr1", "router-port=lrp-r",
                "--", "lsp-add", "ls-r", "r1", "--", "lsp-set-addresses", "r1", "00:00:00:00:04:01 10.2.0.2");
        nbctl.run("ls-add", "ls-bare", "--", "lsp-add", "ls-bare", "x1", "--", "lsp-set-addresses", "x1", "00:00:00:00:05:01 10.3.0.2");
        sbctl.addChassis("hv1", "127.0.0.1");
        central.sync();
        sbctl.run("lsp-bind", "a1", "hv1", "--", "lsp-bind", "r1", "hv1");
        nb = northbound();
        sb = OvsdbClient.builder().remotes(central.southbound().remote()).database("OVN_Southbound")
                .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
        engine = LoadBalancerEngine.builder(nb).southbound(sb).build().start();
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

    private static LoadBalancerSpec onSwitchA(String name) {
        return LoadBalancerSpec.builder(name).switches("ls-a")
                .vip(VipSpec.tcp("172.16.1.100:80", "10.1.0.2:80").withHealthCheck(HealthCheck.DEFAULTS))
                .vip(VipSpec.tcp("[fd00:172::100]:80", "[fd00:11::2]:80").withHealthCheck(HealthCheck.DEFAULTS))
                .build();
    }

    @Test
    void aSwitchLoadBalancerProbesFromTheHighestFreeAddressWhichMovesWhenAPortTakesItAndSurvivesARestart() throws Exception {
        String owner = "sw";
        // An engine of its own, to be restarted (the class's engine would keep the owner's lock).
        OvsdbClient nb1 = northbound();
        try (LoadBalancerEngine first = LoadBalancerEngine.builder(nb1).build().start()) {
            nb1.startAndWait(WAIT);
            SpecStatus st = first.apply(owner, List.of(onSwitchA(owner))).get(30, TimeUnit.SECONDS).statuses().get(owner);
            assertThat(st.state()).as(st.toString()).isEqualTo(SpecStatus.State.APPLIED);
            // .255 is the broadcast address, .254 port top's, .253 excluded from IPAM: .252 is the highest free one.
            assertThat(mappings(owner)).isEqualTo("10.1.0.2=a1:10.1.0.252 [fd00:11::2]=a1:[fd00:11::ffff:ffff:ffff:ffff]");
            assertThat(st.healthCheckSources()).isEqualTo(Map.of(
                    "10.1.0.2:80", new HealthCheckSource("10.1.0.252", true),
                    "[fd00:11::2]:80", new HealthCheckSource("fd00:11::ffff:ffff:ffff:ffff", true)));
            central.sync();
            // northd takes it: the monitors probe from it, and the switch answers ARP for it with the monitor's MAC.
            assertThat(sbctl.run("--bare", "--columns=src_ip", "find", "service_monitor", "ip=10.1.0.2").trim()).isEqualTo("10.1.0.252");
            assertThat(sbctl.run("--bare", "--columns=src_ip", "find", "service_monitor", "ip=\"fd00:11::2\"").trim())
                    .isEqualTo("fd00:11::ffff:ffff:ffff:ffff");
            assertThat(sbctl.run("lflow-list", "ls-a")).contains("arp.tpa == 10.1.0.252");

            // A port takes the address: the engine moves the source to the next free one, without being asked.
            nbctl.run("lsp-add", "ls-a", "thief", "--", "lsp-set-addresses", "thief", "00:00:00:00:03:fc 10.1.0.252");
            Await.until(WAIT, "source moved", () -> mappings(owner).startsWith("10.1.0.2=a1:10.1.0.251 "));
            Await.until(WAIT, "status shows the new source", () -> new HealthCheckSource("10.1.0.251", true)
                    .equals(first.status(owner).get(owner).healthCheckSources().get("10.1.0.2:80")));
            assertThat(first.status(owner).get(owner).state()).isEqualTo(SpecStatus.State.APPLIED);
            central.sync();
            assertThat(sbctl.run("--bare", "--columns=src_ip", "find", "service_monitor", "ip=10.1.0.2").trim()).isEqualTo("10.1.0.251");

            // The port goes: .252 is free again, but the source stays where it is (no move back and forth).
            nbctl.run("lsp-del", "thief");
            central.sync();
            assertThat(mappings(owner)).startsWith("10.1.0.2=a1:10.1.0.251 ");
        } finally {
            nb1.close();
        }

        // A restarted engine (a new client and engine) finds the same sources and writes nothing.
        OvsdbClient nb2 = northbound();
        try (LoadBalancerEngine restarted = LoadBalancerEngine.builder(nb2).build().start()) {
            nb2.startAndWait(WAIT);
            SpecStatus again = restarted.apply(owner, List.of(onSwitchA(owner))).get(30, TimeUnit.SECONDS).statuses().get(owner);
            assertThat(again.state()).as(again.toString()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(restarted.metrics().transactions()).as("a restart moves no source").isZero();
            assertThat(again.healthCheckSources().get("10.1.0.2:80")).isEqualTo(new HealthCheckSource("10.1.0.251", true));
            restarted.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
        } finally {
            nb2.close();
        }
    }

    @Test
    void aGivenSourceWins() throws Exception {
        String owner = "given";
        LoadBalancerSpec spec = LoadBalancerSpec.builder(owner).switches("ls-a").healthCheckSources(Map.of("ls-a", List.of("fd00:11::fe")))
                .vip(VipSpec.tcp("172.16.1.101:80", "10.1.0.2:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("10.1.0.200")))
                .vip(VipSpec.tcp("[fd00:172::101]:80", "[fd00:11::2]:80").withHealthCheck(HealthCheck.DEFAULTS))
                .build();
        SpecStatus st = engine.apply(owner, List.of(spec)).get(30, TimeUnit.SECONDS).statuses().get(owner);
        assertThat(st.state()).as(st.toString()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(mappings(owner)).isEqualTo("10.1.0.2=a1:10.1.0.200 [fd00:11::2]=a1:[fd00:11::fe]");
        assertThat(st.healthCheckSources()).isEqualTo(Map.of("10.1.0.2:80", new HealthCheckSource("10.1.0.200", false),
                "[fd00:11::2]:80", new HealthCheckSource("fd00:11::fe", false)));
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aRouterLoadBalancerProbesFromTheRouterPortFromOvn2603OnAndFromAFreeAddressBefore() throws Exception {
        String owner = "rt";
        LoadBalancerSpec spec = LoadBalancerSpec.builder(owner).routers("lr1")
                .vip(VipSpec.tcp("172.16.2.100:80", "10.2.0.2:80").withHealthCheck(HealthCheck.DEFAULTS)).build();
        SpecStatus st = engine.apply(owner, List.of(spec)).get(30, TimeUnit.SECONDS).statuses().get(owner);
        assertThat(st.state()).as(st.toString()).isEqualTo(SpecStatus.State.APPLIED);
        central.sync();
        String monitor = sbctl.run("--bare", "--columns=src_ip,src_mac", "--format=csv", "--no-headings", "find", "service_monitor",
                "ip=10.2.0.2").trim().replace("\"", "");
        if (OvnRelease.current().ovnAtLeast(26, 3)) {
            // ovn-northd probes from the router port itself: its address and its MAC.
            assertThat(mappings(owner)).isEqualTo("10.2.0.2=r1:10.2.0.1");
            assertThat(monitor).isEqualTo("10.2.0.1,00:00:00:00:01:11");
        } else {
            // Before 26.03 a router port's address is no source: the highest free address of its network.
            String svcMac = nbctl.run("get", "nb_global", ".", "options:svc_monitor_mac").trim().replace("\"", "");
            assertThat(mappings(owner)).isEqualTo("10.2.0.2=r1:10.2.0.254");
            assertThat(monitor).isEqualTo("10.2.0.254," + svcMac);
        }
        assertThat(st.healthCheckSources().get("10.2.0.2:80").chosen()).isTrue();
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aSwitchWithoutANetworkOfTheFamilyOrAFreeAddressIsInvalidNamingItUntilOneIsFree() throws Exception {
        String owner = "bare";
        LoadBalancerSpec spec = LoadBalancerSpec.builder(owner).switches("ls-bare")
                .vip(VipSpec.tcp("172.16.3.100:80", "10.3.0.2:80").withHealthCheck(HealthCheck.DEFAULTS)).build();
        SpecStatus st = engine.apply(owner, List.of(spec)).get(30, TimeUnit.SECONDS).statuses().get(owner);
        assertThat(st.state()).isEqualTo(SpecStatus.State.INVALID);
        assertThat(st.reason()).isEqualTo("backend 10.3.0.2 of 172.16.3.100:80 is on switch ls-bare, which has no IPv4 subnet"
                + " (other_config:subnet) and no router port with an IPv4 network, so no health-check source can be chosen: give the"
                + " switch one, or set healthCheck.sourceIp or healthCheckSources.ls-bare");
        assertThat(st.healthCheckSources()).isEmpty();
        assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "external_ids:ovnj.owner=" + owner).trim()).isEmpty();

        // The switch gets a subnet whose two addresses ports hold: still nothing to choose.
        nbctl.run("lsp-add", "ls-bare", "x2", "--", "lsp-set-addresses", "x2", "00:00:00:00:05:02 10.3.0.1");
        nbctl.run("set", "logical_switch", "ls-bare", "other_config:subnet=10.3.0.0/30");
        Await.until(WAIT, "full", () -> engine.status(owner).get(owner).reason().startsWith("backend 10.3.0.2 of 172.16.3.100:80 is on"
                + " switch ls-bare, whose subnet 10.3.0.0/30 has no address left that no port uses"));
        // A port leaves (its address is no backend's, no source's): the switch's ports changed, so the spec is judged again.
        nbctl.run("lsp-del", "x2");
        Await.until(WAIT, "applied", () -> engine.status(owner).get(owner).state() == SpecStatus.State.APPLIED);
        assertThat(mappings(owner)).isEqualTo("10.3.0.2=x1:10.3.0.1");
        engine.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
    }

    private OvsdbClient northbound() {
        return OvsdbClient.builder().remotes(central.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
    }

    private String mappings(String spec) {
        return nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=" + spec + "-tcp").trim();
    }
}
