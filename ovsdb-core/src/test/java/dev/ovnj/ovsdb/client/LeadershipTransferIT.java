package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Leadership moves without any member dying: OVS 3.1's {@code cluster/failure-test
 * transfer-leadership} makes the leader hand over to a follower, as it does before writing a
 * snapshot ({@code ovsdb-server/compact} on a leader snapshots in place, without a transfer). The
 * client learns it from its _Server monitor and moves to the new leader, resuming with
 * monitor_cond_since.
 */
class LeadershipTransferIT {

    @Test
    void leadershipTransferMovesTheClientToTheNewLeaderWithAResumedSync() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            for (int i = 0; i < 50; i++) {
                nbctl.run("ls-add", "before-" + i);
            }
            Clients.EventLog log = new Clients.EventLog();
            OvsdbClient client = OvsdbClient.builder().remotes(cluster.remotes()).backoff(Duration.ofMillis(50), Duration.ofSeconds(1)).build();
            client.addConnectionListener(log);
            try (client) {
                client.startAndWait(WAIT);
                int leader = cluster.awaitLeader();
                Remote oldLeader = Remote.parse(cluster.member(leader).remote());
                assertThat(client.connectedRemote()).contains(oldLeader);

                cluster.member(leader).appctl("cluster/failure-test", "transfer-leadership");
                Await.until(WAIT, "leadership moved", () -> cluster.leader().filter(l -> l != leader).isPresent());
                Await.until(WAIT, "client on the new leader", () -> client.isSynced()
                        && !client.connectedRemote().equals(Optional.of(oldLeader)));

                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(cluster.awaitLeader()).remote()));
                assertThat(log.count(ConnectionEvent.Kind.LEADER_CHANGED)).isPositive();
                assertThat(client.stats().resumedSyncs()).as("resumed with monitor_cond_since").isPositive();
                assertThat(client.stats().fullSyncs()).as("no second full download").isEqualTo(1);
                client.transactAndWait(client.transaction().add(Operations.insert("Logical_Switch").value("name", "after")).build(), WAIT);
                assertThat(nbctl.run("ls-list")).contains("after");
                assertThat(client.cache().table("Logical_Switch").size()).isEqualTo(51);
            }
        }
    }
}
