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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Issue 14: a loop that makes no progress for a bounded time says so, and recovers. */
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

            // Some other code of the application reads the cache for a long time; an update then
            // waits for the write lock, and every new reader (the engine) waits behind it.
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread slowReader = new Thread(() -> f.client.cache().read(() -> {
                inside.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }), "slow-cache-reader");
            slowReader.start();
            assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
            f.nbctl.run("lb-del", "svc-0-tcp");
            Thread.sleep(300);
            CompletableFuture<ApplyResult> during = f.engine.upsert(OWNER, spec(1, 1));

            Await.until(Duration.ofSeconds(10), "engine reports the stall", () -> !f.engine.isAvailable());
            assertThat(f.engine.metrics().stalled()).as(f.engine.availability() + " " + availability).isTrue();
            assertThat(f.engine.availability()).contains("stalled");
            Await.until(Duration.ofSeconds(5), "listeners told", () -> availability.stream().anyMatch(a -> a.startsWith("false: engine loop stalled")));

            release.countDown();
            slowReader.join();
            Await.until(WAIT, "available again", f.engine::isAvailable);
            assertThat(during.get(10, TimeUnit.SECONDS).statuses().get("svc-1").state()).isEqualTo(SpecStatus.State.APPLIED);
            Await.until(WAIT, "drift repaired", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(List.of(spec(0, 1), spec(1, 1)))));
            assertThat(f.engine.metrics().stalled()).isFalse();
        }
    }
}
