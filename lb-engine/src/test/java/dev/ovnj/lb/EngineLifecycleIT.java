package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** No half-engine: an engine that is not started refuses work, and listeners never run ahead of status(). */
class EngineLifecycleIT {

    @Test
    void declaringBeforeStartFailsFastAndWritesNothing() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = EngineFixture.client(server.remote())) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            client.startAndWait(WAIT);
            try (LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
                assertThatThrownBy(() -> engine.apply(OWNER, List.of(spec(0, 1)))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("start()");
                assertThatThrownBy(() -> engine.upsert(OWNER, spec(0, 1))).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> engine.remove(OWNER, "svc-0")).isInstanceOf(IllegalStateException.class);
                assertThat(engine.isAvailable()).isFalse();
                assertThat(OwnedRows.rows(nbctl)).isEmpty();

                engine.start();
                engine.start();
                assertThat(engine.apply(OWNER, List.of(spec(0, 1))).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
            }
        }
    }

    @Test
    void aRepairIsHeardOnlyOnceStatusSaysApplied() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<String> seenAtRepair = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onRepair(RepairEvent event) {
                    SpecStatus s = f.engine.status(OWNER).get(event.row().replace("-tcp", ""));
                    seenAtRepair.add(s == null ? "none" : s.state().name());
                }
            });
            f.engine.apply(OWNER, List.of(spec(0, 1), spec(1, 1))).get(20, TimeUnit.SECONDS);
            for (int round = 0; round < 5; round++) {
                f.nbctl.run("lb-del", "svc-" + (round % 2) + "-tcp");
                int expected = round + 1;
                Await.until(WAIT, "repair " + expected + " heard", () -> seenAtRepair.size() >= expected);
            }
            assertThat(seenAtRepair).containsOnly("APPLIED");
        }
    }
}
