package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.Sbctl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health checks through the packaged {@code ovnj}: a desired-state file with {@code healthCheck},
 * {@code healthCheckSources} and an explicit backend {@code port} is reconciled against NB and SB
 * ovsdb-servers with ovn-northd; {@code ovnj status --sb} prints each backend's health as OVN's
 * service monitor has it; a backend without a port makes a one-shot reconcile exit 1 naming it.
 */
class HealthCheckCliIT {
    static final String STATE = """
            owner: kube
            healthCheckSources:
              ls-int: [10.0.0.254]
            loadBalancers:
              - name: web
                routers: [lr0]
                switches: [ls-int]
                vips:
                  - vip: 172.16.0.100:80
                    backends:
                      - 10.0.0.2:80
                      - address: 10.0.0.3:80
                        port: web2
                    healthCheck: {interval: 5, timeout: 10, successCount: 2, failureCount: 2}
            """;

    @TempDir
    Path dir;

    private OvnCentral ovn;
    private Nbctl nbctl;
    private Sbctl sbctl;

    @BeforeEach
    void start() {
        ovn = OvnCentral.start();
        nbctl = ovn.nbctl();
        sbctl = ovn.sbctl();
        BackendTopology.of(ovn).create();
    }

    @AfterEach
    void stop() {
        ovn.close();
    }

    @Test
    void reconcileThenStatusShowsWhatTheServiceMonitorSays() throws Exception {
        Path file = dir.resolve("state.yaml");
        Files.writeString(file, STATE);
        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "list", "load_balancer").trim())
                .isEqualTo("10.0.0.2=web1:10.0.0.254 10.0.0.3=web2:10.0.0.254");
        assertThat(nbctl.run("--bare", "--columns=options", "list", "load_balancer_health_check").trim())
                .isEqualTo("failure_count=2 interval=5 success_count=2 timeout=10");
        ovn.sync();
        for (String p : new String[] {"web1", "web2"}) {
            sbctl.run("set", "port_binding", sbctl.run("--bare", "--columns=_uuid", "find", "port_binding", "logical_port=" + p).trim(), "up=true");
        }
        sbctl.run("set", "service_monitor", sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor", "logical_port=web1").trim(),
                "status=offline");
        sbctl.run("set", "service_monitor", sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor", "logical_port=web2").trim(),
                "status=online");
        OvnjProcess.Result s = OvnjProcess.run("status", "--db", ovn.northbound().remote(), "--sb", ovn.southbound().remote());
        assertThat(s.exit()).as(s.toString()).isZero();
        assertThat(s.toString()).contains("172.16.0.100:80 -> 10.0.0.2:80,10.0.0.3:80")
                .contains("health: 10.0.0.2:80 offline, 10.0.0.3:80 online")
                .contains("web-tcp (spec web, tcp) degraded").contains("172.16.0.100:80 -> 10.0.0.2:80,10.0.0.3:80  [degraded]")
                .contains("health-check sources: 10.0.0.2 on web1 from 10.0.0.254, 10.0.0.3 on web2 from 10.0.0.254");
        OvnjProcess.Result rj = OvnjProcess.run("reconcile", "-o", "json", "--db", ovn.northbound().remote(), "--sb",
                ovn.southbound().remote(), "--file", file.toString());
        assertThat(rj.out()).as(rj.toString()).contains("\"name\":\"web\",\"state\":\"applied\",\"operatingStatus\":\"degraded\"")
                .contains("\"healthCheckSources\":{\"10.0.0.2:80\":{\"address\":\"10.0.0.254\",\"chosen\":false},"
                        + "\"10.0.0.3:80\":{\"address\":\"10.0.0.254\",\"chosen\":false}}");
        OvnjProcess.Result j = OvnjProcess.run("status", "-o", "json", "--db", ovn.northbound().remote(), "--sb", ovn.southbound().remote());
        assertThat(j.out()).as(j.toString()).contains("\"operatingStatus\":\"degraded\"")
                .contains("\"vipOperatingStatus\":{\"172.16.0.100:80\":\"degraded\"}")
                .contains("\"healthCheckSources\":{\"10.0.0.2\":{\"port\":\"web1\",\"source\":\"10.0.0.254\"},"
                        + "\"10.0.0.3\":{\"port\":\"web2\",\"source\":\"10.0.0.254\"}}");
        // Without --sb nothing says how the checked VIP fares.
        OvnjProcess.Result noSb = OvnjProcess.run("status", "-o", "json", "--db", ovn.northbound().remote());
        assertThat(noSb.out()).as(noSb.toString()).contains("\"operatingStatus\":\"unknown\"");

        // reconcile --watch --sb prints a line when the monitor changes its verdict.
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", ovn.northbound().remote(), "--sb", ovn.southbound().remote(),
                "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            sbctl.run("set", "service_monitor", sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor", "logical_port=web1").trim(),
                    "status=online");
            try {
                Await.until(Duration.ofSeconds(20), "health line", () -> p.stdout().contains("health: spec web backend 10.0.0.2:80 online (was offline)"));
            } catch (RuntimeException e) {
                throw new AssertionError("watch stdout: " + p.stdout() + " stderr: " + p.stderr() + " sb: "
                        + sbctl.run("--columns=logical_port,status", "list", "service_monitor"), e);
            }
            p.terminate();
        }

        // A backend whose address no port has: the one-shot reconcile exits 1 and names it.
        Files.writeString(file, STATE.replace("- 10.0.0.2:80", "- 10.0.0.9:80"));
        OvnjProcess.Result w = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", file.toString());
        assertThat(w.exit()).as(w.toString()).isEqualTo(1);
        assertThat(w.toString()).contains("backend 10.0.0.9").contains("no logical switch port has address 10.0.0.9");
        assertThat(nbctl.run("--bare", "--columns=ip_port_mappings", "list", "load_balancer").trim())
                .isEqualTo("10.0.0.3=web2:10.0.0.254");
    }

    @Test
    void aSpecTheEngineFindsInvalidMakesReconcileAndDiffExitTwoNamingIt() throws Exception {
        Path f = dir.resolve("bad-source.yaml");
        Files.writeString(f, STATE.replace("healthCheck: {interval: 5, timeout: 10, successCount: 2, failureCount: 2}",
                "healthCheck: {sourceIp: 192.168.50.5}"));
        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", ovn.northbound().remote(), "--file", f.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).as(r.toString()).contains("web invalid: ").contains("192.168.50.5").contains("(not written)");
        assertThat(r.out()).contains("1 invalid, not written");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).doesNotContain("web-tcp");

        OvnjProcess.Result d = OvnjProcess.run("diff", "--db", ovn.northbound().remote(), "--file", f.toString());
        assertThat(d.exit()).as(d.toString()).isEqualTo(2);
        assertThat(d.out()).contains("x web invalid: ");
    }
}
