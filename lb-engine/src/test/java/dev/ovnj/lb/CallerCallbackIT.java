package dev.ovnj.lb;

import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The engine answers a blocked caller straight from its own thread, yet a caller's callbacks never
 * run there, and one that blocks holds up neither the engine nor other callers.
 */
class CallerCallbackIT {

    @Test
    void callbacksRunOffTheEngineThreadAndABlockedOneHoldsNobodyElse() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<String> threads = new CopyOnWriteArrayList<>();
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<ApplyResult> first = f.engine.upsert(OWNER, spec(0, 1));
            CompletableFuture<Void> stuck = first.thenAccept(r -> {
                threads.add(Thread.currentThread().getName());
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(first.get(10, TimeUnit.SECONDS).allApplied()).isTrue();

            // The first caller's callback is still blocked: later callers are answered all the same,
            // blocking or chained, and their statuses are the engine's.
            for (int i = 1; i <= 3; i++) {
                CompletableFuture<ApplyResult> next = f.engine.upsert(OWNER, spec(i, 1));
                CompletableFuture<String> chained = next.thenApply(r -> Thread.currentThread().getName());
                CompletableFuture<Void> relayed = CompletableFuture.allOf(next).thenRun(() -> threads.add(Thread.currentThread().getName()));
                assertThat(next.get(10, TimeUnit.SECONDS).allApplied()).isTrue();
                threads.add(chained.get(10, TimeUnit.SECONDS));
                relayed.get(10, TimeUnit.SECONDS);
            }
            assertThat(stuck).isNotDone();
            release.countDown();
            stuck.get(10, TimeUnit.SECONDS);
            // Chained once the answer is in: the caller's own thread, as with any completed future.
            CompletableFuture<ApplyResult> last = f.engine.upsert(OWNER, spec(0, 2));
            last.get(10, TimeUnit.SECONDS);
            last.thenAccept(r -> threads.add(Thread.currentThread().getName())).get(10, TimeUnit.SECONDS);

            assertThat(threads).hasSize(8).noneMatch(t -> t.equals("ovnj-engine") || t.startsWith("ovnj-callbacks"));
            assertThat(f.engine.status(OWNER).get("svc-0").state()).isEqualTo(SpecStatus.State.APPLIED);
        }
    }
}
