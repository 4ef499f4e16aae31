package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A caller's future: the deciding thread wakes blocked callers but never runs their callbacks, and
 * every way of completing it agrees on one value.
 */
class AnswerTest {
    private final ExecutorService decider = Executors.newSingleThreadExecutor(r -> new Thread(r, "decider"));
    private final ExecutorService stages = Executors.newCachedThreadPool(r -> new Thread(r, "stage"));

    @AfterEach
    void stop() {
        decider.shutdownNow();
        stages.shutdownNow();
    }

    @Test
    void aBlockedCallerWakesWithTheValueAndNoCallbackRunsOnTheDecidingThread() throws Exception {
        Answer<String> a = new Answer<>();
        AtomicReference<String> before = new AtomicReference<>();
        CompletableFuture<String> chained = a.thenApply(v -> {
            before.set(Thread.currentThread().getName());
            return v + "!";
        });
        // A relay of allOf is pushed onto the future directly, past every overridable method.
        AtomicReference<String> relay = new AtomicReference<>();
        CompletableFuture<Void> all = CompletableFuture.allOf(a, CompletableFuture.completedFuture(1))
                .thenRun(() -> relay.set(Thread.currentThread().getName()));
        CountDownLatch release = new CountDownLatch(1);
        // Whatever the stage threads do, the decider is not held up by a callback.
        a.whenComplete((v, e) -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        });

        decider.submit(() -> a.decide("yes", stages)).get(10, TimeUnit.SECONDS);

        assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("yes");
        assertThat(a.isDone()).isTrue();
        assertThat(a.getNow("no")).isEqualTo("yes");
        release.countDown();
        assertThat(chained.get(10, TimeUnit.SECONDS)).isEqualTo("yes!");
        all.get(10, TimeUnit.SECONDS);
        assertThat(before.get()).startsWith("stage");
        assertThat(relay.get()).startsWith("stage");
        // After the verdict a callback may still be chained; it never lands on the decider either.
        AtomicReference<String> after = new AtomicReference<>();
        a.thenAccept(v -> after.set(Thread.currentThread().getName())).get(10, TimeUnit.SECONDS);
        assertThat(after.get()).isNotEqualTo("decider");
    }

    @Test
    void theFirstDecisionWinsEverywhere() throws Exception {
        Answer<String> a = new Answer<>();
        assertThat(a.decide("engine", stages)).isTrue();
        assertThat(a.complete("caller")).isFalse();
        assertThat(a.completeExceptionally(new IllegalStateException())).isFalse();
        assertThat(a.cancel(true)).isFalse();
        assertThat(a.decide("again", stages)).isFalse();
        assertThat(a.join()).isEqualTo("engine");
        assertThat(a.thenApply(v -> v).get(10, TimeUnit.SECONDS)).isEqualTo("engine");
        assertThat(a.isCompletedExceptionally()).isFalse();
    }

    @Test
    void aCallerThatCancelsOrTimesOutFirstKeepsThatOutcome() throws Exception {
        Answer<String> cancelled = new Answer<>();
        assertThat(cancelled.cancel(false)).isTrue();
        assertThat(cancelled.decide("late", stages)).isFalse();
        assertThat(cancelled.isCancelled()).isTrue();
        assertThatThrownBy(cancelled::join).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> cancelled.thenApply(v -> v).join()).hasCauseInstanceOf(CancellationException.class);

        Answer<String> timed = new Answer<>();
        timed.orTimeout(50, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> timed.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(TimeoutException.class);
        assertThat(timed.decide("late", stages)).isFalse();
        assertThat(timed.isCompletedExceptionally()).isTrue();

        Answer<String> supplied = new Answer<>();
        supplied.completeAsync(() -> "async", stages);
        assertThat(supplied.get(10, TimeUnit.SECONDS)).isEqualTo("async");
        assertThat(supplied.thenApply(v -> v).get(10, TimeUnit.SECONDS)).isEqualTo("async");
    }

    @Test
    void aFailureReachesBlockedCallersAndDependentStagesAlike() throws Exception {
        Answer<String> a = new Answer<>();
        CompletableFuture<String> handled = a.handle((v, e) -> e.getClass().getSimpleName() + "@" + Thread.currentThread().getName());
        decider.submit(() -> a.decideExceptionally(new SpecTimeoutException("o", java.time.Duration.ofSeconds(1), "why",
                java.util.Map.of()), stages)).get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> a.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(SpecTimeoutException.class);
        assertThat(handled.get(10, TimeUnit.SECONDS)).startsWith("SpecTimeoutException@stage");
    }

    @Test
    void aClosedStageExecutorStillCompletesTheFutureOffTheDecidingThread() throws Exception {
        Answer<String> a = new Answer<>();
        AtomicReference<String> ran = new AtomicReference<>();
        CompletableFuture<Void> chained = a.thenRun(() -> ran.set(Thread.currentThread().getName()));
        stages.shutdown();
        decider.submit(() -> a.decide("closing", stages)).get(10, TimeUnit.SECONDS);
        chained.get(10, TimeUnit.SECONDS);
        assertThat(ran.get()).isNotEqualTo("decider");
    }
    @Test
    void aCallerBlockedWithNoStageAttachedIsAnsweredWithoutAHandOff() throws Exception {
        Answer<String> a = new Answer<>();
        AtomicReference<String> handedOff = new AtomicReference<>();
        CompletableFuture<String> blocked = CompletableFuture.supplyAsync(a::join, stages);
        while (a.blockedCallers() == 0) {
            Thread.onSpinWait();
        }

        decider.submit(() -> a.decide("yes", r -> handedOff.set("handed off"))).get(10, TimeUnit.SECONDS);

        assertThat(blocked.get(10, TimeUnit.SECONDS)).isEqualTo("yes");
        assertThat(handedOff.get()).as("task given to the stage executor").isNull();
        // The woken caller completed the stages: one attached now runs at once, on the attaching thread.
        assertThat(a.thenApply(v -> v + "!").getNow("not completed")).isEqualTo("yes!");
        assertThat(CompletableFuture.allOf(a).isDone()).isTrue();
    }

    @Test
    void aStageAttachedBeforeTheVerdictStillRunsOnTheStageExecutorWhileACallerIsBlocked() throws Exception {
        Answer<String> a = new Answer<>();
        AtomicReference<String> ranOn = new AtomicReference<>();
        CompletableFuture<Void> chained = a.thenAccept(v -> ranOn.set(Thread.currentThread().getName()));
        CompletableFuture<String> blocked = CompletableFuture.supplyAsync(a::join, Executors.newSingleThreadExecutor(r -> new Thread(r, "caller")));
        while (a.blockedCallers() == 0) {
            Thread.onSpinWait();
        }

        decider.submit(() -> a.decide("yes", stages)).get(10, TimeUnit.SECONDS);

        assertThat(blocked.get(10, TimeUnit.SECONDS)).isEqualTo("yes");
        chained.get(10, TimeUnit.SECONDS);
        assertThat(ranOn.get()).isEqualTo("stage");
    }

    @Test
    void callersTimingOutAsTheVerdictArrivesNeverLeaveTheStagesPending() throws Exception {
        // Callers give up at every moment around the verdict; whoever the stages were left to,
        // a stage attached afterwards (also through allOf, which bypasses every override) completes.
        ExecutorService callers = Executors.newFixedThreadPool(2, r -> new Thread(r, "caller"));
        try {
            for (int i = 0; i < 2_000; i++) {
                Answer<Integer> a = new Answer<>();
                int value = i;
                CountDownLatch started = new CountDownLatch(2);
                for (int c = 0; c < 2; c++) {
                    callers.submit(() -> {
                        started.countDown();
                        try {
                            return a.get(value % 3 == 0 ? 0 : 50, TimeUnit.MICROSECONDS);
                        } catch (TimeoutException e) {
                            return -1;
                        }
                    });
                }
                started.await(10, TimeUnit.SECONDS);
                if (i % 2 == 0) {
                    a.decide(value, stages);
                } else {
                    a.decideExceptionally(new IllegalStateException("no " + value), stages);
                }
                CompletableFuture<Void> all = CompletableFuture.allOf(a).exceptionally(e -> null);
                CompletableFuture<Object> after = a.handle((v, e) -> v != null ? v : e.getMessage());
                assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo(i % 2 == 0 ? (Object) value : "no " + value);
                all.get(10, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
