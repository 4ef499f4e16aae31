package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.EchoServer;
import dev.ovnj.testkit.EipTopology;
import dev.ovnj.testkit.Host;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.Prober;
import dev.ovnj.testkit.ProbeReport;
import dev.ovnj.testkit.Reply;
import dev.ovnj.testkit.Transport;
import dev.ovnj.testkit.junit.ChassisExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real packets through load balancers ovnj wrote: the project topology of {@link EipTopology} on a
 * {@link Chassis} (ovs-vswitchd with the userspace datapath and ovn-controller), load balancers
 * applied with {@code ovnj reconcile} and {@code reconcile --watch} as users run them (source
 * ranges, which the desired-state file lacks, through the engine), and TCP and UDP requests from
 * clients on the EIP network to backends answering with their own names. One chassis serves the
 * whole class; each test uses VIPs and an owner of its own.
 */
class EipTrafficIT {
    private static final Duration PROPAGATION = Duration.ofSeconds(30);
    private static final Duration REQUEST = Duration.ofSeconds(2);
    private static final Set<String> BOTH = Set.of("b1", "b2");

    @RegisterExtension
    static final ChassisExtension DATA_PLANE = new ChassisExtension();

    private static EipTopology net;

    @TempDir
    Path dir;

    @BeforeAll
    static void topology() {
        net = EipTopology.create(DATA_PLANE.chassis());
    }

    private String nb() {
        return DATA_PLANE.chassis().northbound().remote();
    }

    private Nbctl nbctl() {
        return DATA_PLANE.chassis().nbctl();
    }

