package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.diagnosis.OvnTrace;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A spec's source ranges, enforced by the router policies the engine owns, traced with the
 * release's ovn-northd and ovn-trace from the router's external port: a client inside the ranges
 * is DNATed to a backend and delivered to the backend's logical port, a client outside is DNATed
 * and then dropped by the policy before it leaves the router, for IPv4 and IPv6. The policies are
 * repaired when deleted or changed behind the engine's back, go with the ranges and with the
 * spec, and a policy of someone else on the same router is never touched.
 *
 * <p>Topology: router lr0 with gateway port lrp-ext (172.16.0.1/24, fd00:172::1/64, chassis gw1)
 * and lrp-int (10.0.0.1/24, fd00:10::1/64) to switch ls-int with web1 (10.0.0.2, fd00:10::2) and
 * web2 (10.0.0.3, fd00:10::3), all bound to gw1. No ovn-controller runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SourceRangesIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String FROM_OUTSIDE = "inport == \"lrp-ext\" && eth.src == 02:00:00:00:00:01"
            + " && eth.dst == 00:00:00:00:01:01 && ip.ttl == 64 && tcp && tcp.dst == 80";
    private static final String FOREIGN = "ip4.src == 192.0.2.99";

    private OvnCentral central;
    private Nbctl nbctl;
    private OvsdbClient nb;
    private LoadBalancerEngine engine;
    private OvnTrace trace;

    @BeforeAll
    void start() {
        central = OvnCentral.start();
        nbctl = central.nbctl();
        Sbctl sbctl = central.sbctl();
        nbctl.run("lr-add", "lr0",
                "--", "lrp-add", "lr0", "lrp-ext", "00:00:00:00:01:01", "172.16.0.1/24", "fd00:172::1/64",
                "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24", "fd00:10::1/64",
                "--", "lrp-set-gateway-chassis", "lrp-ext", "gw1", "10");
        nbctl.run("ls-add", "ls-int",
                "--", "lsp-add", "ls-int", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int",
                "--", "lsp-add", "ls-int", "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 10.0.0.2 fd00:10::2",
                "--", "lsp-add", "ls-int", "web2", "--", "lsp-set-addresses", "web2", "00:00:00:00:02:02 10.0.0.3 fd00:10::3");
        // Someone else's policy on the same router: never touched.
        nbctl.run("lr-policy-add", "lr0", "100", FOREIGN, "allow");
        sbctl.run("chassis-add", "gw1", "geneve", "127.0.0.1");
        central.sync();
        sbctl.run("lsp-bind", "cr-lrp-ext", "gw1", "--", "lsp-bind", "web1", "gw1", "--", "lsp-bind", "web2", "gw1");
        nb = OvsdbClient.builder().remotes(central.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        engine = LoadBalancerEngine.builder(nb).build().start();
        nb.startAndWait(WAIT);
        trace = OvnTrace.of(central.southbound().remote()).withCommand(OvnRelease.current().command("ovn-trace"));
    }

    @AfterAll
    void stop() {
        if (engine != null) {
            engine.close();
        }
        if (nb != null) {
            nb.close();
        }
        if (central != null) {
            central.close();
        }
    }

    private static LoadBalancerSpec.Builder web(String name, String v4, String v6) {
        return LoadBalancerSpec.builder(name).routers("lr0")
                .tcp(v4 + ":80", "10.0.0.2:8080", "10.0.0.3:8080")
                .tcp("[" + v6 + "]:80", "[fd00:10::2]:8080", "[fd00:10::3]:8080");
    }

    @Test
    void insideTheRangesReachABackendOutsideIsDroppedIpv4AndIpv6() throws Exception {
        String owner = "ranges";
        LoadBalancerSpec spec = web("web", "172.16.0.100", "fd00:172::100")
                .sourceRanges(List.of("198.51.100.0/24", "203.0.113.7/32", "2001:db8:1::/48")).build();
        assertApplied(engine.upsert(owner, spec).get(30, TimeUnit.SECONDS), "web");
        assertThat(ownedPolicies(owner)).hasSize(4);
        central.sync();

        assertReachesBackend(v4("198.51.100.9", "172.16.0.100"));
        assertReachesBackend(v4("203.0.113.7", "172.16.0.100"));
        assertDropped(v4("192.0.2.1", "172.16.0.100"));
        assertDropped(v4("203.0.113.8", "172.16.0.100"));
        assertReachesBackend(v6("2001:db8:1::5", "fd00:172::100"));
        assertDropped(v6("2001:db8:2::5", "fd00:172::100"));

        // The spec without ranges: the policies go, every client reaches a backend.
        assertApplied(engine.upsert(owner, web("web", "172.16.0.100", "fd00:172::100").build()).get(30, TimeUnit.SECONDS), "web");
        assertThat(ownedPolicies(owner)).isEmpty();
        central.sync();
        assertReachesBackend(v4("192.0.2.1", "172.16.0.100"));
        assertReachesBackend(v6("2001:db8:2::5", "fd00:172::100"));
        assertThat(policyMatches()).contains(FOREIGN);
        engine.remove(owner, "web").get(30, TimeUnit.SECONDS);
    }

    @Test
    void aDeletedOrChangedPolicyIsRepairedAndTheSpecsRemovalTakesItsPolicies() throws Exception {
        String owner = "drift";
        LoadBalancerSpec spec = web("api", "172.16.0.101", "fd00:172::101")
                .sourceRanges(List.of("198.51.100.0/24")).build();
        assertApplied(engine.upsert(owner, spec).get(30, TimeUnit.SECONDS), "api");
        // IPv4 allow and drop; IPv6 has no range, so only its drop: no IPv6 client is allowed.
        assertThat(ownedPolicies(owner)).hasSize(3);
        central.sync();
        assertDropped(v6("2001:db8:1::5", "fd00:172::101"));

        String drop = policyOf(owner, "drop-ipv4");
        nbctl.run("lr-policy-del", "lr0", drop);
        Await.until(WAIT, "the deleted drop policy is back", () -> !policyOf(owner, "drop-ipv4").isEmpty()
                && !policyOf(owner, "drop-ipv4").equals(drop));
        String allow = policyOf(owner, "allow-ipv4");
        nbctl.run("set", "logical_router_policy", allow, "match=\"ip4\"");
        Await.until(WAIT, "the changed allow policy is restored", () -> nbctl.run("get", "logical_router_policy", allow, "match")
                .contains("198.51.100.0/24"));
        Await.until(WAIT, "api applied after the repairs", () -> engine.status(owner).get("api").state() == SpecStatus.State.APPLIED);
        assertThat(ownedPolicies(owner)).hasSize(3);
        central.sync();
        assertReachesBackend(v4("198.51.100.9", "172.16.0.101"));
        assertDropped(v4("192.0.2.1", "172.16.0.101"));

        engine.remove(owner, "api").get(30, TimeUnit.SECONDS);
        assertThat(ownedPolicies(owner)).isEmpty();
        assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "name=api-tcp").trim()).isEmpty();
        assertThat(policyMatches()).contains(FOREIGN);
    }

    @Test
    void policiesLeftWithoutTheirLoadBalancerGoWhenTheSpecIsNotDeclared() throws Exception {
        String owner = "left";
        try (OvsdbClient client = OvsdbClient.builder().remotes(central.northbound().remote())
                .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine first = LoadBalancerEngine.builder(client).build().start()) {
            client.startAndWait(WAIT);
            assertApplied(first.upsert(owner, web("db", "172.16.0.102", "fd00:172::102").sourceRanges(List.of("198.51.100.0/24"))
                    .build()).get(30, TimeUnit.SECONDS), "db");
        }
        // While no engine runs, someone deletes the load balancers and leaves the policies.
        nbctl.run("lb-del", "db-tcp");
        assertThat(ownedPolicies(owner)).hasSize(3);
        try (OvsdbClient client = OvsdbClient.builder().remotes(central.northbound().remote())
                .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine second = LoadBalancerEngine.builder(client).build().start()) {
            client.startAndWait(WAIT);
            second.apply(owner, List.of()).get(30, TimeUnit.SECONDS);
            Await.until(WAIT, "the left policies are deleted", () -> ownedPolicies(owner).isEmpty());
        }
        assertThat(policyMatches()).contains(FOREIGN);
    }

    private void assertReachesBackend(String flow) {
        String out = trace.trace("lr0", flow);
        assertThat(out).as(flow + "\n" + out).containsPattern("ct_lb(_mark)?\\(backends=")
                .containsPattern("output to \"web[12]\"");
    }

    private void assertDropped(String flow) {
        String out = trace.trace("lr0", flow);
        assertThat(out).as(flow + "\n" + out).containsPattern("ct_lb(_mark)?\\(backends=").contains("drop;")
                .doesNotContainPattern("output to \"web[12]\"");
    }

    private static String v4(String src, String vip) {
        return FROM_OUTSIDE + " && ip4.src == " + src + " && ip4.dst == " + vip;
    }

    private static String v6(String src, String vip) {
        return FROM_OUTSIDE + " && ip6.src == " + src + " && ip6.dst == " + vip;
    }

    private static void assertApplied(ApplyResult r, String spec) {
        SpecStatus s = r.statuses().get(spec);
        assertThat(s.state()).as(s.reasons().toString()).isEqualTo(SpecStatus.State.APPLIED);
    }

    /** The uuids of the owner's policies, checked to be in lr0's policies (cross-checked with ovn-nbctl). */
    private List<String> ownedPolicies(String owner) {
        List<String> rows = lines(nbctl.run("--bare", "--columns=_uuid", "find", "logical_router_policy",
                "external_ids:\"ovnj.owner\"=" + owner));
        String inRouter = nbctl.run("--bare", "--columns=policies", "list", "logical_router", "lr0");
        rows.forEach(r -> assertThat(inRouter).contains(r));
        return rows;
    }

    private String policyOf(String owner, String key) {
        return nbctl.run("--bare", "--columns=_uuid", "find", "logical_router_policy", "external_ids:\"ovnj.owner\"=" + owner,
                "external_ids:\"ovnj.policy\"=" + key).trim();
    }

    private String policyMatches() {
        return nbctl.run("lr-policy-list", "lr0");
    }

    private static List<String> lines(String text) {
        return Arrays.stream(text.split("\\s+")).filter(s -> !s.isBlank()).toList();
    }
}
