package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A loop that makes no progress for a bounded time says so, and recovers. */
class EngineStallIT {

    @Test
    void aLoopStuckBehindTheCacheLockTurnsUnavailableWithAReasonAndRecovers() throws Exception {
        try (EngineFixture f = new EngineFixture(b -> b.stallTimeout(Duration.ofSeconds(1)))) {
            List<String> availability = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onAvailability(boolean available, String reason) {
                    availability.add(available + ": " + reason);
                }
            });
            f.engine.upsert(OWNER, spec(0, 1)).get(10, TimeUnit.SECONDS);

            // Some other code of the application reads the cache for a long time; the update this
            // drift brings then waits for the write lock, and the engine waits behind it.
            CompletableFuture<ApplyResult> during;
            SlowCacheReader slowReader = SlowCacheReader.holding(f.client.cache());
            try {
                f.nbctl.run("lb-del", "svc-0-tcp");
                Thread.sleep(300);
                during = f.engine.upsert(OWNER, spec(1, 1));

                Await.until(Duration.ofSeconds(10), "engine reports the stall", () -> !f.engine.isAvailable());
                assertThat(f.engine.metrics().stalled()).as(f.engine.availability() + " " + availability).isTrue();
                assertThat(f.engine.availability()).contains("stalled");
                Await.until(Duration.ofSeconds(5), "listeners told",
                        () -> availability.stream().anyMatch(a -> a.startsWith("false: engine loop stalled")));
            } finally {
                slowReader.release();
            }
            Await.until(WAIT, "available again", f.engine::isAvailable);
            assertThat(during.get(10, TimeUnit.SECONDS).statuses().get("svc-1").state()).isEqualTo(SpecStatus.State.APPLIED);
            Await.until(WAIT, "drift repaired", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(List.of(spec(0, 1), spec(1, 1)))));
            assertThat(f.engine.metrics().stalled()).isFalse();
        }
    }
}
