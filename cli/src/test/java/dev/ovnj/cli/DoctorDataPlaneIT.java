package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.Host;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.Reply;
import dev.ovnj.testkit.Transport;
import dev.ovnj.testkit.junit.ChassisExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ovnj doctor --from} against a real data plane: for each case, doctor's verdict per backend
 * (delivered or not) must be what real TCP requests from that client show (answered by that
 * backend or not). The seeds' topology: project router r1 (gateway port r1-ext 172.30.0.1/24 on the
 * external switch ext, gateway chassis = the chassis; r1-int 10.0.0.1/24 to switch sw1), backends
 * be1 10.0.0.11 and be2 10.0.0.12 serving port 8080 with their names, clients on ext: inside
 * 172.30.0.100 and outside 172.30.0.200 (of the source range's test).
 */
class DoctorDataPlaneIT {
    private static final Duration TIMEOUT = Duration.ofMillis(700);
    /** Requests per check: with two backends chosen at random, 16 miss one of them with probability 2^-15. */
    private static final int REQUESTS = 16;
    private static final String INSIDE = "172.30.0.100";
    private static final String OUTSIDE = "172.30.0.200";

    @RegisterExtension
    static final ChassisExtension DATA_PLANE = new ChassisExtension();

    private static Chassis chassis;
    private static Host inside;
    private static Host outside;
    private static Host be1;
    private static Host be2;
    private static String traceCommand;

    @BeforeAll
    static void seedsTopology() {
        chassis = DATA_PLANE.chassis();
        chassis.nbctl().run("ls-add", "ext", "--", "lsp-add", "ext", "ext-r1", "--", "lsp-set-type", "ext-r1", "router",
                "--", "lsp-set-addresses", "ext-r1", "router", "--", "lsp-set-options", "ext-r1", "router-port=r1-ext",
                "--", "lsp-add", "ext", "in1", "--", "lsp-set-addresses", "in1", "0a:00:00:00:03:64 " + INSIDE,
                "--", "lsp-add", "ext", "out1", "--", "lsp-set-addresses", "out1", "0a:00:00:00:03:c8 " + OUTSIDE,
                "--", "lr-add", "r1", "--", "lrp-add", "r1", "r1-ext", "02:00:00:00:00:01", "172.30.0.1/24",
                "--", "lrp-set-gateway-chassis", "r1-ext", chassis.name(), "10",
                "--", "lrp-add", "r1", "r1-int", "02:00:00:00:00:02", "10.0.0.1/24",
                "--", "ls-add", "sw1", "--", "lsp-add", "sw1", "sw1-r1", "--", "lsp-set-type", "sw1-r1", "router",
                "--", "lsp-set-addresses", "sw1-r1", "router", "--", "lsp-set-options", "sw1-r1", "router-port=r1-int",
                "--", "lsp-add", "sw1", "be1", "--", "lsp-set-addresses", "be1", "0a:00:00:00:02:0b 10.0.0.11",
                "--", "lsp-add", "sw1", "be2", "--", "lsp-set-addresses", "be2", "0a:00:00:00:02:0c 10.0.0.12");
        be1 = chassis.host("be1").port("be1").mac("0a:00:00:00:02:0b").ipv4("10.0.0.11/24", "10.0.0.1").start();
        be1.serve(8080);
        be2 = chassis.host("be2").port("be2").mac("0a:00:00:00:02:0c").ipv4("10.0.0.12/24", "10.0.0.1").start();
        be2.serve(8080);
        inside = chassis.host("inside").port("in1").mac("0a:00:00:00:03:64").ipv4(INSIDE + "/24", "172.30.0.1").start();
        outside = chassis.host("outside").port("out1").mac("0a:00:00:00:03:c8").ipv4(OUTSIDE + "/24", "172.30.0.1").start();
        traceCommand = String.join(" ", OvnRelease.current().command("ovn-trace"));
    }

    /** The backends real requests from the client reached (by the name their servers answer with). */
    private static Set<String> reached(Host client, String vip) {
        String[] hostPort = vip.split(":");
        Set<String> answeredBy = new TreeSet<>();
        for (int i = 0; i < REQUESTS; i++) {
            Reply r = client.request(Transport.TCP, hostPort[0], Integer.parseInt(hostPort[1]), TIMEOUT);
            r.server().ifPresent(answeredBy::add);
        }
        return answeredBy;
    }

    /** Doctor's verdict per backend: backend to cause, and the whole report for the failure message. */
    private static Map<String, String> verdicts(String client, String vip) throws Exception {
        OvnjProcess.Result r = OvnjProcess.run("doctor", "--db", chassis.northbound().remote(), "--sb", chassis.southbound().remote(),
                "--trace-command", traceCommand, "--from", client, "-o", "json", vip);
        assertThat(r.exit()).as(r.toString()).isIn(0, 1);
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode b : new ObjectMapper().readTree(r.out()).get("backends")) {
            out.put(b.get("backend").isNull() ? "" : b.get("backend").asText(), b.get("cause").asText());
        }
        return out;
    }

    private static Host client(String address) {
        return address.equals(INSIDE) ? inside : outside;
    }

    /** Doctor's delivered backends are exactly those real requests reached (names be1, be2 for 10.0.0.11, .12). */
    private static void agree(String client, String vip, Set<String> expectedReached) throws Exception {
        Map<String, String> v = verdicts(client, vip);
        Set<String> delivered = new TreeSet<>();
        v.forEach((backend, cause) -> {
            if (cause.equals("delivered")) {
                delivered.add(backend.startsWith("10.0.0.11") ? "be1" : "be2");
            }
        });
        Set<String> reached = reached(client(client), vip);
        System.out.println("doctor --from " + client + " " + vip + ": " + v + "; real requests reached " + reached);
        assertThat(reached).as("real requests from %s to %s", client, vip).isEqualTo(expectedReached);
        assertThat(delivered).as("doctor's delivered backends from %s to %s (%s)", client, vip, v).isEqualTo(reached);
    }

    private static void sync() {
        chassis.nbctl().run("--wait=hv", "sync");
    }

    @Test
    void aHealthyVipFromAClientOnTheExternalSwitch() throws Exception {
        chassis.nbctl().run("lb-add", "web", "172.30.0.10:80", "10.0.0.11:8080,10.0.0.12:8080", "tcp",
                "--", "lr-lb-add", "r1", "web", "--", "ls-lb-add", "sw1", "web");
        sync();
        try {
            agree(INSIDE, "172.30.0.10:80", Set.of("be1", "be2"));
        } finally {
            chassis.nbctl().run("lb-del", "web");
            sync();
        }
    }

    @Test
    void anAclDropOnTheBackendsSwitch() throws Exception {
        chassis.nbctl().run("lb-add", "acl", "172.30.0.11:80", "10.0.0.11:8080,10.0.0.12:8080", "tcp",
                "--", "lr-lb-add", "r1", "acl", "--", "--name=deny-ext", "acl-add", "sw1", "to-lport", "1001",
                "ip4.src == 172.30.0.0/24 && tcp.dst == 8080", "drop");
        sync();
        try {
            agree(INSIDE, "172.30.0.11:80", Set.of());
            assertThat(verdicts(INSIDE, "172.30.0.11:80").values()).containsOnly("acl");
        } finally {
            chassis.nbctl().run("acl-del", "sw1", "--", "lb-del", "acl");
            sync();
        }
    }

    @Test
    void aBackendWhosePortIsDown() throws Exception {
        chassis.nbctl().run("lb-add", "down", "172.30.0.12:80", "10.0.0.11:8080,10.0.0.13:8080", "tcp",
                "--", "lr-lb-add", "r1", "down", "--", "lsp-add", "sw1", "be3", "--", "lsp-set-addresses", "be3", "0a:00:00:00:02:0d 10.0.0.13");
        sync();
        try {
            // be3 has a logical port but nothing plugged in: ovn-controller binds it nowhere.
            Map<String, String> v = verdicts(INSIDE, "172.30.0.12:80");
            assertThat(v).containsEntry("10.0.0.11:8080", "delivered").containsEntry("10.0.0.13:8080", "port-down");
            assertThat(reached(inside, "172.30.0.12:80")).containsExactly("be1");
        } finally {
            chassis.nbctl().run("lb-del", "down", "--", "lsp-del", "be3");
            sync();
        }
    }

    @Test
    void aVipWithoutBackendsRejects() throws Exception {
        chassis.nbctl().run("create", "load_balancer", "name=empty", "protocol=tcp", "vips:\"172.30.0.13:80\"=\"\"", "options:reject=true");
        chassis.nbctl().run("lr-lb-add", "r1", "empty");
        sync();
        try {
            assertThat(verdicts(INSIDE, "172.30.0.13:80")).containsExactly(Map.entry("", "no-backends"));
            Reply r = inside.request(Transport.TCP, "172.30.0.13", 80, TIMEOUT);
            assertThat(r.outcome()).as(r.toString()).isEqualTo(Reply.Outcome.REFUSED);
        } finally {
            chassis.nbctl().run("lr-lb-del", "r1", "empty", "--", "lb-del", "empty");
            sync();
        }
    }

    @Test
    void aVipWithSourceRangesFromTheDesiredStateFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state.yaml");
        Files.writeString(file, """
                owner: dataplane-it
                loadBalancers:
                  - name: admin
                    routers: [r1]
                    vips:
                      - vip: 172.30.0.14:80
                        backends: [10.0.0.11:8080, 10.0.0.12:8080]
                    sourceRanges: [172.30.0.96/28]
                """);
        OvnjProcess.Result applied = OvnjProcess.run("reconcile", "--db", chassis.northbound().remote(), "--file", file.toString());
        assertThat(applied.exit()).as(applied.toString()).isZero();
        sync();
        try {
            agree(INSIDE, "172.30.0.14:80", Set.of("be1", "be2"));
            agree(OUTSIDE, "172.30.0.14:80", Set.of());
            assertThat(verdicts(OUTSIDE, "172.30.0.14:80").values()).containsOnly("router-policy");
        } finally {
            Files.writeString(file, "owner: dataplane-it\nloadBalancers: []\n");
            OvnjProcess.Result removed = OvnjProcess.run("reconcile", "--db", chassis.northbound().remote(), "--file", file.toString());
            assertThat(removed.exit()).as(removed.toString()).isZero();
            sync();
        }
    }

    @Test
    void aLoadBalancerOnARouterThatCannotReachItsBackends() throws Exception {
        // Another project's router on the external network, with only a default route.
        chassis.nbctl().run("lsp-add", "ext", "ext-r2", "--", "lsp-set-type", "ext-r2", "router", "--", "lsp-set-addresses", "ext-r2",
                "router", "--", "lsp-set-options", "ext-r2", "router-port=r2-ext",
                "--", "lr-add", "r2", "--", "lrp-add", "r2", "r2-ext", "02:00:00:00:00:21", "172.30.0.2/24",
                "--", "lrp-set-gateway-chassis", "r2-ext", chassis.name(), "10", "--", "lr-route-add", "r2", "0.0.0.0/0", "172.30.0.254",
                "--", "lb-add", "foreign", "172.30.0.20:80", "10.0.0.11:8080,10.0.0.12:8080", "tcp", "--", "lr-lb-add", "r2", "foreign");
        sync();
        try {
            agree(INSIDE, "172.30.0.20:80", Set.of());
            assertThat(verdicts(INSIDE, "172.30.0.20:80").values()).containsOnly("unreachable");
        } finally {
            chassis.nbctl().run("lb-del", "foreign", "--", "lr-del", "r2", "--", "lsp-del", "ext-r2");
            sync();
        }
    }

    @Test
    void forceSnatAndSkipSnatOnADistributedRouterWithAGatewayPort() throws Exception {
        // OVS 3.1's userspace conntrack dies on SNAT after DNAT: only on a newer release's root.
        assumeTrue(OvnRelease.current().ovnAtLeast(25, 3), "SNAT after DNAT needs OVS 3.5+ (OVN 25.03+) in the userspace datapath");
        chassis.nbctl().run("set", "logical_router", "r1", "options:lb_force_snat_ip=router_ip",
                "--", "lb-add", "plain", "172.30.0.17:80", "10.0.0.11:8080,10.0.0.12:8080", "tcp", "--", "lr-lb-add", "r1", "plain",
                "--", "lb-add", "skip", "172.30.0.18:80", "10.0.0.11:8081,10.0.0.12:8081", "tcp",
                "--", "set", "load_balancer", "skip", "options:skip_snat=true", "--", "lr-lb-add", "r1", "skip");
        sync();
        // skip's backends on a port of their own: plain's un-DNAT flows would match their replies too
        // (same address and port, same priority), and which one OVS picks is not defined.
        be1.serve(8081);
        be2.serve(8081);
        try {
            // lb_force_snat_ip=router_ip applies to gateway routers (options:chassis) only: r1 does
            // not SNAT, and its backends see the client's own address.
            agree(INSIDE, "172.30.0.17:80", Set.of("be1", "be2"));
            String conntrack = chassis.vswitchdAppctl("dpctl/dump-conntrack");
            assertThat(conntrack).as(conntrack).contains("reply=(src=10.0.0.11,dst=" + INSIDE + ",sport=8080")
                    .doesNotContain("reply=(src=10.0.0.11,dst=172.30.0.1,").doesNotContain("reply=(src=10.0.0.12,dst=172.30.0.1,");
            // skip_snat on such a router: OVN's un-DNAT of the replies becomes "flags.skip_snat_for_lb = 1; next;",
            // the client gets them from the backend's address, and no connection is made. Doctor says so.
            agree(INSIDE, "172.30.0.18:80", Set.of());
            assertThat(verdicts(INSIDE, "172.30.0.18:80").values()).containsOnly("not-undnatted");
        } finally {
            chassis.nbctl().run("remove", "logical_router", "r1", "options", "lb_force_snat_ip", "--", "lb-del", "plain", "--", "lb-del", "skip");
            sync();
        }
    }
}
