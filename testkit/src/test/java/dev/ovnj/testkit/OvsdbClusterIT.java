package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OvsdbClusterIT {

    @Test
    void survivesKillingItsLeader() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            assertThat(cluster.remotes().split(",")).hasSize(3);
            Nbctl nbctl = Nbctl.of(cluster);
            OvsdbServerIT.writeAndReadTopology(nbctl);
            nbctl.run("ls-add", "before-kill");

            int oldLeader = cluster.awaitLeader();
            cluster.kill(oldLeader);
            int newLeader = cluster.awaitLeader();
            assertThat(newLeader).isNotEqualTo(oldLeader);

            // ovn-nbctl tries each remote and settles on the leader among the survivors.
            nbctl.run("ls-add", "after-kill");
            assertThat(nbctl.run("--bare", "--columns=name", "list", "Logical_Switch").lines().filter(l -> !l.isEmpty()).sorted().toList())
                    .containsExactly("after-kill", "before-kill", "sw0");

            cluster.restart(oldLeader);
            assertThat(cluster.status(oldLeader)).contains("Status: cluster member");
            Nbctl rejoined = Nbctl.of(cluster.member(oldLeader).remote()).anyMember();
            Await.until(Duration.ofSeconds(10), "restarted member to catch up",
                    () -> {
                        try {
                            return rejoined.run("--bare", "--columns=name", "list", "Logical_Switch").contains("after-kill");
                        } catch (NbctlException stillJoining) {
                            return false;
                        }
                    });
            cluster.members().forEach(OvsdbServer::stop);
            cluster.checkCluster();
        }
    }
}
