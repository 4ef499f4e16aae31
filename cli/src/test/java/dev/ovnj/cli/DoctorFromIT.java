package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ovnj doctor --from} as the packaged jar against NB and SB ovsdb-servers with ovn-northd and
 * the release's own ovn-trace: router lr0 (gateway port lrp-ext, a default route out) with load
 * balancer web (172.16.0.100:80 to 10.0.0.2:80 on port web1 and 10.0.0.3:80 on web2) on lr0 and
 * ls-int. Each test breaks one thing, checks the cause and the Northbound row named per backend,
 * human and JSON, and mends it; one topology for the class.
 */
class DoctorFromIT {
    private static final String CLIENT = "192.0.2.1";
    private static final String VIP = "172.16.0.100:80";

    private static OvnCentral ovn;
    private static String traceCommand;

    @BeforeAll
    static void start() {
        ovn = OvnCentral.start();
        BackendTopology.of(ovn).withGateway().create();
        ovn.nbctl().run("lb-add", "web", VIP, "10.0.0.2:80,10.0.0.3:80", "tcp",
                "--", "lr-lb-add", "lr0", "web", "--", "ls-lb-add", "ls-int", "web",
                "--", "lr-route-add", "lr0", "0.0.0.0/0", "172.16.0.254");
        ovn.sync();
        traceCommand = String.join(" ", OvnRelease.current().command("ovn-trace"));
    }

    @AfterAll
    static void stop() {
        ovn.close();
    }

    private static OvnjProcess.Result from(String... more) {
        String[] args = new String[more.length + 7];
        args[0] = "doctor";
        args[1] = "--db";
        args[2] = ovn.northbound().remote();
        args[3] = "--sb";
        args[4] = ovn.southbound().remote();
        args[5] = "--trace-command";
        args[6] = traceCommand;
        System.arraycopy(more, 0, args, 7, more.length);
        return OvnjProcess.run(args);
    }

