package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.junit.ChassisExtension;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The data-plane fixture itself: hosts on one logical switch talk through ovs-vswitchd and ovn-controller. */
class ChassisIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @RegisterExtension
    static final ChassisExtension DATA_PLANE = new ChassisExtension();

    private static Host server;
    private static Host client;

    @BeforeAll
    static void twoHostsOnOneSwitch() {
        Chassis chassis = DATA_PLANE.chassis();
        switchWithTwoPorts(chassis);
        server = chassis.host("server").port("p1").mac("0a:00:00:00:00:01").ipv4("10.0.0.1/24", null).ipv6("fd00::1/64", null).start();
        client = chassis.host("client").port("p2").mac("0a:00:00:00:00:02").ipv4("10.0.0.2/24", null).ipv6("fd00::2/64", null).start();
    }

    private static void switchWithTwoPorts(Chassis chassis) {
        chassis.nbctl().run("ls-add", "sw", "--", "lsp-add", "sw", "p1", "--", "lsp-set-addresses", "p1",
                "0a:00:00:00:00:01 10.0.0.1 fd00::1", "--", "lsp-add", "sw", "p2", "--", "lsp-set-addresses", "p2",
                "0a:00:00:00:00:02 10.0.0.2 fd00::2");
    }

    @Test
    void aServerAnswersOverTcpAndUdpOnIpv4AndIpv6AndRefusesOnceStopped() {
        try (EchoServer echo = server.serve(8080)) {
            for (Transport t : Transport.values()) {
                for (String address : new String[] {"10.0.0.1", "fd00::1"}) {
                    Reply r = client.request(t, address, 8080, TIMEOUT);
                    assertThat(r.server()).as("%s to %s: %s", t, address, r).contains("server");
                }
            }
            echo.stop();
            // No listener: the server's own kernel answers with a RST, or ICMP port unreachable for UDP.
            assertThat(client.request(Transport.TCP, "10.0.0.1", 8080, TIMEOUT).outcome()).isEqualTo(Reply.Outcome.REFUSED);
            assertThat(client.request(Transport.UDP, "fd00::1", 8080, TIMEOUT).outcome()).isEqualTo(Reply.Outcome.REFUSED);
            echo.start();
            assertThat(client.request(Transport.TCP, "10.0.0.1", 8080, TIMEOUT).server()).contains("server");
        }
    }

    @Test
    void aProbeMeasuresTheBlackoutOfAStoppedServer() {
        try (EchoServer echo = server.serve(8081);
                Prober probe = client.probe(Transport.TCP, "10.0.0.1", 8081, Duration.ofMillis(10), Duration.ofSeconds(1))) {
            assertThat(probe.awaitAnswer(Duration.ofSeconds(10))).isTrue();
            echo.stop();
            assertThat(probe.awaitFailure(Duration.ofSeconds(10))).isTrue();
            echo.start();
            assertThat(probe.awaitAnswer(Duration.ofSeconds(10))).isTrue();
            ProbeReport report = probe.stop();
            System.out.println("probe across a server restart: " + report);
            assertThat(report.answersBy()).containsOnlyKeys("server");
            assertThat(report.failures()).isPositive();
            assertThat(report.blackout()).isPositive();
            assertThat(report.endedDark()).isFalse();
        }
    }

    @Test
    void aSecondChassisRunsBesideTheFirstAndLeavesNothingBehind() {
        Chassis second = Chassis.start();
        try {
            switchWithTwoPorts(second);
            // The same logical ports, MAC and IP addresses as the first chassis's hosts: nothing is shared.
            Host s = second.host("server").port("p1").mac("0a:00:00:00:00:01").ipv4("10.0.0.1/24", null).start();
            Host c = second.host("client").port("p2").mac("0a:00:00:00:00:02").ipv4("10.0.0.2/24", null).start();
            s.serve(8082);
            assertThat(c.request(Transport.UDP, "10.0.0.1", 8082, TIMEOUT).server()).contains("server");
            assertThat(second.name()).isNotEqualTo(DATA_PLANE.chassis().name());
            assertThat(second.leftovers()).isNotEmpty();
        } finally {
            second.close();
        }
        assertThat(second.leftovers()).isEmpty();
        assertThat(DATA_PLANE.chassis().leftovers()).isNotEmpty();
    }

    @Test
    void aDeadVswitchdFailsTheRequestWithItsLastWords() {
        Chassis doomed = Chassis.start();
        try {
            switchWithTwoPorts(doomed);
            Host s = doomed.host("server").port("p1").mac("0a:00:00:00:00:01").ipv4("10.0.0.1/24", null).start();
            Host c = doomed.host("client").port("p2").mac("0a:00:00:00:00:02").ipv4("10.0.0.2/24", null).start();
            s.serve(8083);
            String pid = pidOfVswitchd(doomed);
            // SIGSEGV: ovs-vswitchd's fatal-signal handler logs before it dies, as on an assertion.
            Command.of("kill", "-SEGV", pid).check();
            Await.until(Duration.ofSeconds(20), "ovs-vswitchd to die", () -> {
                try {
                    doomed.assertAlive();
                    return false;
                } catch (TestkitException dead) {
                    return true;
                }
            });
            assertThatThrownBy(() -> c.request(Transport.TCP, "10.0.0.1", 8083, Duration.ofMillis(500)))
                    .isInstanceOf(TestkitException.class).hasMessageContaining("ovs-vswitchd of chassis " + doomed.name() + " died (killed by signal 11)")
                    .satisfies(e -> System.out.println("a request through a dead ovs-vswitchd: " + e.getMessage()));
        } finally {
            doomed.close();
        }
        assertThat(doomed.leftovers()).isEmpty();
    }

    private static String pidOfVswitchd(Chassis chassis) {
        Set<String> pids = new TreeSet<>();
        for (String ns : new String[] {chassis.name()}) {
            for (String pid : Command.of("ip", "netns", "pids", ns).check().split("\\s+")) {
                if (!pid.isBlank() && Command.of("cat", "/proc/" + pid + "/cmdline").check().contains("ovs-vswitchd")) {
                    pids.add(pid);
                }
            }
        }
        assertThat(pids).hasSize(1);
        return pids.iterator().next();
    }
}
