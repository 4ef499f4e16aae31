package dev.ovnj.lb.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scale advice of a plain diagnosis, on a Northbound ovsdb-server written with ovn-nbctl (no
 * northd: the advice reads the Northbound database only): load balancers attached one by one to
 * ten switches, a router load balancer whose VIPs are routed, and load balancers with their own
 * hairpin_snat_ip; each with its numbers, and gone once the change it asks for is made.
 */
class ScaleAdviceIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String OWNER = "t";

    private static OvsdbServer server;
    private static Nbctl nbctl;

    @BeforeAll
    static void start() {
        server = OvsdbServer.start();
        nbctl = Nbctl.of(server);
        List<String> cmd = new ArrayList<>(List.of("lr-add", "lr0", "--", "lrp-add", "lr0", "lrp-ext", "00:00:00:00:01:01", "172.16.0.1/24",
                "--", "lrp-set-gateway-chassis", "lrp-ext", "gw1", "10"));
        for (int i = 0; i < ScaleAdvice.MANY_DATAPATHS; i++) {
            cmd.addAll(List.of("--", "ls-add", "ls" + i));
        }
        nbctl.run(cmd.toArray(String[]::new));
        for (String lb : List.of("a", "b")) {
            create(lb, "172.16.0." + (lb.equals("a") ? 10 : 11) + ":80", "10.0.0.2:80");
            List<String> attach = new ArrayList<>();
            for (int i = 0; i < ScaleAdvice.MANY_DATAPATHS; i++) {
                attach.addAll(List.of("--", "ls-lb-add", "ls" + i, lb + "-tcp"));
            }
            nbctl.run(attach.subList(1, attach.size()).toArray(String[]::new));
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void create(String spec, String vip, String backends) {
        nbctl.run("create", "load_balancer", "name=" + spec + "-tcp", "protocol=tcp", "vips:\"" + vip + "\"=\"" + backends + "\"",
                "external_ids:\"ovnj.owner\"=" + OWNER, "external_ids:\"ovnj.spec\"=" + spec);
    }

    private static DiagnosisReport diagnose(Diagnosis d) {
        try (OvsdbClient c = OvsdbClient.builder().remotes(server.remote()).monitor(NorthboundFacts.monitorRequest()).build()
                .startAndWait(WAIT)) {
            return d.run(NorthboundFacts.read(c.cache()), Optional.empty());
        }
    }

    private static DiagnosisReport plain() {
        return diagnose(Diagnosis.builder().owner(OWNER).build());
    }

    @Test
    void loadBalancersAttachedOneByOneToManySwitchesGetOneGroupAdviceWithTheNumbers() {
        DiagnosisReport r = plain();
        assertThat(r.withCode(FindingCode.SCALE_LB_GROUP)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ADVICE);
            assertThat(f.lbs()).containsExactlyInAnyOrder("a", "b");
            assertThat(f.message()).contains("2 load balancers").contains("up to 10, 20 references in 1 distinct sets")
                    .contains("120 switches x 1,000 load balancers: 30 s -> 1 s");
            assertThat(f.fix()).contains("group: NAME").contains("load_balancer_group");
        });
        assertThat(r.errors()).isZero();
        assertThat(r.advice()).isEqualTo(1);
        // Advice is about the whole set: a run narrowed to one load balancer gives none.
        assertThat(diagnose(Diagnosis.builder().owner(OWNER).loadBalancer("a").build()).advice()).isZero();

        // Through a group, the same attachments are no longer advised against.
        String group = nbctl.run("create", "load_balancer_group", "name=lbs").trim();
        nbctl.run("add", "load_balancer_group", group, "load_balancer", nbctl.run("--bare", "--columns=_uuid", "find",
                "load_balancer", "name=a-tcp").trim());
        List<String> moved = new ArrayList<>();
        for (int i = 0; i < ScaleAdvice.MANY_DATAPATHS; i++) {
            moved.addAll(List.of("--", "ls-lb-del", "ls" + i, "a-tcp", "--", "add", "logical_switch", "ls" + i, "load_balancer_group", group));
        }
        nbctl.run(moved.subList(1, moved.size()).toArray(String[]::new));
        assertThat(plain().withCode(FindingCode.SCALE_LB_GROUP)).singleElement()
                .satisfies(f -> assertThat(f.lbs()).containsExactly("b"));
    }

    @Test
    void routedVipsWithTheDefaultResponderAreAdvisedNoneAndNoneSilencesTheNetworkError() {
        create("routed", "203.0.113.10:80", "10.0.0.2:80");
        nbctl.run("lr-lb-add", "lr0", "routed-tcp");
        try {
            DiagnosisReport r = plain();
            assertThat(r.withCode(FindingCode.SCALE_NEIGHBOR_RESPONDER)).singleElement().satisfies(f -> {
                assertThat(f.lb()).isEqualTo("routed");
                assertThat(f.message()).contains("all 1 VIPs of Load_Balancer routed-tcp").contains("1 router(s) (lr0)");
                assertThat(f.fix()).contains("options:neighbor_responder=none");
            });
            assertThat(r.withCode(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS)).singleElement()
                    .satisfies(f -> assertThat(f.fix()).contains("neighbor_responder=none"));

            nbctl.run("set", "load_balancer", "routed-tcp", "options:neighbor_responder=none");
            DiagnosisReport declared = plain();
            assertThat(declared.withCode(FindingCode.SCALE_NEIGHBOR_RESPONDER)).isEmpty();
            assertThat(declared.withCode(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS)).isEmpty();
        } finally {
            nbctl.run("lr-lb-del", "lr0", "routed-tcp", "--", "lb-del", "routed-tcp");
        }
    }

    @Test
    void hairpinSnatIpOnLoadBalancersOnSeveralDatapathsIsAdvisedWithTheFlowCount() {
        create("hp", "10.0.0.100:80", "10.0.0.2:80");
        nbctl.run("set", "load_balancer", "hp-tcp", "options:hairpin_snat_ip=\"169.254.169.5\"",
                "--", "ls-lb-add", "ls0", "hp-tcp", "--", "ls-lb-add", "ls1", "hp-tcp", "--", "ls-lb-add", "ls2", "hp-tcp");
        try {
            assertThat(plain().withCode(FindingCode.SCALE_HAIRPIN_SNAT_IP)).singleElement().satisfies(f -> {
                assertThat(f.lbs()).containsExactly("hp");
                assertThat(f.message()).contains("1 load balancers (hp) set options:hairpin_snat_ip (169.254.169.5)")
                        .contains("(3 for these 1 VIPs");
                assertThat(f.fix()).contains("hairpin_snat_ip");
            });
            nbctl.run("remove", "load_balancer", "hp-tcp", "options", "hairpin_snat_ip");
            assertThat(plain().withCode(FindingCode.SCALE_HAIRPIN_SNAT_IP)).isEmpty();
        } finally {
            nbctl.run("ls-lb-del", "ls0", "hp-tcp", "--", "ls-lb-del", "ls1", "hp-tcp", "--", "ls-lb-del", "ls2", "hp-tcp",
                    "--", "lb-del", "hp-tcp");
        }
    }
}