    private static JsonNode json(OvnjProcess.Result r) throws Exception {
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.get("kind").asText()).isEqualTo("doctor-path");
        assertThat(doc.get("version").asInt()).isEqualTo(1);
        return doc;
    }

    @Test
    void healthyVipDeliversToEveryBackend() throws Exception {
        OvnjProcess.Result text = from("--from", CLIENT, VIP);
        assertThat(text.exit()).as(text.toString()).isZero();
        assertThat(text.out()).startsWith("web " + VIP + "/tcp from " + CLIENT + ":49152 entering lr0 by lrp-ext:\n")
                .contains("  delivered 10.0.0.2:80: the request is output to port web1")
                .contains("  delivered 10.0.0.3:80: the request is output to port web2")
                .endsWith("2 backends traced, 2 delivered, 0 not delivered");

        OvnjProcess.Result out = from("--from", CLIENT + ":40000", "--protocol", "tcp", "-o", "json", VIP);
        assertThat(out.exit()).as(out.toString()).isZero();
        JsonNode doc = json(out);
        assertThat(doc.get("client").asText()).isEqualTo(CLIENT + ":40000");
        assertThat(doc.get("inport").asText()).isEqualTo("lrp-ext");
        assertThat(doc.get("delivered").asInt()).isEqualTo(2);
        assertThat(doc.get("backends")).allSatisfy(b -> {
            assertThat(b.get("cause").asText()).isEqualTo("delivered");
            assertThat(b.get("object").isNull()).isTrue();
        });
    }

    @Test
    void anAclOnTheBackendsSwitchDroppingTheClientsSubnetIsNamedWithMatchAndPriority() throws Exception {
        ovn.nbctl().run("--name=deny-clients", "acl-add", "ls-int", "to-lport", "1001", "ip4.src == 192.0.2.0/24", "drop");
        ovn.sync();
        try {
            OvnjProcess.Result text = from("--from", CLIENT, VIP);
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out().lines().filter(l -> l.startsWith("  acl 10.0.0.")).toList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("dropped at ls_out_acl").contains("of ls-int by ACL deny-clients")
                            .contains("to-lport priority 1001 match \"ip4.src == 192.0.2.0/24\" action drop on switch ls-int"));
            assertThat(text.out()).endsWith("2 backends traced, 0 delivered, 2 not delivered");

            JsonNode b = json(from("--from", CLIENT, "-o", "json", VIP)).get("backends").get(0);
            assertThat(b.get("cause").asText()).isEqualTo("acl");
            assertThat(b.get("delivered").asBoolean()).isFalse();
            assertThat(b.get("direction").asText()).isEqualTo("request");
            assertThat(b.get("datapath").asText()).isEqualTo("ls-int");
            assertThat(b.get("object").get("table").asText()).isEqualTo("ACL");
            assertThat(b.get("object").get("name").asText()).isEqualTo("deny-clients");
            assertThat(b.get("object").get("uuid").asText())
                    .isEqualTo(ovn.nbctl().run("--bare", "--columns=_uuid", "find", "acl", "name=deny-clients").trim());
            assertThat(b.get("object").get("detail").asText()).contains("priority 1001").contains("ip4.src == 192.0.2.0/24");
            assertThat(b.get("fix").asText()).contains("ovn-nbctl --type=switch acl-del ls-int to-lport 1001 'ip4.src == 192.0.2.0/24'");
        } finally {
            ovn.nbctl().run("acl-del", "ls-int");
            ovn.sync();
        }
    }

    @Test
    void aBackendWhosePortIsDownIsNamedAndTheOtherOneDelivered() throws Exception {
        ovn.sbctl().run("lsp-unbind", "web2");
        try {
            OvnjProcess.Result text = from("--from", CLIENT, VIP);
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out()).contains("  delivered 10.0.0.2:80:")
                    .contains("  port-down 10.0.0.3:80: the request is output to port web2 of switch ls-int, but its Port_Binding is"
                            + " bound to no chassis")
                    .endsWith("2 backends traced, 1 delivered, 1 not delivered");
            JsonNode b = json(from("--from", CLIENT, "-o", "json", VIP)).get("backends").get(1);
            assertThat(b.get("cause").asText()).isEqualTo("port-down");
            assertThat(b.get("object").get("table").asText()).isEqualTo("Logical_Switch_Port");
            assertThat(b.get("object").get("name").asText()).isEqualTo("web2");
        } finally {
            ovn.sbctl().run("lsp-bind", "web2", "gw1");
        }
    }

    @Test
    void aRouterWithoutARouteBackToTheClientDropsTheReply() throws Exception {
        // The request reaches the backends (their network is the router's own); the reply to the
        // client has nowhere to go once the default route is gone.
        ovn.nbctl().run("lr-route-del", "lr0", "0.0.0.0/0");
        ovn.sync();
        try {
            OvnjProcess.Result text = from("--from", CLIENT, VIP);
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out().lines().filter(l -> l.startsWith("  no-route 10.0.0.")).toList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("the reply to " + CLIENT + " is dropped at lr_in_ip_routing of lr0")
                            .contains("router lr0 has no route to " + CLIENT).contains("lr-route-add lr0 " + CLIENT + "/32"));
            JsonNode b = json(from("--from", CLIENT, "-o", "json", VIP)).get("backends").get(0);
            assertThat(b.get("cause").asText()).isEqualTo("no-route");
            assertThat(b.get("direction").asText()).isEqualTo("reply");
            assertThat(b.get("object").get("table").asText()).isEqualTo("Logical_Router");
            assertThat(b.get("object").get("name").asText()).isEqualTo("lr0");
            assertThat(b.get("object").get("detail").asText()).isEqualTo("no static routes");
        } finally {
            ovn.nbctl().run("lr-route-add", "lr0", "0.0.0.0/0", "172.16.0.254");
            ovn.sync();
        }
    }

    @Test
    void aVipWithoutBackendsIsRejectedByItsLoadBalancer() throws Exception {
        ovn.nbctl().run("create", "load_balancer", "name=empty", "protocol=tcp", "vips:\"172.16.0.101:80\"=\"\"", "options:reject=true");
        ovn.nbctl().run("lr-lb-add", "lr0", "empty", "--", "ls-lb-add", "ls-int", "empty");
        ovn.sync();
        try {
            OvnjProcess.Result text = from("--from", CLIENT, "172.16.0.101:80");
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out()).contains("  no-backends (no backends): VIP 172.16.0.101:80 of Load_Balancer empty (")
                    .contains("is rejected at lr_in_dnat of lr0 (options:reject=true)")
                    .endsWith("1 backends traced, 0 delivered, 1 not delivered");
            JsonNode b = json(from("--from", CLIENT, "-o", "json", "172.16.0.101:80")).get("backends").get(0);
            assertThat(b.get("backend").isNull()).isTrue();
            assertThat(b.get("cause").asText()).isEqualTo("no-backends");
            assertThat(b.get("object").get("table").asText()).isEqualTo("Load_Balancer");
            assertThat(b.get("object").get("uuid").asText())
                    .isEqualTo(ovn.nbctl().run("--bare", "--columns=_uuid", "find", "load_balancer", "name=empty").trim());
        } finally {
            ovn.nbctl().run("lr-lb-del", "lr0", "empty", "--", "ls-lb-del", "ls-int", "empty", "--", "lb-del", "empty");
            ovn.sync();
        }
    }

    @Test
    void aClientPortOnTheBackendsSwitchIsTracedFromThatPort() {
        // A pod-like client on ls-int: its packets enter the switch, whose load balancer picks the backend.
        ovn.nbctl().run("lsp-add", "ls-int", "client1", "--", "lsp-set-addresses", "client1", "00:00:00:00:02:32 10.0.0.50");
        ovn.sync();
        try {
            OvnjProcess.Result text = from("--from-port", "client1", VIP);
            assertThat(text.exit()).as(text.toString()).isZero();
            assertThat(text.out()).startsWith("web " + VIP + "/tcp from 10.0.0.50:49152 entering ls-int by client1:\n")
                    .contains("  delivered 10.0.0.2:80: the request is output to port web1 (switch ls-int) and the reply back to client1")
                    .endsWith("2 backends traced, 2 delivered, 0 not delivered");
        } finally {
            ovn.nbctl().run("lsp-del", "client1");
            ovn.sync();
        }
    }

    @Test
    void badInputExitsTwoWithAClearError() {
        OvnjProcess.Result notAnAddress = from("--from", "client.example", VIP);
        assertThat(notAnAddress.exit()).as(notAnAddress.toString()).isEqualTo(2);
        assertThat(notAnAddress.err()).startsWith("--from: ").contains("client.example");

        OvnjProcess.Result unknownVip = from("--from", CLIENT, "172.16.0.199:80");
        assertThat(unknownVip.exit()).as(unknownVip.toString()).isEqualTo(2);
        assertThat(unknownVip.err()).contains("no load balancer has VIP 172.16.0.199:80");

        OvnjProcess.Result noSouthbound = OvnjProcess.run("doctor", "--db", ovn.northbound().remote(), "--from", CLIENT, VIP);
        assertThat(noSouthbound.exit()).as(noSouthbound.toString()).isEqualTo(2);
        assertThat(noSouthbound.err()).contains("--sb");

        OvnjProcess.Result noPort = from("--from-port", "nosuch", VIP);
        assertThat(noPort.exit()).as(noPort.toString()).isEqualTo(2);
        assertThat(noPort.err()).contains("--from-port nosuch is no logical switch port and no logical router port");
    }

    @Test
    void aSessionAffinityVipIsTracedPastTheLearningOfItsBackend() throws Exception {
        // ovn-trace stops at commit_lb_aff (lb_aff_learn): the first packet of a client's session
        // ends there by design; the retransmission, sent by the learned flow, reaches the backend.
        ovn.nbctl().run("lb-add", "sticky", "172.16.0.102:80", "10.0.0.2:80,10.0.0.3:80", "tcp",
                "--", "set", "load_balancer", "sticky", "options:affinity_timeout=60",
                "--", "lr-lb-add", "lr0", "sticky", "--", "ls-lb-add", "ls-int", "sticky");
        ovn.sync();
        try {
            OvnjProcess.Result text = from("--from", CLIENT, "172.16.0.102:80");
            assertThat(text.exit()).as(text.toString()).isZero();
            assertThat(text.out().lines().filter(l -> l.startsWith("  delivered 10.0.0.")).toList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("and the reply back to lrp-ext; session affinity: OVN drops the first packet"
                            + " of a client's new session where it learns the backend (commit_lb_aff at lr_in_lb_aff_learn of lr0)"));
            assertThat(text.out()).endsWith("2 backends traced, 2 delivered, 0 not delivered");

            // A drop after the learning stage is still found: an ACL on the backends' switch.
            ovn.nbctl().run("--name=deny-clients", "acl-add", "ls-int", "to-lport", "1001", "ip4.src == 192.0.2.0/24", "drop");
            ovn.sync();
            JsonNode doc = json(from("--from", CLIENT, "-o", "json", "172.16.0.102:80"));
            assertThat(doc.get("delivered").asInt()).isZero();
            assertThat(doc.get("backends")).allSatisfy(b -> {
                assertThat(b.get("cause").asText()).isEqualTo("acl");
                assertThat(b.get("object").get("name").asText()).isEqualTo("deny-clients");
            });
        } finally {
            ovn.nbctl().run("acl-del", "ls-int", "--", "lr-lb-del", "lr0", "sticky", "--", "ls-lb-del", "ls-int", "sticky",
                    "--", "lb-del", "sticky");
            ovn.sync();
        }
    }

    @Test
    void sourceRangesFromTheDesiredStateFileLetOnlyTheirClientsThroughAlsoWithSessionAffinity(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state.yaml");
        String state = """
                owner: doctor-it
                loadBalancers:
                  - name: admin
                    routers: [lr0]
                    vips:
                      - vip: 172.16.0.103:80
                        backends: [10.0.0.2:80, 10.0.0.3:80]
                    options: {affinityTimeout: 60}
                    sourceRanges: [192.0.2.0/25]
                """;
        Files.writeString(file, state);
        OvnjProcess.Result applied = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
        assertThat(applied.exit()).as(applied.toString()).isZero();
        ovn.sync();
        try {
            assertThat(ovn.nbctl().run("lr-policy-list", "lr0")).contains("ip4.src == 192.0.2.0/25").contains("drop");
            OvnjProcess.Result inside = from("--from", CLIENT, "172.16.0.103:80");
            assertThat(inside.exit()).as(inside.toString()).isZero();
            assertThat(inside.out()).contains("session affinity").endsWith("2 backends traced, 2 delivered, 0 not delivered");

            OvnjProcess.Result outside = from("--from", "192.0.2.200", "172.16.0.103:80");
            assertThat(outside.exit()).as(outside.toString()).isEqualTo(1);
            assertThat(outside.out().lines().filter(l -> l.startsWith("  router-policy 10.0.0.")).toList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("the request from 192.0.2.200 is dropped at lr_in_policy of lr0 by"
                            + " Logical_Router_Policy").contains("priority 32000").contains("action drop on router lr0"));

            // The ranges removed from the file: the client outside gets through too.
            Files.writeString(file, state.replace("    sourceRanges: [192.0.2.0/25]\n", ""));
            applied = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
            assertThat(applied.exit()).as(applied.toString()).isZero();
            ovn.sync();
            assertThat(ovn.nbctl().run("lr-policy-list", "lr0")).doesNotContain("192.0.2.0/25");
            OvnjProcess.Result open = from("--from", "192.0.2.200", "172.16.0.103:80");
            assertThat(open.exit()).as(open.toString()).isZero();
        } finally {
            Files.writeString(file, "owner: doctor-it\nloadBalancers: []\n");
            OvnjProcess.Result removed = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
            assertThat(removed.exit()).as(removed.toString()).isZero();
            ovn.sync();
        }
    }

    @Test
    void aLoadBalancerOnARouterThatCannotReachItsBackendsIsNamedByBothRuns() throws Exception {
        // Another project's router on the same external network, with only a default route: the
        // backends (on lr0's ls-int) are nowhere it can send the DNATed request.
        ovn.nbctl().run("lr-add", "lr9", "--", "lrp-add", "lr9", "lr9-ext", "00:00:00:00:09:01", "172.16.0.9/24",
                "--", "lrp-set-gateway-chassis", "lr9-ext", "gw1", "10", "--", "lr-route-add", "lr9", "0.0.0.0/0", "172.16.0.254",
                "--", "lb-add", "foreign", "172.16.0.109:80", "10.0.0.2:80,10.0.0.3:80", "tcp", "--", "lr-lb-add", "lr9", "foreign");
        ovn.sync();
        ovn.sbctl().run("lsp-bind", "cr-lr9-ext", "gw1");
        ovn.sync();
        try {
            OvnjProcess.Result plain = OvnjProcess.run("doctor", "--db", ovn.northbound().remote(), "--lb", "foreign");
            assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
            assertThat(plain.out()).contains("  error backend-unreachable 172.16.0.109:80: router lr9 cannot reach backends 10.0.0.2:80,"
                    + " 10.0.0.3:80 of VIP 172.16.0.109:80 (foreign): router lr9 has no port on a network holding 10.0.0.2 and no route"
                    + " to it but its default route (0.0.0.0/0 via 172.16.0.254)").contains("10.0.0.2 is on the network of router lr0")
                    .contains("ovn-nbctl lr-lb-del lr9 foreign -- lr-lb-add lr0 foreign");

            OvnjProcess.Result text = from("--from", CLIENT, "172.16.0.109:80");
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out().lines().filter(l -> l.startsWith("  unreachable 10.0.0.")).toList()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("by router lr9, which cannot reach it: router lr9 has no port on a network"
                            + " holding 10.0.0."));
            JsonNode b = json(from("--from", CLIENT, "-o", "json", "172.16.0.109:80")).get("backends").get(0);
            assertThat(b.get("cause").asText()).isEqualTo("unreachable");
            assertThat(b.get("object").get("table").asText()).isEqualTo("Logical_Router");
            assertThat(b.get("object").get("name").asText()).isEqualTo("lr9");

            // Attached where its backends are, it is delivered.
            ovn.nbctl().run("lr-lb-del", "lr9", "foreign", "--", "lr-lb-add", "lr0", "foreign");
            ovn.sync();
            OvnjProcess.Result moved = from("--from", CLIENT, "172.16.0.109:80");
            assertThat(moved.exit()).as(moved.toString()).isZero();
        } finally {
            ovn.nbctl().run("--if-exists", "lr-lb-del", "lr0", "foreign", "--", "lb-del", "foreign", "--", "lr-del", "lr9");
            ovn.sync();
        }
    }

    @Test
    void skipSnatOnADistributedRouterLeavesTheRepliesWithoutUnDnat() throws Exception {
        // lr0's gateway port is distributed (gateway chassis, no options:chassis): with skip_snat,
        // northd writes the replies' un-DNAT as "flags.skip_snat_for_lb = 1; next;". Backends on
        // their own port (web's un-DNAT flows would match the same replies), and the next hop's MAC
        // known, so that ovn-trace follows the reply itself rather than an ARP request for it.
        ovn.nbctl().run("lb-add", "skip", "172.16.0.104:80", "10.0.0.2:81,10.0.0.3:81", "tcp",
                "--", "set", "load_balancer", "skip", "options:skip_snat=true", "--", "lr-lb-add", "lr0", "skip");
        ovn.sync();
        String datapath = ovn.sbctl().run("--bare", "--columns=_uuid", "find", "datapath_binding", "external_ids:name=lr0").trim();
        String binding = ovn.sbctl().run("create", "mac_binding", "datapath=" + datapath, "logical_port=lrp-ext", "ip=172.16.0.254",
                "mac=\"00:00:00:00:fe:fe\"").trim();
        try {
            OvnjProcess.Result text = from("--from", CLIENT, "172.16.0.104:80");
            assertThat(text.exit()).as(text.toString()).isEqualTo(1);
            assertThat(text.out().lines().filter(l -> l.startsWith("  not-undnatted 10.0.0.")).toList()).as(text.out()).hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("leaves router lr0 without being un-DNATed (lr_out_undnat: flags.skip_snat_for_lb = 1;")
                            .contains("the client gets it from another address than the VIP 172.16.0.104:80").contains("remove options:skip_snat from Load_Balancer skip"));
            OvnjProcess.Result plain = OvnjProcess.run("doctor", "--db", ovn.northbound().remote(), "--lb", "skip");
            assertThat(plain.exit()).as(plain.toString()).isEqualTo(1);
            assertThat(plain.out()).contains("  error skip-snat-distributed-router: Load_Balancer skip has options:skip_snat=true and is on"
                    + " router lr0, a distributed router (gateway port lrp-ext, no options:chassis)");
            JsonNode b = json(from("--from", CLIENT, "-o", "json", "172.16.0.104:80")).get("backends").get(0);
            assertThat(b.get("cause").asText()).isEqualTo("not-undnatted");
            assertThat(b.get("direction").asText()).isEqualTo("reply");
            assertThat(b.get("object").get("table").asText()).isEqualTo("Load_Balancer");
            assertThat(b.get("object").get("name").asText()).isEqualTo("skip");
        } finally {
            ovn.sbctl().run("destroy", "mac_binding", binding);
            ovn.nbctl().run("lr-lb-del", "lr0", "skip", "--", "lb-del", "skip");
            ovn.sync();
        }
    }
}
