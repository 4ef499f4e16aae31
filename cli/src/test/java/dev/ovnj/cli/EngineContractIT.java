package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI when a database that rejects writes or stops answering, and conflicts with rows ovnj does not own. */
@OvsdbTest
class EngineContractIT {
    @TempDir
    Path dir;

    Path state() throws Exception {
        Path f = dir.resolve("state.yaml");
        Files.writeString(f, CommandsIT.STATE);
        return f;
    }

    @Test
    void reconcileAgainstAReadOnlyDatabaseExitsTwoAtOnceWithTheServersError(OvsdbServer primary) throws Exception {
        CommandsIT.seeded(primary);
        try (OvsdbServer backup = OvsdbServer.builder().extraArgs("--sync-from=" + primary.remote()).start()) {
            // Until NB_Global has replicated, ovn-nbctl tries to insert it and the read-only backup refuses.
            Await.until(Duration.ofSeconds(20), "backup replicated", () -> {
                try {
                    return Nbctl.of(backup).run("lr-list").contains("shalb-dev");
                } catch (NbctlException notYet) {
                    return false;
                }
            });
            long start = System.nanoTime();
            OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", backup.remote(), "--file", state().toString());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            // JVM start and connecting included; the engine itself gives up on the first rejection.
            assertThat(took).as(r.toString()).isLessThan(Duration.ofSeconds(8));
            List<String> err = r.err().lines().filter(l -> !l.isBlank()).toList();
            assertThat(err).as(r.toString()).isNotEmpty().hasSizeLessThanOrEqualTo(4);
            assertThat(err.get(err.size() - 1)).startsWith("the database rejected the changes of 2 load balancer(s)")
                    .contains("not allowed");
            assertThat(r.err()).doesNotContain("did not accept").doesNotContain("\tat ");
            assertThat(Nbctl.of(primary).run("--bare", "--columns=name", "list", "Load_Balancer")).isEmpty();
        }
    }

    @Test
    void aConflictIsReportedEverythingElseWrittenAndExitIsThree(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        nbctl.run("lb-add", "kube-lb", "168.119.17.51:2379", "172.18.0.2:2379");
        nbctl.run("lr-lb-add", "shalb-dev", "kube-lb");
        String uuid = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-lb").trim();
        String before = nbctl.run("list", "Load_Balancer", "kube-lb");
        Path file = state();

        OvnjProcess.Result diff = OvnjProcess.run("diff", "--db", server.remote(), "--file", file.toString());
        assertThat(diff.exit()).as(diff.toString()).isEqualTo(3);
        assertThat(diff.out()).contains("! conflict: spec shalb-dev-etcd-lb: load balancer kube-lb (uuid " + uuid);

        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", file.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(3);
        assertThat(r.out().lines().filter(l -> l.contains(" conflict: ")).toList()).singleElement().asString()
                .isEqualTo("shalb-dev-etcd-lb conflict: load balancer kube-lb (uuid " + uuid
                        + ", another client) already serves tcp 168.119.17.51:2379 on router shalb-dev; not written");
        assertThat(r.out()).contains("owner kube-dc: 1 applied, 1 in conflict, not written");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer").lines().filter(l -> !l.isBlank()).sorted().toList())
                .containsExactly("kube-lb", "shalb-dev-dns-udp");
        assertThat(nbctl.run("list", "Load_Balancer", "kube-lb")).isEqualTo(before);

        OvnjProcess.Result status = OvnjProcess.run("status", "--db", server.remote(), "--file", file.toString());
        assertThat(status.exit()).as(status.toString()).isEqualTo(1);
        assertThat(status.out().lines().filter(l -> l.startsWith("conflict: "))).singleElement().asString()
                .contains("spec shalb-dev-etcd-lb").contains("kube-lb").contains(uuid);

        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", server.remote(), "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            assertThat(p.stdout()).anyMatch(l -> l.startsWith("shalb-dev-etcd-lb conflict: "));
            nbctl.run("lb-del", "shalb-dev-dns-udp");
            Await.until(Duration.ofSeconds(10), "still repairing", () -> p.stdout().stream().anyMatch(l -> l.startsWith("repaired shalb-dev-dns-udp")));
            nbctl.run("lb-del", "kube-lb");
            Await.until(Duration.ofSeconds(10), "conflict resolved and written",
                    () -> nbctl.run("lr-lb-list", "shalb-dev").contains("10.1.0.40:2379"));
            p.terminate();
            OvnjProcess.Result w = p.await(Duration.ofSeconds(15));
            assertThat(w.exit()).as(w.toString()).isZero();
        }
    }

    @Test
    void aFrozenDatabaseFailsTheApplyWithinTimeoutAndWatchWritesItOnceBack(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        Path file = state();
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--timeout", "2", "--db", server.remote(),
                "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            server.pause();
            try {
                Files.writeString(file, CommandsIT.STATE.replace("10.1.0.41:2379]", "10.1.0.41:2379, 10.1.0.42:2379]"));
                Await.until(Duration.ofSeconds(15), "the engine's timeout reported", () -> p.stderr().stream()
                        .anyMatch(l -> l.startsWith("the database did not accept the changes within 2 s (")));
            } finally {
                server.resume();
            }
            String line = p.stderr().stream().filter(l -> l.startsWith("the database did not accept")).findFirst().orElseThrow();
            assertThat(line).contains("not yet written: 1 load balancer(s) (shalb-dev-etcd-lb)").endsWith("(the engine keeps watching)");
            Await.until(Duration.ofSeconds(20), "written once the database is back, with no new apply",
                    () -> nbctl.run("lr-lb-list", "shalb-dev").contains("10.1.0.42:2379"));
            p.terminate();
            OvnjProcess.Result w = p.await(Duration.ofSeconds(15));
            assertThat(w.exit()).as(w.toString()).isZero();
            assertThat(w.err()).doesNotContain("\tat ");
        }
    }

    @Test
    void watchPrintsOneSummaryLineForAMassRepair(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        StringBuilder yaml = new StringBuilder("owner: kube-dc\nloadBalancers:\n");
        List<String> deletes = new java.util.ArrayList<>();
        for (int i = 0; i < 15; i++) {
            yaml.append("  - name: svc-").append(i).append("\n    switches: [shalb-dev-default]\n    vips:\n")
                    .append("      - vip: 10.96.0.").append(i + 1).append(":80\n        backends: [10.1.0.").append(i + 1).append(":8080]\n");
            if (!deletes.isEmpty()) {
                deletes.add("--");
            }
            deletes.add("lb-del");
            deletes.add("svc-" + i + "-tcp");
        }
        Path file = dir.resolve("many.yaml");
        Files.writeString(file, yaml.toString());
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", server.remote(), "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            nbctl.run(deletes.toArray(String[]::new));
            Await.until(Duration.ofSeconds(10), "summary line", () -> p.stdout().stream()
                    .anyMatch(l -> l.matches("repaired 15 rows of owner kube-dc in \\d+\\.\\d ms \\(15 recreated\\)")));
            p.terminate();
            OvnjProcess.Result w = p.await(Duration.ofSeconds(15));
            assertThat(w.exit()).as(w.toString()).isZero();
            assertThat(w.out().lines().filter(l -> l.startsWith("repaired svc-"))).as("no line per row").isEmpty();
        }
    }
}
