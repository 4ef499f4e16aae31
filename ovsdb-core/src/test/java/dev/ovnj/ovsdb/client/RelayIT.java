package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbRelay;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ovnj through real {@code ovsdb-server relay:} processes. */
class RelayIT {

    private static void insertSwitch(OvsdbClient client, String name) {
        client.transactAndWait(client.transaction().add(Operations.insert("Logical_Switch").value("name", name)).build(), WAIT);
    }

    /** Writes, retrying only what is known not to be in the database: a write is never doubled. */
    private static void insertSwitchRetrying(OvsdbClient client, String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                insertSwitch(client, name);
                return;
            } catch (OvsdbRpcException e) {
                if (!e.retriable() || System.nanoTime() > deadline) {
                    throw e;
                }
                Await.until(WAIT, "synced again", client::isSynced);
                if (Clients.byName(client, "Logical_Switch", name).isPresent()) {
                    return;
                }
            }
        }
    }

    @Test
    void readsMonitorsAndTransactionsGoThroughARelay() throws Exception {
        try (OvsdbServer source = OvsdbServer.start()) {
            Nbctl sourceCtl = Nbctl.of(source);
            sourceCtl.run("ls-add", "before");
            try (OvsdbRelay relay = OvsdbRelay.start(source); OvsdbClient client = Clients.connect(relay.remote())) {
                assertThat(client.serverModel()).contains(ServerModel.RELAY);
                assertThat(client.connectedRemote()).contains(Remote.parse(relay.remote()));
                Clients.awaitRow(client, "Logical_Switch", "before");

                List<UpdateBatch> side = new CopyOnWriteArrayList<>();
                client.monitor(MonitorRequest.tables("Logical_Router"), side::add).get(20, TimeUnit.SECONDS);
                sourceCtl.run("ls-add", "made-on-source");
                sourceCtl.run("lr-add", "router-on-source");
                Clients.awaitRow(client, "Logical_Switch", "made-on-source");
                Await.until(WAIT, "side monitor update through the relay", () -> side.stream()
                        .flatMap(b -> b.updates().stream()).anyMatch(u -> "router-on-source".equals(u.row().path("name").asText())));

                insertSwitch(client, "made-through-relay");
                assertThat(Clients.byName(client, "Logical_Switch", "made-through-relay")).isPresent();
                assertThat(sourceCtl.run("--bare", "--columns=name", "find", "Logical_Switch", "name=made-through-relay").trim())
                        .isEqualTo("made-through-relay");
                assertThat(client.stats().connects()).isEqualTo(1);
            }
        }
    }

    @Test
    void relayOfAClusterThatLosesItsLeaderKeepsTakingWrites() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3); OvsdbRelay relay = OvsdbRelay.start(cluster);
             OvsdbClient client = OvsdbClient.builder().remotes(relay.remote())
                     .backoff(Duration.ofMillis(50), Duration.ofSeconds(1)).build().startAndWait(WAIT)) {
            insertSwitch(client, "before-failover");
            int leader = cluster.awaitLeader();
            cluster.kill(leader);
            insertSwitchRetrying(client, "after-failover");
            assertThat(Clients.byName(client, "Logical_Switch", "after-failover")).isPresent();
            cluster.awaitLeader();
            String names = Nbctl.of(cluster).run("--bare", "--columns=name", "list", "Logical_Switch");
            assertThat(names.lines().map(String::trim).filter(l -> !l.isEmpty()).toList())
                    .containsExactlyInAnyOrder("before-failover", "after-failover");
        }
    }

    @Test
    void mixedListPrefersWhatComesFirstAndFailsOverBetweenRelayAndLeader() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3); OvsdbRelay relay = OvsdbRelay.start(cluster.remotes())) {
            // Relay first: a read-mostly client lands on the relay.
            String relayFirst = relay.remote() + "," + cluster.remotes();
            try (OvsdbClient client = OvsdbClient.builder().remotes(relayFirst)
                    .backoff(Duration.ofMillis(50), Duration.ofSeconds(1)).build().startAndWait(WAIT)) {
                assertThat(client.serverModel()).contains(ServerModel.RELAY);
                insertSwitch(client, "via-relay");
                relay.kill();
                Await.until(WAIT, "moved to the cluster leader", () -> client.isSynced()
                        && client.serverModel().equals(java.util.Optional.of(ServerModel.CLUSTERED)));
                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(cluster.awaitLeader()).remote()));
                Clients.awaitRow(client, "Logical_Switch", "via-relay");
                insertSwitchRetrying(client, "via-leader");
            }
            relay.restart();
            // Members first: a writer lands on the leader, never on a follower.
            String membersFirst = cluster.remotes() + "," + relay.remote();
            try (OvsdbClient client = Clients.connect(membersFirst)) {
                assertThat(client.serverModel()).contains(ServerModel.CLUSTERED);
                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(cluster.awaitLeader()).remote()));
                Clients.awaitRow(client, "Logical_Switch", "via-leader");
            }
        }
    }
}