    private Path file(String name, String yaml) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    private void reconcile(Path file, String... extra) {
        List<String> args = new ArrayList<>(List.of("reconcile", "--db", nb(), "--file", file.toString()));
        args.addAll(List.of(extra));
        OvnjProcess.Result r = OvnjProcess.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    /** Requests from a fresh source port each time until every backend has answered, bounded. */
    private static void assertEveryBackendAnswers(Host client, Transport t, String vip, int port) {
        client.requestUntil(t, vip, port, Reply::answered, PROPAGATION);
        try (Prober p = client.probe(t, vip, port, Duration.ofMillis(10), REQUEST)) {
            Await.until(Duration.ofSeconds(20), "answers from b1 and b2 to " + t + " " + vip + ":" + port,
                    () -> p.report().answersBy().keySet().containsAll(BOTH));
            ProbeReport report = p.stop();
            assertThat(report.answersBy()).as("%s %s:%d: %s", t, vip, port, report).containsOnlyKeys("b1", "b2");
        }
    }

    @Test
    void theEipAnswersFromEveryBackendOverTcpAndUdpIpv4AndIpv6DirectlyAndThroughAGroup() throws Exception {
        String v4 = EipTopology.vip4(10);
        String v6 = EipTopology.vip6(10);
        String g4 = EipTopology.vip4(11);
        String g6 = EipTopology.vip6(11);
        reconcile(file("web.yaml", """
                owner: traffic
                loadBalancers:
                  - name: web
                    routers: [r1]
                    switches: [ls1]
                    vips:
                      - {vip: "%1$s:80", protocol: tcp, backends: ["10.1.0.11:80", "10.1.0.12:80"]}
                      - {vip: "%1$s:80", protocol: udp, backends: ["10.1.0.11:80", "10.1.0.12:80"]}
                      - {vip: "[%2$s]:80", protocol: tcp, backends: ["[fd10::11]:80", "[fd10::12]:80"]}
                      - {vip: "[%2$s]:80", protocol: udp, backends: ["[fd10::11]:80", "[fd10::12]:80"]}
                  - name: grouped
                    group: g1
                    routers: [r1]
                    switches: [ls1]
                    vips:
                      - {vip: "%3$s:80", protocol: tcp, backends: ["10.1.0.11:80", "10.1.0.12:80"]}
                      - {vip: "[%4$s]:80", protocol: udp, backends: ["[fd10::11]:80", "[fd10::12]:80"]}
                """.formatted(v4, v6, g4, g6)));
        // Cross-check: the group holds the second spec's rows and is attached to the router.
        assertThat(nbctl().run("--bare", "--columns=name", "list", "Load_Balancer_Group").trim()).isEqualTo("g1");
        assertThat(nbctl().run("--bare", "--columns=load_balancer_group", "list", "Logical_Router", "r1").trim()).isNotEmpty();

        Host client = net.client();
        for (Transport t : Transport.values()) {
            assertEveryBackendAnswers(client, t, v4, 80);
            assertEveryBackendAnswers(client, t, v6, 80);
        }
        assertEveryBackendAnswers(client, Transport.TCP, g4, 80);
        assertEveryBackendAnswers(client, Transport.UDP, g6, 80);
        reconcile(file("none.yaml", "owner: traffic\nloadBalancers: []\n"));
        // Gone with its load balancers: nothing answers on the VIP any more.
        client.requestUntil(Transport.TCP, v4, 80, r -> !r.answered(), PROPAGATION);
    }

    @Test
    void aVipWithoutBackendsAndRejectRefusesAtOnceTcpWithRstUdpWithPortUnreachable() throws Exception {
        String v4 = EipTopology.vip4(12);
        String v6 = EipTopology.vip6(12);
        reconcile(file("reject.yaml", """
                owner: reject
                loadBalancers:
                  - name: nobody
                    routers: [r1]
                    switches: [ls1]
                    options: {reject: true}
                    vips:
                      - {vip: "%1$s:80", protocol: tcp}
                      - {vip: "%1$s:80", protocol: udp}
                      - {vip: "[%2$s]:80", protocol: tcp}
                """.formatted(v4, v6)));
        Host client = net.client();
        for (String[] target : new String[][] {{"TCP", v4}, {"UDP", v4}, {"TCP", v6}}) {
            Transport t = Transport.valueOf(target[0]);
            // Before the flows arrive the VIP is silent (a timeout); then it refuses.
            client.requestUntil(t, target[1], 80, r -> r.outcome() == Reply.Outcome.REFUSED, PROPAGATION);
            Reply again = client.request(t, target[1], 80, Duration.ofSeconds(5));
            System.out.println("reject: " + t + " " + target[1] + ":80 " + again);
            assertThat(again.outcome()).as("%s %s: %s", t, target[1], again).isEqualTo(Reply.Outcome.REFUSED);
        }
        reconcile(file("none.yaml", "owner: reject\nloadBalancers: []\n"));
    }

    @Test
    void sourceRangesLetInsideClientsInAndOutsideClientsGetNothingIpv4AndIpv6UntilRemoved() throws Exception {
        String v4 = EipTopology.vip4(13);
        String v6 = EipTopology.vip6(13);
        try (OvsdbClient client = OvsdbClient.builder().remotes(nb()).monitor(LoadBalancerEngine.monitorRequest()).build();
                LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
            client.startAndWait(PROPAGATION);
            LoadBalancerSpec.Builder spec = LoadBalancerSpec.builder("ranged").routers(EipTopology.ROUTER)
                    .tcp(v4 + ":80", "10.1.0.11:80", "10.1.0.12:80")
                    .tcp("[" + v6 + "]:80", "[fd10::11]:80", "[fd10::12]:80");
            assertThat(engine.upsert("ranges", spec.sourceRanges(List.of("172.30.0.100/32", "fd30::100/128")).build())
                    .get(30, TimeUnit.SECONDS).allApplied()).isTrue();
            for (String vip : List.of(v4, v6)) {
                net.client().requestUntil(Transport.TCP, vip, 80, Reply::answered, PROPAGATION);
                // The flows that let the inside client in are there: the outside client's requests all go unanswered.
                for (int i = 0; i < 3; i++) {
                    Reply r = net.outsider().request(Transport.TCP, vip, 80, Duration.ofSeconds(1));
                    assertThat(r.outcome()).as("outside client to %s: %s", vip, r).isEqualTo(Reply.Outcome.TIMEOUT);
                }
            }
            assertThat(engine.upsert("ranges", spec.sourceRanges(List.of()).build()).get(30, TimeUnit.SECONDS).allApplied()).isTrue();
            for (String vip : List.of(v4, v6)) {
                net.outsider().requestUntil(Transport.TCP, vip, 80, Reply::answered, PROPAGATION);
            }
            engine.remove("ranges", "ranged").get(30, TimeUnit.SECONDS);
        }
    }

    private String monitorStatus(String logicalPort) {
        Chassis chassis = DATA_PLANE.chassis();
        return chassis.sbctl().run("--bare", "--columns=status", "find", "Service_Monitor", "logical_port=" + logicalPort, "port=8080").trim();
    }

    private void awaitMonitor(String logicalPort, String status) {
        Await.until(PROPAGATION, "ovn-controller to find " + logicalPort + " " + status, () -> monitorStatus(logicalPort).equals(status));
    }

    private String status() {
        OvnjProcess.Result s = OvnjProcess.run("status", "--db", nb(), "--owner", "health", "--sb", DATA_PLANE.chassis().southbound().remote());
        return s.toString();
    }

    @Test
    void healthChecksJudgedByOvnControllerTakeAStoppedBackendOutAndStatusFollows() throws Exception {
        String vip = EipTopology.vip4(14);
        Host b1 = net.backends().get(0);
        Host b2 = net.backends().get(1);
        try (EchoServer s1 = b1.serve(8080); EchoServer s2 = b2.serve(8080)) {
            reconcile(file("health.yaml", """
                    owner: health
                    loadBalancers:
                      - name: checked
                        routers: [r1]
                        switches: [ls1]
                        vips:
                          - vip: "%s:8080"
                            backends: ["10.1.0.11:8080", "10.1.0.12:8080"]
                            healthCheck: {interval: 1, timeout: 1, successCount: 1, failureCount: 1}
                    """.formatted(vip)));
            // The probe source the engine chose, as written for OVN: "10.1.0.11=b1:SOURCE ...".
            String mappings = nbctl().run("--bare", "--columns=ip_port_mappings", "list", "Load_Balancer", "checked-tcp").trim();
            String source = mappings.split(" ")[0].substring(mappings.indexOf(':') + 1);
            assertThat(source).startsWith("10.1.0.");
            awaitMonitor("b1", "online");
            awaitMonitor("b2", "online");
            // ovn-controller's probes came from the chosen source, and the backend's ARP for it was answered.
            assertThat(b1.exec("ip", "neigh", "show", source).stdout()).contains("lladdr").doesNotContain("FAILED");
            assertThat(status()).contains("health: 10.1.0.11:8080 online, 10.1.0.12:8080 online").contains("[online]");
            assertEveryBackendAnswers(net.client(), Transport.TCP, vip, 8080);

            s1.stop();
            awaitMonitor("b1", "offline");
            assertThat(status()).contains("health: 10.1.0.11:8080 offline, 10.1.0.12:8080 online").contains("[degraded]");
            net.client().requestUntil(Transport.TCP, vip, 8080, r -> r.server().orElse("").equals("b2"), PROPAGATION);
            try (Prober p = net.client().probe(Transport.TCP, vip, 8080, Duration.ofMillis(10), REQUEST)) {
                Await.until(Duration.ofSeconds(20), "20 answers", () -> p.report().answersBy().getOrDefault("b2", 0L) >= 20);
                ProbeReport report = p.stop();
                assertThat(report.answersBy()).as("%s", report).containsOnlyKeys("b2");
            }

            s2.stop();
            awaitMonitor("b2", "offline");
            assertThat(status()).contains("health: 10.1.0.11:8080 offline, 10.1.0.12:8080 offline").contains("[error]");

            s1.start();
            s2.start();
            awaitMonitor("b1", "online");
            awaitMonitor("b2", "online");
            assertThat(status()).contains("health: 10.1.0.11:8080 online, 10.1.0.12:8080 online").contains("[online]");
            assertEveryBackendAnswers(net.client(), Transport.TCP, vip, 8080);
        } finally {
            reconcile(file("none.yaml", "owner: health\nloadBalancers: []\n"));
        }
    }

    @Test
    void driftUnderTrafficIsRepairedByTheWatchingEngineAndStaysDarkWithoutIt() throws Exception {
        String vip = EipTopology.vip4(15);
        // The kube-ovn GC incident deletes every load balancer of the router at once; 32 of them churned OVS 3.1's
        // userspace conntrack to an assertion, so the full count runs on the newer releases only.
        int others = OvnRelease.current().ovnAtLeast(25, 3) ? 31 : 3;
        StringBuilder yaml = new StringBuilder("""
                owner: drift
                loadBalancers:
                  - name: drift
                    routers: [r1]
                    switches: [ls1]
                    vips:
                      - {vip: "%s:80", protocol: tcp, backends: ["10.1.0.11:80", "10.1.0.12:80"]}
                """.formatted(vip));
        for (int i = 0; i < others; i++) {
            yaml.append("""
                      - name: other%1$d
                        routers: [r1]
                        vips:
                          - {vip: "172.30.1.%1$d:80", protocol: tcp, backends: ["10.1.0.11:80"]}
                    """.formatted(i + 1));
        }
        Path f = file("drift.yaml", yaml.toString());
        Host client = net.client();
        try (OvnjProcess watch = OvnjProcess.start("reconcile", "--watch", "--db", nb(), "--file", f.toString())) {
            Await.until(PROPAGATION, "reconcile --watch to watch", () -> watch.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            client.requestUntil(Transport.TCP, vip, 80, Reply::answered, PROPAGATION);

            blackout(client, vip, watch, "ovn-nbctl lb-del drift-tcp", () -> nbctl().run("lb-del", "drift-tcp"));
            blackout(client, vip, watch, "the VIP removed from drift-tcp",
                    () -> nbctl().run("remove", "Load_Balancer", "drift-tcp", "vips", "\"" + vip + ":80\""));
            blackout(client, vip, watch, "every load balancer of r1 (" + (others + 1) + ") deleted in one transaction", () -> {
                List<String> args = new ArrayList<>();
                for (String lb : nbctl().run("--bare", "--columns=load_balancer", "list", "Logical_Router", EipTopology.ROUTER).trim().split("\\s+")) {
                    args.addAll(List.of("--", "lb-del", lb));
                }
                nbctl().run(args.subList(1, args.size()).toArray(String[]::new));
            });
            watch.terminate();
        }
        // Without the engine the same deletion is never repaired.
        try (Prober p = client.probe(Transport.TCP, vip, 80, Duration.ofMillis(10), Duration.ofSeconds(1))) {
            assertThat(p.awaitAnswer(Duration.ofSeconds(10))).isTrue();
            nbctl().run("lb-del", "drift-tcp");
            assertThat(p.awaitFailure(Duration.ofSeconds(10))).as("the deletion takes effect").isTrue();
            assertThat(p.awaitAnswer(Duration.ofSeconds(5))).as("an answer with no engine running").isFalse();
            ProbeReport report = p.stop();
            System.out.println("drift without the engine: " + report);
            assertThat(report.endedDark()).isTrue();
        }
        // All of the owner's load balancers at once is more than the deletion budget allows unasked.
        reconcile(file("none.yaml", "owner: drift\nloadBalancers: []\n"), "--allow-mass-delete");
    }

    /** Breaks the load balancer behind the watching engine's back while a client sends every 10 ms; prints the blackout. */
    private static void blackout(Host client, String vip, OvnjProcess watch, String what, Runnable drift) {
        int repairsBefore = (int) watch.stdout().stream().filter(l -> l.startsWith("repaired ")).count();
        try (Prober p = client.probe(Transport.TCP, vip, 80, Duration.ofMillis(10), Duration.ofSeconds(1))) {
            assertThat(p.awaitAnswer(Duration.ofSeconds(10))).isTrue();
            drift.run();
            Await.until(PROPAGATION, "the engine to repair " + what,
                    () -> watch.stdout().stream().filter(l -> l.startsWith("repaired ")).count() > repairsBefore);
            assertThat(p.awaitAnswer(PROPAGATION)).as("answers again after " + what).isTrue();
            // A little traffic after the repair, so the report shows the run of failures ended.
            assertThat(p.awaitAnswer(Duration.ofSeconds(5))).isTrue();
            ProbeReport report = p.stop();
            List<String> repairs = watch.stdout().stream().filter(l -> l.startsWith("repaired ")).skip(repairsBefore).toList();
            System.out.println("blackout with reconcile --watch, " + what + ": " + report.blackout().toMillis() + " ms (" + report
                    + "); engine: " + repairs);
            assertThat(report.endedDark()).isFalse();
        }
    }
}
