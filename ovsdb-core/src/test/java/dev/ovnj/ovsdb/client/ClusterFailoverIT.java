package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ClusterFailoverIT {

    @Test
    void killingTheLeaderDuringWritesResumesOnTheNewLeaderWithoutDuplicatesOrFullResync() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            for (int i = 0; i < 200; i++) {
                nbctl.run("ls-add", "seed-" + i);
            }
            Clients.EventLog log = new Clients.EventLog();
            OvsdbClient client = OvsdbClient.builder().remotes(cluster.remotes())
                    .backoff(Duration.ofMillis(50), Duration.ofSeconds(1)).build();
            client.addConnectionListener(log);
            try (client) {
                client.startAndWait(WAIT);
                int firstLeader = cluster.awaitLeader();
                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(firstLeader).remote()));
                long fullSyncBytes = client.stats().lastSyncBytes();
                int retriableFailures = 0;
                List<String> written = new ArrayList<>();
                for (int i = 0; i < 150; i++) {
                    if (i == 50) {
                        cluster.kill(firstLeader);
                    }
                    String name = "w-" + i;
                    while (true) {
                        try {
                            client.transactAndWait(client.transaction()
                                    .add(Operations.insert("Logical_Switch").value("name", name)).build(), WAIT);
                            written.add(name);
                            break;
                        } catch (OvsdbRpcException e) {
                            assertThat(e.retriable()).as(e.toString()).isTrue();
                            retriableFailures++;
                            // Never resend blindly: an in-flight transaction may have committed.
                            Await.until(WAIT, "resync", client::isSynced);
                            if (Clients.byName(client, "Logical_Switch", name).isPresent()) {
                                written.add(name);
                                break;
                            }
                        } catch (CompletionException e) {
                            throw e;
                        }
                    }
                }
                assertThat(retriableFailures).as("writes during failover saw retriable errors").isPositive();
                assertThat(client.connectedRemote()).isNotEqualTo(java.util.Optional.of(Remote.parse(cluster.member(firstLeader).remote())));
                assertThat(client.stats().resumedSyncs()).as("reconnect resumed with monitor_cond_since found=true").isPositive();
                assertThat(client.stats().fullSyncs()).as("only the first connection downloaded everything").isEqualTo(1);
                assertThat(client.stats().lastSyncBytes()).as("resume transfers far less than a full sync")
                        .isLessThan(fullSyncBytes / 5);

                // Every write exactly once, as an independent client sees the database.
                Map<String, Long> counts = nbctl.run("--bare", "--columns=name", "list", "Logical_Switch").lines()
                        .filter(l -> l.startsWith("w-")).collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
                assertThat(counts).hasSize(150).allSatisfy((k, v) -> assertThat(v).as(k).isEqualTo(1L));
                // The cache converges to the same rows.
                Await.until(WAIT, "cache converged", () -> client.cache().table("Logical_Switch").size() == 350);
                assertThat(client.cache().table("Logical_Switch").rows().stream().map(r -> (String) r.get("name"))
                        .filter(n -> n.startsWith("w-")).sorted().toList()).hasSize(150);
                assertThat(log.count(ConnectionEvent.Kind.SYNCED)).isGreaterThanOrEqualTo(2);
            }
            cluster.restart(0 == cluster.awaitLeader() ? 1 : 0);
        }
    }

    @Test
    void leaderOnlyClientSkipsFollowers() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            int leader = cluster.awaitLeader();
            // List the leader last so the client must reject the two followers first.
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                if (i != leader) {
                    order.add(cluster.member(i).remote());
                }
            }
            order.add(cluster.member(leader).remote());
            Clients.EventLog log = new Clients.EventLog();
            OvsdbClient client = OvsdbClient.builder().remotes(String.join(",", order)).build();
            client.addConnectionListener(log);
            try (client) {
                client.startAndWait(WAIT);
                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(leader).remote()));
                Await.until(Duration.ofSeconds(5), "events", () -> log.count(ConnectionEvent.Kind.SYNCED) == 1);
                assertThat(log.events.stream().filter(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED)
                        .map(e -> e.cause().orElseThrow().getMessage()))
                        .hasSize(2).allSatisfy(m -> assertThat(m).contains("is not the cluster leader"));
            }
            // Without leader-only, the first member is fine.
            Clients.EventLog anyLog = new Clients.EventLog();
            try (OvsdbClient any = OvsdbClient.builder().remotes(String.join(",", order)).leaderOnly(false).build()) {
                any.addConnectionListener(anyLog);
                any.startAndWait(WAIT);
                assertThat(any.connectedRemote()).as(anyLog.events.toString()).contains(Remote.parse(order.get(0)));
                Row nb = any.cache().table("Logical_Switch").rows().stream().findFirst().orElse(null);
                assertThat(nb).isNull();
            }
        }
    }
}
