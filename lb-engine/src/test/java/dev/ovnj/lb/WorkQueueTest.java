package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
    static final SpecKey A = new SpecKey("o", "a");
    static final SpecKey B = new SpecKey("o", "b");

    @Test
    void aKeyIsQueuedOnceAndNeverProcessedTwiceAtOnce() {
        WorkQueue q = new WorkQueue(Duration.ofMillis(10), Duration.ofSeconds(1));
        q.add(A, 1, false);
        q.add(A, 2, false);
        assertThat(q.take(10)).containsOnlyKeys(A).containsEntry(A, 1L);
        q.add(A, 3, false);
        assertThat(q.take(10)).as("A is being processed").isEmpty();
        q.done(A);
        assertThat(q.take(10)).as("marked while processing: ready again").containsOnlyKeys(A);
    }

    @Test
    void backoffIsPerKeyExponentialAndCapped() {
        WorkQueue q = new WorkQueue(Duration.ofMillis(10), Duration.ofMillis(100));
        q.add(A, 0, false);
        q.add(B, 0, false);
        q.take(10);
        Duration first = q.retryLater(A, 0);
        q.requeue(B, 0);
        assertThat(first).isBetween(Duration.ofMillis(5), Duration.ofMillis(10));
        assertThat(q.take(10)).as("B is not slowed by A").containsOnlyKeys(B);
        assertThat(q.promoteDue(0)).hasValue(first.toNanos());
        assertThat(q.promoteDue(first.toNanos())).isEmpty();
        assertThat(q.take(10)).containsOnlyKeys(A);
        Duration d = Duration.ZERO;
        for (int i = 0; i < 10; i++) {
            d = q.retryLater(A, 0);
            q.promoteDue(Long.MAX_VALUE);
            q.take(10);
        }
        assertThat(d).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
        q.forget(A);
        assertThat(q.retryLater(A, 0)).isLessThanOrEqualTo(Duration.ofMillis(10));
    }

    @Test
    void anEventDoesNotCutABackoffShortButADeclarationDoes() {
        WorkQueue q = new WorkQueue(Duration.ofSeconds(1), Duration.ofSeconds(1));
        q.add(A, 0, false);
        q.take(10);
        q.retryLater(A, 0);
        q.add(A, 1, false);
        assertThat(q.hasReady()).isFalse();
        q.add(A, 2, true);
        assertThat(q.take(10)).containsOnlyKeys(A);
        assertThat(q.promoteDue(Long.MAX_VALUE)).as("the stale backoff entry is dropped").isEmpty();
    }

    @Test
    void unmarkForgetsAMarkMadeWhileProcessingAndSaysWhen() {
        WorkQueue q = new WorkQueue(Duration.ofMillis(10), Duration.ofSeconds(1));
        q.add(A, 1, false);
        q.take(10);
        assertThat(q.unmark(A)).as("not marked meanwhile").isNull();
        q.add(A, 5, false);
        q.add(A, 7, false);
        assertThat(q.unmark(A)).as("the first mark made while processing").isEqualTo(5L);
        q.done(A);
        assertThat(q.hasReady()).as("the mark was consumed: done does not queue it again").isFalse();
    }
}
