package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployments reconcile runs in: two watchers of one owner during a rolling update, and a
 * desired-state file that is emptied or cut short. Each against a real ovsdb-server, rows read with
 * ovn-nbctl.
 */
@OvsdbTest
class DeploymentSafetyIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** A file of {@code n} one-VIP load balancers whose backends carry {@code version}. */
    private Path file(String name, int n, int version) throws Exception {
        StringBuilder yaml = new StringBuilder("owner: kube-dc\nloadBalancers:\n");
        for (int i = 0; i < n; i++) {
            yaml.append("  - name: svc-").append(i).append('\n')
                    .append("    routers: [shalb-dev]\n")
                    .append("    vips:\n")
                    .append("      - vip: 168.119.17.52:").append(1000 + i).append('\n')
                    .append("        backends: [10.1.").append(version).append('.').append(1 + i).append(":8080]\n");
        }
        Path f = dir.resolve(name);
        Files.writeString(f, n == 0 ? "owner: kube-dc\nloadBalancers: []\n" : yaml.toString());
        return f;
    }

    /** name=vips of every load balancer, sorted. */
    private static List<String> rows(Nbctl nbctl) {
        return nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips", "list", "Load_Balancer")
                .lines().filter(l -> !l.isBlank()).sorted().toList();
    }

    @Test
    void twoWatchersOfOneOwnerDuringARollingUpdateNeverFightAndTheNewOneTakesOver(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        Path oldFile = file("old.yaml", 6, 1);
        Path newFile = file("new.yaml", 7, 2);
        try (OvnjProcess old = OvnjProcess.start("reconcile", "--watch", "--db", server.remote(), "--file", oldFile.toString())) {
            Await.until(WAIT, "the old replica watches", () -> old.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            List<String> oldRows = rows(nbctl);
            assertThat(oldRows).hasSize(6).allMatch(r -> r.contains("10.1.1."));
            try (OvnjProcess next = OvnjProcess.start("reconcile", "--watch", "--timeout", "3", "--db", server.remote(),
                    "--file", newFile.toString())) {
                Await.until(WAIT, "the new replica says it stands by",
                        () -> next.stderr().stream().anyMatch(l -> l.contains("standby")));
                // Both running side by side: the rows never change.
                Set<List<String>> seen = new HashSet<>();
                long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < until) {
                    seen.add(rows(nbctl));
                    Thread.sleep(100);
                }
                assertThat(seen).as("what ovn-nbctl saw while both ran").containsExactly(oldRows);
                assertThat(old.stdout()).noneMatch(l -> l.startsWith("repaired "));

                // The old pod goes: the new one writes its own file.
                old.terminate();
                Await.until(WAIT, "the new replica's rows", () -> {
                    List<String> now = rows(nbctl);
                    return now.size() == 7 && now.stream().allMatch(r -> r.contains("10.1.2."));
                });
                nbctl.run("lb-del", "svc-2-tcp");
                Await.until(WAIT, "and repairs them", () -> rows(nbctl).size() == 7);
                next.terminate();
            }
        }
    }

    @Test
    void anEmptiedFileDeletesNothingAndSaysWhy(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        Path f = file("state.yaml", 8, 1);
        OvnjProcess.Result first = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", f.toString());
        assertThat(first.exit()).as(first.toString()).isZero();
        List<String> before = rows(nbctl);
        assertThat(before).hasSize(8);

        Path empty = file("empty.yaml", 0, 1);
        OvnjProcess.Result diff = OvnjProcess.run("diff", "--db", server.remote(), "--file", empty.toString());
        assertThat(diff.exit()).as(diff.toString()).isEqualTo(4);
        assertThat(diff.out()).contains("8 deletion(s) held").contains("= svc-3 kept: deletion held: this would delete 8 of the owner's 8");

        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", empty.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(r.out()).contains("8 kept although FILE no longer names them (deletion held)")
                .contains("held: svc-0, svc-1").contains("--allow-mass-delete");
        assertThat(rows(nbctl)).isEqualTo(before);

        OvnjProcess.Result json = OvnjProcess.run("reconcile", "-o", "json", "--db", server.remote(), "--file", empty.toString());
        assertThat(json.exit()).as(json.toString()).isEqualTo(4);
        assertThat(json.out()).contains("\"state\":\"held\"").contains("\"exitCode\":4");

        OvnjProcess.Result mass = OvnjProcess.run("reconcile", "--allow-mass-delete", "--db", server.remote(), "--file", empty.toString());
        assertThat(mass.exit()).as(mass.toString()).isZero();
        assertThat(rows(nbctl)).isEmpty();
    }

    @Test
    void underWatchAnEmptiedFileKeepsTheRowsAndRepairGoesOnForTheRest(OvsdbServer server) throws Exception {
        Nbctl nbctl = CommandsIT.seeded(server);
        Path f = file("state.yaml", 8, 1);
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", server.remote(), "--file", f.toString())) {
            Await.until(WAIT, "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            List<String> before = rows(nbctl);
            // A ConfigMap mounted half-written: the file is emptied in place.
            Files.writeString(f, "owner: kube-dc\nloadBalancers: []\n");
            Await.until(WAIT, "the held line", () -> p.stdout().stream().anyMatch(l -> l.startsWith("held: ")));
            assertThat(rows(nbctl)).isEqualTo(before);
            // Written in full again: nothing to do, nothing was lost.
            Files.writeString(f, Files.readString(file("again.yaml", 8, 1)));
            Await.until(WAIT, "the full file again", () -> p.stdout().stream().filter(l -> l.startsWith("owner kube-dc: 8 applied")).count() >= 2);
            assertThat(rows(nbctl)).isEqualTo(before);
            p.terminate();
        }
    }
}
