package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one path from the client's callback thread to the engine: what it hands over runs in the
 * order it arrived, a transaction's updates ride with its answer in one engine step, and nothing
 * waits once the engine is nudged.
 */
class CallbackInboxTest {
    /** Steps queued for the engine thread, run by the test. */
    final List<Runnable> engineSteps = new ArrayList<>();
    final List<String> ran = new ArrayList<>();
    final CallbackInbox inbox = new CallbackInbox((name, step) -> engineSteps.add(step), (name, work) -> work.run());

    void runEngineSteps() {
        while (!engineSteps.isEmpty()) {
            engineSteps.remove(0).run();
        }
    }

    @Test
    void updatesWhileTransactionsAreInFlightRideWithTheAnswerInOneStep() {
        inbox.offer("cache events", () -> ran.add("updates"), false);
        assertThat(engineSteps).as("the updates alone do not wake the engine").isEmpty();
        inbox.offer("transaction answered", () -> ran.add("answer"), true);
        assertThat(engineSteps).hasSize(1);
        runEngineSteps();
        assertThat(ran).containsExactly("updates", "answer");
    }

    @Test
    void everythingRunsInTheOrderTheCallbackThreadHandedItOver() {
        inbox.offer("connection SYNCED", () -> ran.add("synced"), true);
        inbox.offer("cache events", () -> ran.add("events-1"), true);
        inbox.offer("cache events", () -> ran.add("events-2"), false);
        inbox.offer("transaction answered", () -> ran.add("answer"), true);
        assertThat(engineSteps).as("one drain queued at a time").hasSize(1);
        runEngineSteps();
        assertThat(ran).containsExactly("synced", "events-1", "events-2", "answer");
    }

    @Test
    void aNudgeDrainsWhatDidNotWakeTheEngine() {
        inbox.offer("cache events", () -> ran.add("foreign change"), false);
        assertThat(inbox.nudge()).isTrue();
        runEngineSteps();
        assertThat(ran).containsExactly("foreign change");
        assertThat(inbox.nudge()).as("nothing left: no step").isTrue();
        assertThat(engineSteps).isEmpty();
    }

    @Test
    void whatArrivesDuringADrainIsTakenAlongOrDrainedNext() {
        inbox.offer("cache events", () -> {
            ran.add("first");
            // Arrives from the callback thread while the engine drains.
            inbox.offer("transaction answered", () -> ran.add("during"), true);
        }, true);
        runEngineSteps();
        assertThat(ran).containsExactly("first", "during");
    }

    @Test
    void aClosedEngineRefusesAndTheNextOfferTriesAgain() {
        List<Runnable> none = new ArrayList<>();
        boolean[] open = {false};
        CallbackInbox closing = new CallbackInbox((name, step) -> open[0] && none.add(step), (name, work) -> work.run());
        assertThat(closing.offer("transaction answered", () -> ran.add("late"), true)).isFalse();
        open[0] = true;
        assertThat(closing.nudge()).as("the refused drain is not counted as queued").isTrue();
        assertThat(none).hasSize(1);
    }
}
