package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Without quorum, a spec whose new version is not written is not APPLIED. */
class QuorumStatusIT {

    @Test
    void aNewVersionDeclaredWithoutQuorumIsPendingUntilWritten() throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            EngineFixture.seed(nbctl);
            OvsdbClient client = EngineFixture.client(cluster.remotes());
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                engine.apply(OWNER, List.of(spec(0, 1), spec(1, 1))).get(20, TimeUnit.SECONDS);
                SpecStatus applied = engine.status(OWNER).get("svc-0");
                assertThat(applied.state()).isEqualTo(SpecStatus.State.APPLIED);
                assertThat(applied.observedGeneration()).isEqualTo(applied.generation());

                int leader = cluster.awaitLeader();
                int follower = (leader + 1) % 3;
                cluster.kill(leader);
                cluster.kill(follower);
                Await.until(WAIT, "engine unavailable", () -> !engine.isAvailable());
                CompletableFuture<ApplyResult> f = engine.upsert(OWNER, spec(0, 2));
                Await.until(WAIT, "new version declared", () -> engine.status(OWNER).get("svc-0").generation() > applied.generation());
                SpecStatus during = engine.status(OWNER).get("svc-0");
                assertThat(during.state()).isEqualTo(SpecStatus.State.PENDING);
                assertThat(during.observedGeneration()).isLessThan(during.generation());
                assertThat(during.reason()).contains("waiting for the database");
                assertThat(engine.status(OWNER).get("svc-1").state()).as("unchanged spec").isEqualTo(SpecStatus.State.APPLIED);
                Thread.sleep(1000);
                assertThat(f).isNotDone();
                assertThat(engine.status(OWNER).get("svc-0").state()).isEqualTo(SpecStatus.State.PENDING);

                cluster.restart(leader);
                cluster.restart(follower);
                assertThat(f.get(60, TimeUnit.SECONDS).statuses().get("svc-0").state()).isEqualTo(SpecStatus.State.APPLIED);
                SpecStatus after = engine.status(OWNER).get("svc-0");
                assertThat(after.observedGeneration()).isEqualTo(after.generation());
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(List.of(spec(0, 2), spec(1, 1))));
            }
        }
    }
}
