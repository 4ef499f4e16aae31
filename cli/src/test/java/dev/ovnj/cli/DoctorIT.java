package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ovnj doctor} as the packaged jar against NB and SB ovsdb-servers with ovn-northd: a load
 * balancer written by {@code ovnj reconcile} is healthy, then one thing breaks; text and JSON
 * output, exit codes 0, 1 and 2, and the skipped Southbound checks without {@code --sb}.
 */
class DoctorIT {
    static final String STATE = """
            owner: kube
            loadBalancers:
              - name: web
                routers: [lr0]
                switches: [ls-int]
                vips:
                  - vip: 172.16.0.100:80
                    backends: [10.0.0.2:80, 10.0.0.3:80]
            """;

    @TempDir
    Path dir;

    private OvnCentral ovn;
    private Path file;

    @BeforeEach
    void start() throws Exception {
        ovn = OvnCentral.start();
        BackendTopology.of(ovn).withGateway().create();
        file = dir.resolve("state.yaml");
        Files.writeString(file, STATE);
        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        ovn.sync();
    }

    @AfterEach
    void stop() {
        ovn.close();
    }

    private OvnjProcess.Result doctor(String... more) {
        String[] args = new String[more.length + 3];
        args[0] = "doctor";
        args[1] = "--db";
        args[2] = ovn.northbound().remote();
        System.arraycopy(more, 0, args, 3, more.length);
        return OvnjProcess.run(args);
    }

    @Test
    void healthyThenBrokenInTextAndJson() throws Exception {
        String sb = ovn.southbound().remote();
        // The ovn-trace of the release under test (testkit's OvnRelease), as an operator would pass it.
        String traceCommand = String.join(" ", OvnRelease.current().command("ovn-trace"));
        OvnjProcess.Result healthy = doctor("--sb", sb, "--file", file.toString(), "--trace", "--trace-command", traceCommand);
        assertThat(healthy.exit()).as(healthy.toString()).isZero();
        assertThat(healthy.out()).isEqualTo("1 load balancers checked, 0 errors, 0 warnings");

        OvnjProcess.Result noSouthbound = doctor("--owner", "kube");
        assertThat(noSouthbound.exit()).as(noSouthbound.toString()).isZero();
        assertThat(noSouthbound.out()).contains("skipped chassisredirect-unbound, northd-not-synced, no-lflow, backend-offline, "
                + "trace-mismatch: needs the Southbound database (--sb)").endsWith("1 load balancers checked, 0 errors, 0 warnings");

        ovn.sbctl().run("lsp-unbind", "cr-lrp-ext");
        OvnjProcess.Result text = doctor("--sb", sb, "--file", file.toString());
        assertThat(text.exit()).as(text.toString()).isEqualTo(1);
        assertThat(text.out()).startsWith("web:\n  error chassisredirect-unbound: Port_Binding cr-lrp-ext")
                .endsWith("1 load balancers checked, 1 errors, 0 warnings");

        OvnjProcess.Result json = doctor("--sb", sb, "--owner", "kube", "--lb", "web", "--vip", "172.16.0.100:80", "--json");
        assertThat(json.exit()).as(json.toString()).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.get("checked").asInt()).isEqualTo(1);
        assertThat(root.get("findings")).hasSize(1);
        JsonNode f = root.get("findings").get(0);
        assertThat(f.get("code").asText()).isEqualTo("chassisredirect-unbound");
        assertThat(f.get("severity").asText()).isEqualTo("error");
        assertThat(f.get("lb").asText()).isEqualTo("web");
        assertThat(f.get("vip").isNull()).isTrue();
        assertThat(f.get("message").asText()).contains("lr0");
        assertThat(f.get("fix").asText()).isNotBlank();

        // The option every other command takes, and the document's kind and version as every document has.
        OvnjProcess.Result output = doctor("--sb", sb, "--owner", "kube", "-o", "json");
        assertThat(output.exit()).as(output.toString()).isEqualTo(1);
        JsonNode doc = new ObjectMapper().readTree(output.out());
        assertThat(doc.get("kind").asText()).isEqualTo("doctor");
        assertThat(doc.get("version").asInt()).isEqualTo(1);
        assertThat(doc.get("findings")).hasSize(1);

        // A mistyped owner is not a healthy one.
        OvnjProcess.Result typo = doctor("--sb", sb, "--owner", "kueb");
        assertThat(typo.exit()).as(typo.toString()).isEqualTo(2);
        assertThat(typo.err()).contains("owner kueb has no load balancers");
    }

    // 5 s, not 1: the Northbound part must connect and sync within the timeout before the unreachable
    // Southbound is reported, and on a loaded machine that alone took longer than a second.
    @Test
    void couldNotCheckExitsTwo() throws Exception {
        OvnjProcess.Result unreachable = doctor("--sb", "tcp:127.0.0.1:1", "--timeout", "5");
        assertThat(unreachable.exit()).as(unreachable.toString()).isEqualTo(2);
        assertThat(unreachable.err()).contains("cannot reach the OVN Southbound database at tcp:127.0.0.1:1");

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "owner: kube\nloadBalancers: [{name: web, vips: [{vip: nonsense}]}\n");
        OvnjProcess.Result badFile = doctor("--file", bad.toString());
        assertThat(badFile.exit()).as(badFile.toString()).isEqualTo(2);

        Path invalid = dir.resolve("invalid.yaml");
        Files.writeString(invalid, STATE.replace("10.0.0.3:80", "10.0.0.3:99999"));
        OvnjProcess.Result invalidSpec = doctor("--file", invalid.toString());
        assertThat(invalidSpec.exit()).as(invalidSpec.toString()).isEqualTo(2);
        assertThat(invalidSpec.err()).contains("invalid.yaml:").contains("99999");

        OvnjProcess.Result badVip = doctor("--vip", "not-a-vip");
        assertThat(badVip.exit()).as(badVip.toString()).isEqualTo(2);
        assertThat(badVip.err()).startsWith("--vip:");
    }
}
