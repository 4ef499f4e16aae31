package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The loop's decisions, without a server: what a plan, a transaction's answer or a verification
 * makes of a key's status, its caller's future and its place in the work queue.
 */
class OutcomeHandlerTest {
    static final String OWNER = "kube-dc";
    static final SpecKey KEY = new SpecKey(OWNER, "svc");

    final ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1);
    final ListenerBus bus = new ListenerBus();
    final StatusBoard board = new StatusBoard(bus);
    final DesiredStore store = new DesiredStore();
    final WorkQueue queue = new WorkQueue(Duration.ofMillis(20), Duration.ofSeconds(2));
    final EngineCounters counters = new EngineCounters();
    final Waiters waiters = new Waiters(board, new InlineEngine(), Duration.ofMinutes(1), deadlines, Runnable::run);
    /** Never flushed here: a write only waits in it. */
    final WriteRound round = new WriteRound(null, 1000, null, bus, null);
    final OutcomeHandler handler = new OutcomeHandler(queue, board, store, waiters, counters, round, k -> { }, o -> "standby for " + o);

    @AfterEach
    void stop() {
        deadlines.shutdownNow();
    }

    /** Runs every step at once on the test's thread. */
    static final class InlineEngine implements Waiters.Engine {
        @Override
        public boolean closed() {
            return false;
        }

        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public String runningStep() {
            return "test";
        }

        @Override
        public boolean step(String name, Runnable step) {
            step.run();
            return true;
        }
    }

    /** Declares the spec, has a caller upsert it, and takes its key as a pass would; returns the caller's future. */
    CompletableFuture<ApplyResult> declaredAndTaken(long markedAt) {
        LoadBalancerSpec spec = LoadBalancerSpec.builder(KEY.spec()).routers("r1").tcp("10.0.0.1:80", "10.1.0.1:8080").build();
        store.declare(OWNER, KEY.spec(), spec, List.of());
        long gen = store.get(KEY).generation();
        CompletableFuture<ApplyResult> f = waiters.open(Request.Kind.UPSERT, OWNER, req -> {
            req.waiting.put(KEY, gen);
            req.keys = List.of(KEY);
            waiters.await(req, KEY);
        });
        board.pending(KEY, gen, "queued");
        queue.add(KEY, markedAt, true);
        assertThat(queue.take(10)).containsEntry(KEY, markedAt);
        return f;
    }

    static WriteRound.Work work(boolean repair, long markedAt) {
        PlanChange change = new PlanChange.UpdateVips(UUID.randomUUID(), "svc-tcp", Set.of(), Map.of("10.0.0.1:80", "10.1.0.1:8080"));
        return new WriteRound.Work(KEY, new LoadBalancerPlan(OWNER, List.of(change), Map.of(), Map.of(), List.of(), Map.of(), Map.of()),
                repair, markedAt);
    }

    /** What the step's end does: publish the board, then answer the callers. */
    void endOfStep() {
        board.publish();
        waiters.answerDecided();
    }

    @Test
    void aCommitIsNotAVerdictUntilAFreshPlanFindsNothingToDo() {
        CompletableFuture<ApplyResult> caller = declaredAndTaken(5);
        List<KeyOutcome> answered = handler.afterAnswer(List.of(work(false, 5)),
                new TransactionSender.Outcome(TransactionSender.Kind.COMMITTED, null), 100);
        assertThat(answered).singleElement().isInstanceOf(KeyOutcome.Committed.class);
        answered.forEach(handler::handle);
        endOfStep();
        assertThat(caller).as("a commit alone answers nobody").isNotDone();
        assertThat(queue.hasReady()).as("still being processed: verification comes next").isFalse();
        assertThat(queue.size()).isEqualTo(1);

        Reconciler.Settled applied = new Reconciler.Settled(SpecStatus.State.APPLIED, List.of(), List.of(), Set.of(), List.of());
        KeyOutcome verified = handler.afterPlan(KEY, store.get(KEY), applied, 5, new java.util.HashSet<>(), true);
        assertThat(verified).isInstanceOf(KeyOutcome.Decided.class);
        handler.handle(verified);
        endOfStep();
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(board.get(KEY).observedGeneration()).isEqualTo(store.get(KEY).generation());
        assertThat(queue.size()).as("done").isZero();
        assertThat(caller).isCompleted();
        assertThat(caller.join().statuses()).containsKey(KEY.spec());
    }

    @Test
    void verifyingACommitThatStillDiffersWaitsForTheNextPassInsteadOfWriting() {
        declaredAndTaken(5);
        Reconciler.Write more = new Reconciler.Write(work(false, 5).plan(), List.of("a warning"));
        KeyOutcome o = handler.afterPlan(KEY, store.get(KEY), more, 5, new java.util.HashSet<>(), true);
        assertThat(o).isInstanceOf(KeyOutcome.WriteAgain.class);
        handler.handle(o);
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.APPLYING);
        assertThat(board.get(KEY).warnings()).containsExactly("a warning");
        assertThat(queue.take(10)).as("ready for the next pass, still dated from the first mark").containsEntry(KEY, 5L);
    }

    @Test
    void aPlanWithChangesIsWrittenAndStaysProcessingUntilTheAnswer() {
        declaredAndTaken(5);
        Reconciler.Write changes = new Reconciler.Write(work(false, 5).plan(), List.of());
        KeyOutcome o = handler.afterPlan(KEY, store.get(KEY), changes, 5, new java.util.HashSet<>(), false);
        assertThat(o).isInstanceOf(KeyOutcome.Write.class);
        assertThat(((KeyOutcome.Write) o).work().repair()).as("never observed yet: not a repair").isFalse();
        handler.handle(o);
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.APPLYING);
        assertThat(board.get(KEY).reasons()).containsExactly("writing");
        assertThat(queue.hasReady()).isFalse();
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void aGuardFailureReplansAtOnceKeepingWhenTheChangeWasFirstSeen() {
        declaredAndTaken(5);
        List<KeyOutcome> answered = handler.afterAnswer(List.of(work(false, 5)),
                new TransactionSender.Outcome(TransactionSender.Kind.GUARD_FAILED, new RuntimeException("timed out")), 100);
        answered.forEach(handler::handle);
        assertThat(counters.conflicts.get()).isEqualTo(1);
        assertThat(queue.take(10)).containsEntry(KEY, 5L);
    }

    @Test
    void aRetriableErrorBacksOffThisKeyAloneAndKeepsItApplying() {
        CompletableFuture<ApplyResult> caller = declaredAndTaken(5);
        handler.afterAnswer(List.of(work(false, 5)), new TransactionSender.Outcome(TransactionSender.Kind.RETRIABLE,
                new java.util.concurrent.TimeoutException()), System.nanoTime()).forEach(handler::handle);
        endOfStep();
        SpecStatus s = board.get(KEY);
        assertThat(s.state()).isEqualTo(SpecStatus.State.APPLYING);
        assertThat(s.reasons().get(0)).startsWith("retrying in ").endsWith("after: timed out: no answer from the database");
        assertThat(s.writeError()).isPresent();
        assertThat(queue.hasReady()).as("waiting out its backoff").isFalse();
        assertThat(queue.size()).isEqualTo(1);
        assertThat(counters.retries.get()).isEqualTo(1);
        assertThat(caller).isNotDone();
    }

    @Test
    void aRejectionOfSeveralSpecsSendsEachAloneNext() {
        declaredAndTaken(5);
        SpecKey other = new SpecKey(OWNER, "other");
        List<KeyOutcome> answered = handler.afterAnswer(List.of(work(false, 5), new WriteRound.Work(other, work(false, 7).plan(), false, 7)),
                new TransactionSender.Outcome(TransactionSender.Kind.PERMANENT, new IllegalArgumentException("bad")), 100);
        assertThat(answered).hasSize(2).allMatch(o -> o instanceof KeyOutcome.Split);
        answered.forEach(handler::handle);
        assertThat(queue.isSolo(KEY)).isTrue();
        assertThat(queue.isSolo(other)).isTrue();
        assertThat(board.get(KEY).state()).as("nobody failed yet").isEqualTo(SpecStatus.State.PENDING);
        assertThat(queue.take(10)).containsKeys(KEY, other);
    }

    @Test
    void aRejectionOfOneSpecAloneFailsItAndItsCallerWithTheError() {
        CompletableFuture<ApplyResult> caller = declaredAndTaken(5);
        handler.afterAnswer(List.of(work(false, 5)), new TransactionSender.Outcome(TransactionSender.Kind.PERMANENT,
                new IllegalArgumentException("bad value")), 100).forEach(handler::handle);
        endOfStep();
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.FAILED);
        assertThat(board.get(KEY).reasons()).containsExactly("IllegalArgumentException: bad value");
        assertThat(queue.size()).isZero();
        assertThat(counters.failures.get()).isEqualTo(1);
        assertThat(caller).isCompletedExceptionally();
        assertThat(caller.handle((r, e) -> e).join()).isInstanceOf(SpecFailedException.class);
    }

    @Test
    void aSpecWrittenTwentyTimesWithoutConvergingFails() {
        declaredAndTaken(5);
        KeyOutcome last = null;
        for (int i = 0; i <= OutcomeHandler.MAX_WRITES_WITHOUT_CONVERGING; i++) {
            List<KeyOutcome> answered = handler.afterAnswer(List.of(work(false, 5)),
                    new TransactionSender.Outcome(TransactionSender.Kind.COMMITTED, null), 100 + i);
            last = answered.get(0);
            if (i < OutcomeHandler.MAX_WRITES_WITHOUT_CONVERGING) {
                assertThat(last).isInstanceOf(KeyOutcome.Committed.class);
            }
        }
        assertThat(last).isInstanceOf(KeyOutcome.NotConverging.class);
        handler.handle(last);
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.FAILED);
        assertThat(board.get(KEY).reasons().get(0)).startsWith("not converging");
        assertThat(queue.size()).isZero();
    }

    @Test
    void repairsOfRowsChangedBackFiveTimesAreAFightLeftAloneUntilADeclaration() {
        declaredAndTaken(5);
        KeyOutcome last = null;
        for (int i = 0; i < FightDetector.FIGHT_REPAIRS; i++) {
            last = handler.afterAnswer(List.of(work(true, 5)), new TransactionSender.Outcome(TransactionSender.Kind.COMMITTED, null),
                    1_000 + i).get(0);
        }
        assertThat(last).isInstanceOf(KeyOutcome.Fight.class);
        handler.handle(last);
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.CONFLICT);
        assertThat(counters.fights.get()).isEqualTo(1);
        assertThat(queue.hasReady()).as("left alone").isFalse();
        queue.add(KEY, 2_000, false);
        assertThat(queue.hasReady()).as("an event does not end the back-off").isFalse();
        queue.add(KEY, 2_000, true);
        assertThat(queue.hasReady()).as("a declaration does").isTrue();
    }

    @Test
    void aCommittedRepairIsCountedWithItsLatency() {
        declaredAndTaken(5);
        board.decided(KEY, store.get(KEY).generation(),
                new Reconciler.Settled(SpecStatus.State.APPLIED, List.of(), List.of(), Set.of(), List.of()));
        handler.handle(new KeyOutcome.Committed(work(true, 5), 1_000_005));
        assertThat(counters.repairs.get()).isEqualTo(1);
        assertThat(board.get(KEY).repairs()).isEqualTo(1);
        assertThat(board.get(KEY).lastRepair()).contains(Duration.ofMillis(1));
    }

    @Test
    void aPlanThatThrowsFailsTheSpecAndRetriesItAfterItsBackoff() {
        declaredAndTaken(5);
        handler.handle(new KeyOutcome.PlanningFailed(KEY, new IllegalStateException("bug")));
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.FAILED);
        assertThat(board.get(KEY).reasons()).containsExactly("planning failed: java.lang.IllegalStateException: bug");
        assertThat(queue.hasReady()).isFalse();
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void aRemovedSpecWhoseRowsAreGoneLeavesNoTrace() {
        CompletableFuture<ApplyResult> caller = declaredAndTaken(5);
        store.declare(OWNER, KEY.spec(), null, List.of());
        KeyOutcome o = handler.afterPlan(KEY, store.get(KEY), new Reconciler.Gone(), 5, new java.util.HashSet<>(), false);
        assertThat(o).isInstanceOf(KeyOutcome.Gone.class);
        handler.handle(o);
        endOfStep();
        assertThat(board.get(KEY)).isNull();
        assertThat(store.get(KEY)).isNull();
        assertThat(queue.size()).isZero();
        assertThat(caller).isCompleted();
    }

    @Test
    void aKeyOfAnOwnerAnotherEngineWritesIsDroppedAndSaysWhy() {
        declaredAndTaken(5);
        handler.handle(new KeyOutcome.StandingBy(KEY));
        assertThat(queue.size()).isZero();
        assertThat(board.get(KEY).state()).isEqualTo(SpecStatus.State.PENDING);
        assertThat(board.get(KEY).reasons()).containsExactly("standby for " + OWNER);
    }

    @Test
    void aSpecWhoseGroupThisPassCreatesWaitsForIt() {
        declaredAndTaken(5);
        LoadBalancerPlan createsGroup = new LoadBalancerPlan(OWNER, List.of(new PlanChange.CreateGroup("g1")), Map.of(), Map.of(),
                List.of(), Map.of(), Map.of());
        Set<String> created = new java.util.HashSet<>(Set.of("g1"));
        KeyOutcome o = handler.afterPlan(KEY, store.get(KEY), new Reconciler.Write(createsGroup, List.of()), 5, created, false);
        assertThat(o).isInstanceOf(KeyOutcome.AwaitsGroup.class);
        handler.handle(o);
        assertThat(queue.take(10)).containsEntry(KEY, 5L);
    }
}
