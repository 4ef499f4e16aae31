package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbRelay;
import dev.ovnj.testkit.OvsdbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ovnj reconcile} and {@code reconcile --watch} through an {@code ovsdb-server} relay,
 * checked on the relay's source.
 */
class RelayCommandsIT {
    @TempDir
    Path dir;

    private Path state() throws Exception {
        Path f = dir.resolve("state.yaml");
        Files.writeString(f, CommandsIT.STATE);
        return f;
    }

    private static List<String> names(Nbctl nbctl) {
        return nbctl.run("--bare", "--columns=name", "list", "Load_Balancer").lines().filter(l -> !l.isBlank()).sorted().toList();
    }

    @Test
    void reconcileThroughARelayWritesToTheSource() throws Exception {
        try (OvsdbServer source = OvsdbServer.start(); OvsdbRelay relay = OvsdbRelay.start(source.remote())) {
            Nbctl nbctl = CommandsIT.seeded(source);
            OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", relay.remote(), "--file", state().toString());
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.out()).contains("owner kube-dc: 2 applied");
            assertThat(names(nbctl)).containsExactly("shalb-dev-dns-udp", "shalb-dev-etcd-lb-tcp");
            assertThat(nbctl.run("lr-lb-list", "shalb-dev")).contains("168.119.17.51:2379").contains("10.1.0.20:53");
        }
    }

    @Test
    void watchThroughARelayRepairsDriftMadeOnTheSource() throws Exception {
        try (OvsdbServer source = OvsdbServer.start(); OvsdbRelay relay = OvsdbRelay.start(source.remote())) {
            Nbctl nbctl = CommandsIT.seeded(source);
            try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", relay.remote(), "--file", state().toString())) {
                Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
                nbctl.run("lb-del", "shalb-dev-etcd-lb-tcp");
                Await.until(Duration.ofSeconds(10), "repair through the relay", () -> p.stdout().stream()
                        .anyMatch(l -> l.startsWith("repaired shalb-dev-etcd-lb-tcp")));
                Await.until(Duration.ofSeconds(10), "repaired row on the source",
                        () -> nbctl.run("lr-lb-list", "shalb-dev").contains("168.119.17.51:2379"));
                p.terminate();
                OvnjProcess.Result r = p.await(Duration.ofSeconds(15));
                assertThat(r.exit()).as(r.toString()).isZero();
            }
            assertThat(names(nbctl)).containsExactly("shalb-dev-dns-udp", "shalb-dev-etcd-lb-tcp");
        }
    }
}
