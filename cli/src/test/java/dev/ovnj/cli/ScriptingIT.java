package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.fault.FaultProxy;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as scripts use it: JSON output, version, completion; run as the packaged jar. */
@OvsdbTest
class ScriptingIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode json(OvnjProcess.Result r) throws Exception {
        assertThat(r.out().strip().lines().count()).as("one JSON document on one line: %s", r).isEqualTo(1);
        return JSON.readTree(r.out());
    }

    @Test
    void diffReconcileAndStatusPrintTheDocumentedJson(OvsdbServer server) throws Exception {
        CommandsIT.seeded(server);
        Path file = dir.resolve("state.yaml");
        Files.writeString(file, CommandsIT.STATE);
        String[] db = {"--db", server.remote(), "--file", file.toString()};

        OvnjProcess.Result diffBefore = OvnjProcess.run("diff", db[0], db[1], db[2], db[3], "--output", "json");
        assertThat(diffBefore.exit()).as(diffBefore.toString()).isEqualTo(1);
        JsonNode plan = json(diffBefore);
        assertThat(plan.path("kind").asText()).isEqualTo("diff");
        assertThat(plan.path("version").asInt()).isEqualTo(1);
        assertThat(plan.path("owner").asText()).isEqualTo("kube-dc");
        assertThat(plan.path("inSync").asBoolean()).isFalse();
        assertThat(plan.path("changes").findValuesAsText("type")).contains("create-row");
        assertThat(plan.path("changes").findValuesAsText("subject")).contains("shalb-dev-etcd-lb-tcp", "shalb-dev-dns-udp");
        assertThat(plan.path("conflicts").isArray()).isTrue();
        assertThat(plan.path("problems").isEmpty()).isTrue();

        OvnjProcess.Result reconcile = OvnjProcess.run("reconcile", db[0], db[1], db[2], db[3], "-o", "JSON");
        assertThat(reconcile.exit()).as(reconcile.toString()).isZero();
        JsonNode applied = json(reconcile);
        assertThat(applied.path("kind").asText()).isEqualTo("reconcile");
        assertThat(applied.path("exitCode").asInt()).isZero();
        assertThat(applied.path("specs").findValuesAsText("name")).containsExactly("shalb-dev-dns", "shalb-dev-etcd-lb");
        assertThat(applied.path("specs").findValuesAsText("state")).containsOnly("applied");
        assertThat(applied.path("conflicts").isArray()).isTrue();
        assertThat(applied.path("failures").isArray()).isTrue();
        assertThat(reconcile.err()).as("no progress line without a terminal").doesNotContain("waiting for the database");

        OvnjProcess.Result status = OvnjProcess.run("status", "--db", server.remote(), "--output", "json");
        assertThat(status.exit()).as(status.toString()).isZero();
        JsonNode report = json(status);
        assertThat(report.path("kind").asText()).isEqualTo("status");
        assertThat(report.path("problems").asInt()).isZero();
        JsonNode etcd = null;
        for (JsonNode lb : report.path("loadBalancers")) {
            if (lb.path("name").asText().equals("shalb-dev-etcd-lb-tcp")) {
                etcd = lb;
            }
        }
        assertThat(etcd).as("etcd load balancer in %s", report).isNotNull();
        assertThat(etcd.path("owner").asText()).isEqualTo("kube-dc");
        assertThat(etcd.path("protocol").asText()).isEqualTo("tcp");
        assertThat(JSON.convertValue(etcd.path("vips").path("168.119.17.51:2379"), String[].class))
                .containsExactly("10.1.0.40:2379", "10.1.0.41:2379");
        assertThat(JSON.convertValue(etcd.path("routers"), String[].class)).containsExactly("shalb-dev");
        assertThat(JSON.convertValue(etcd.path("switches"), String[].class)).containsExactly("shalb-dev-default");

        OvnjProcess.Result diffAfter = OvnjProcess.run("diff", db[0], db[1], db[2], db[3], "--output=json");
        assertThat(diffAfter.exit()).as(diffAfter.toString()).isZero();
        assertThat(json(diffAfter).path("inSync").asBoolean()).isTrue();
    }

    @Test
    void aSlowReconcileShowsAProgressLineOnATerminalOnly(OvsdbServer server) throws Exception {
        CommandsIT.seeded(server);
        Path file = dir.resolve("state.yaml");
        Files.writeString(file, CommandsIT.STATE);
        try (FaultProxy slow = FaultProxy.to(server)) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String ovnj = java + " -jar " + OvnjProcess.JAR + " reconcile --db " + slow.remote() + " --file " + file
                    + " --timeout 60";
            // Every round trip takes 2.4 s, so the apply's transaction alone outlasts the 2 s delay.
            slow.latency(Duration.ofMillis(1200));
            // script(1) gives the command a pseudo-terminal, as an interactive shell would.
            Process p = new ProcessBuilder("script", "-qec", ovnj, "/dev/null").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(out).contains("owner kube-dc: 2 applied").contains("reconciling owner kube-dc: waiting for the database (");
        }
    }

    @Test
    void anUnknownOutputFormatIsAUsageError() {
        OvnjProcess.Result r = OvnjProcess.run("status", "--db", "tcp:127.0.0.1:1", "--output", "yaml");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("--output").contains("yaml");
    }

    @Test
    void versionNamesTheOvnReleaseAndTheSchemaItWasBuiltAgainst() throws Exception {
        OvnjProcess.Result text = OvnjProcess.run("version");
        assertThat(text.exit()).as(text.toString()).isZero();
        assertThat(text.out()).contains("ovnj 0.1.0").contains("built against OVN 26.03, OVN_Northbound schema " + OvnNorthboundModel.MODEL.version());

        JsonNode v = json(OvnjProcess.run("version", "--output", "json"));
        assertThat(v.path("kind").asText()).isEqualTo("version");
        assertThat(v.path("ovnRelease").asText()).isEqualTo("26.03");
        assertThat(v.path("schema").path("name").asText()).isEqualTo("OVN_Northbound");
        assertThat(v.path("schema").path("version").asText()).isEqualTo(OvnNorthboundModel.MODEL.version());

        assertThat(OvnjProcess.run("--version").out()).contains("OVN_Northbound schema " + OvnNorthboundModel.MODEL.version());
    }

    @Test
    void completionIsABashScriptThatKnowsEverySubcommandAndOption() throws Exception {
        OvnjProcess.Result r = OvnjProcess.run("completion");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("complete -F").contains("reconcile").contains("status").contains("diff")
                .contains("version").contains("--output");
        // bash itself accepts the script.
        Path script = dir.resolve("ovnj-completion.bash");
        Files.writeString(script, r.out());
        Process bash = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes());
        assertThat(bash.waitFor()).as(out).isZero();
    }
}
