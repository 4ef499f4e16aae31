package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Queued engine work is bounded: past the limit callers are told to come back later. */
class EngineLimitsIT {

    @Test
    void requestsBeyondMaxPendingFailWithEngineBusyAndTheQueuedOnesStillComplete() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            EngineFixture.seed(Nbctl.of(server));
            OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).maxPendingRequests(5).build().start()) {
                // The client is not started: nothing can be written, so requests queue up.
                List<CompletableFuture<ApplyResult>> queued = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    queued.add(engine.upsert(OWNER, spec(i, 1)));
                }
                assertThatThrownBy(() -> engine.upsert(OWNER, spec(5, 1)).join()).hasCauseInstanceOf(EngineBusyException.class)
                        .hasMessageContaining("maxPendingRequests");
                assertThat(queued).noneMatch(CompletableFuture::isDone);

                client.startAndWait(WAIT);
                CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
                assertThat(engine.upsert(OWNER, spec(5, 1)).get(20, TimeUnit.SECONDS).allApplied()).as("slots are freed").isTrue();
                assertThat(OwnedRows.rows(Nbctl.of(server))).hasSize(6);
            }
        }
    }
}
