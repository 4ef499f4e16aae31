package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ovnj nbctl} as a script sees it (the shaded ovnj.jar in its own JVM) next to
 * {@code ovn-nbctl} on a second fresh database: exit codes, outputs and error messages, with
 * UUIDs blanked (the differential test in ovn-nb-model maps them to rows and compares databases).
 */
class NbctlCommandIT {
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static final List<List<String>> LINES = List.of(
            List.of("ls-add", "sw0", "--", "lsp-add", "sw0", "p1", "--", "lsp-set-addresses", "p1",
                    "00:00:00:00:00:01 10.0.0.5"),
            List.of("ls-add", "sw0"),
            List.of("--may-exist", "ls-add", "sw0"),
            List.of("lr-add", "r1", "--", "lrp-add", "r1", "r1-ext", "00:00:00:00:ff:01", "172.16.0.1/24"),
            List.of("lr-nat-add", "r1", "snat", "172.16.0.10", "10.0.0.0/24"),
            List.of("lr-nat-add", "r1", "dnat_and_snat", "172.16.0.999", "10.0.0.5"),
            List.of("lr-route-add", "r1", "10.1.0.7/16", "172.16.0.254"),
            List.of("lr-route-list", "r1"),
            List.of("lr-nat-list", "r1"),
            List.of("acl-add", "sw0", "to-lport", "1000", "ip4.src==10.0.0.0/24", "allow-related"),
            List.of("acl-list", "sw0"),
            List.of("--bare", "--columns=name", "find", "Logical_Switch_Port", "name=p1"),
            List.of("get", "Logical_Switch_Port", "p1", "addresses"),
            List.of("lsp-del", "nosuch"),
            List.of("bogus-command"));

    @Test
    void scriptsSeeWhatOvnNbctlPrints() {
        try (OvsdbServer real = OvsdbServer.start(); OvsdbServer ours = OvsdbServer.start()) {
            for (List<String> line : LINES) {
                List<String> argv = new ArrayList<>(List.of("ovn-nbctl", "--db=" + real.remote(), "--timeout=20"));
                argv.addAll(line);
                Command.Result expected = Command.of(argv).timeout(Duration.ofSeconds(30)).run();
                List<String> ovnj = new ArrayList<>(List.of("nbctl", "--db=" + ours.remote(), "--timeout=20"));
                ovnj.addAll(line);
                OvnjProcess.Result actual = OvnjProcess.run(ovnj.toArray(String[]::new));
                String where = String.join(" ", line);
                assertThat(actual.exit()).as(where + ": " + actual.err()).isEqualTo(expected.exitCode());
                assertThat(blank(actual.out())).as(where).isEqualTo(blank(expected.stdout()));
                assertThat(blank(actual.err())).as(where).isEqualTo(blank(expected.stderr()));
            }
        }
    }

    @Test
    void sslRemotesTakeOvnNbctlsKeyOptions() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            var certs = server.certificates().orElseThrow();
            String remote = server.sslRemote().orElseThrow();
            OvnjProcess.Result created = OvnjProcess.run("nbctl", "--db=" + remote, "-p", certs.clientKey().toString(), "-c",
                    certs.clientCert().toString(), "-C", certs.caCert().toString(), "ls-add", "tls0", "--", "ls-list");
            assertThat(created.exit()).as(created.err()).isZero();
            assertThat(created.out()).contains("(tls0)");
            OvnjProcess.Result refused = OvnjProcess.run("nbctl", "--db=" + remote, "ls-list");
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err()).startsWith("ovn-nbctl: ").contains("--private-key");
        }
    }

    private static String blank(String text) {
        return UUID.matcher(text.strip()).replaceAll("<uuid>");
    }
}
