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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** close() releases the lock and fails waiters; a throwing availability listener skips no work. */
class EngineCloseIT {
    static final String LOCK = "ovnj_lb";

    static OvsdbClient client(OvsdbServer server) {
        return EngineFixture.client(server.remote()).startAndWait(WAIT);
    }

    @Test
    void closeReleasesTheLockFailsWaitersAndLeavesTheClientUsable() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient c1 = client(server); OvsdbClient c2 = client(server)) {
            EngineFixture.seed(Nbctl.of(server));
            LoadBalancerEngine active = LoadBalancerEngine.builder(c1).lock(LOCK).build().start();
            Await.until(WAIT, "first replica active", active::isAvailable);
            LoadBalancerEngine standby = LoadBalancerEngine.builder(c2).lock(LOCK).build().start();
            CompletableFuture<ApplyResult> waiting = standby.upsert(OWNER, spec(0, 1));
            Thread.sleep(500);
            assertThat(standby.isAvailable()).isFalse();
            assertThat(standby.availability()).contains("held by another replica");
            assertThat(waiting).isNotDone();

            // Closing the standby answers its caller at once; its client stays usable.
            standby.close();
            assertThatThrownBy(() -> waiting.get(2, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(EngineClosedException.class);
            assertThatThrownBy(() -> standby.upsert(OWNER, spec(1, 1)).join()).cause().isInstanceOf(EngineClosedException.class);
            standby.close(); // idempotent

            LoadBalancerEngine next = LoadBalancerEngine.builder(c2).lock(LOCK).build().start();
            Thread.sleep(300);
            assertThat(next.isAvailable()).isFalse();
            long c1Connects = c1.stats().connects();
            active.close();
            Await.until(Duration.ofSeconds(5), "the standby takes over once the active replica closed", next::isAvailable);
            assertThat(next.apply(OWNER, List.of(spec(0, 1))).get(10, TimeUnit.SECONDS).allApplied()).isTrue();

            // A lock notification reaching the closed engine's client is harmless.
            CompletableFuture<Boolean> again = c1.lock(LOCK);
            assertThat(again.get(5, TimeUnit.SECONDS)).isFalse();
            next.close();
            Thread.sleep(1000);
            assertThat(c1.isSynced()).isTrue();
            assertThat(c1.stats().connects()).as("closed engine's client kept its connection").isEqualTo(c1Connects);
            assertThat(c1.transactAndWait(c1.transaction().add(dev.ovnj.ovsdb.tx.Operations.insert("Load_Balancer")
                    .value("name", "after-close")).build(), WAIT)).isNotNull();
        }
    }

    @Test
    void aThrowingAvailabilityListenerSkipsNoWork() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient c1 = client(server); OvsdbClient c2 = client(server)) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            LoadBalancerEngine active = LoadBalancerEngine.builder(c1).lock(LOCK).build().start();
            Await.until(WAIT, "first replica active", active::isAvailable);
            try (LoadBalancerEngine standby = LoadBalancerEngine.builder(c2).lock(LOCK).build()) {
                standby.addListener(new EngineListener() {
                    @Override
                    public void onAvailability(boolean available, String reason) {
                        throw new IllegalStateException("listener bug");
                    }
                });
                standby.start();
                CompletableFuture<ApplyResult> f = standby.apply(OWNER, List.of(spec(0, 1), spec(1, 1)));
                Thread.sleep(300);
                assertThat(f).isNotDone();
                active.close();
                assertThat(f.get(10, TimeUnit.SECONDS).allApplied()).isTrue();
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(List.of(spec(0, 1), spec(1, 1))));
                assertThat(standby.metrics().listenerFailures()).isPositive();
            }
        }
    }
}
