package dev.ovnj.lb;

import java.util.List;

/**
 * What became of one key after the engine worked on it: a plan, a transaction's answer, or a
 * verification. {@link OutcomeHandler#handle} turns each into its status, its callers' answers and
 * one queue action, in one switch; the queue action of each is named on the record.
 */
sealed interface KeyOutcome {
    /** The key. */
    SpecKey key();

    /** Its spec is no longer declared (forgotten meanwhile). Queue: done. */
    record Undeclared(SpecKey key) implements KeyOutcome {
    }

    /** Removed, and its rows are gone: every trace of it goes. Queue: removed. */
    record Gone(SpecKey key) implements KeyOutcome {
    }

    /**
     * A fresh plan found nothing to write: the verdict (APPLIED, WAITING, INVALID, CONFLICT, HELD).
     * Queue: done, backoff forgotten.
     */
    record Decided(SpecKey key, long generation, Reconciler.Settled verdict) implements KeyOutcome {
    }

    /** Changes to write in this pass. Queue: stays processing until the transaction's answer. */
    record Write(WriteRound.Work work, long generation, boolean removed, List<String> warnings) implements KeyOutcome {
        @Override
        public SpecKey key() {
            return work.key();
        }
    }

    /** Verifying a commit found more to write (a change meanwhile): the next pass writes it. Queue: requeued. */
    record WriteAgain(SpecKey key, long generation, boolean removed, List<String> warnings, long markedAt) implements KeyOutcome {
    }

    /** Needs a group another spec of this pass creates: looked at once that is written. Queue: requeued. */
    record AwaitsGroup(SpecKey key, long markedAt) implements KeyOutcome {
    }

    /** Another engine holds its owner's lock: that lock's grant looks at it again. Queue: done, backoff forgotten. */
    record StandingBy(SpecKey key) implements KeyOutcome {
    }

    /** Planning it threw: FAILED for now. Queue: retried after its backoff. */
    record PlanningFailed(SpecKey key, RuntimeException error) implements KeyOutcome {
    }

    /** Its transaction committed: a fresh plan verifies it next. Queue: backoff forgotten, still processing. */
    record Committed(WriteRound.Work work, long answeredAt) implements KeyOutcome {
        @Override
        public SpecKey key() {
            return work.key();
        }
    }

    /** Committed too many times in a row without the database keeping it: FAILED. Queue: done. */
    record NotConverging(SpecKey key, int writes) implements KeyOutcome {
    }

    /** Another writer keeps changing its rows back: CONFLICT, left alone for a while. Queue: delayed. */
    record Fight(SpecKey key, long answeredAt) implements KeyOutcome {
    }

    /** A guard found a concurrent writer: planned again at once. Queue: requeued. */
    record GuardFailed(SpecKey key, long markedAt) implements KeyOutcome {
    }

    /** A retriable error (not leader, connection lost, no answer): APPLYING. Queue: retried after its backoff. */
    record Retry(SpecKey key, WriteError error, long answeredAt) implements KeyOutcome {
    }

    /** A rejected transaction of several specs: each goes alone next, to find the one. Queue: solo, requeued. */
    record Split(SpecKey key, long markedAt) implements KeyOutcome {
    }

    /** Rejected for good, alone in its transaction: FAILED. Queue: done, backoff forgotten. */
    record Rejected(SpecKey key, WriteError error) implements KeyOutcome {
    }

    /** Committed, but the engine cannot look at it now (unavailable or closing): looked at again. Queue: requeued. */
    record Recheck(SpecKey key, long markedAt) implements KeyOutcome {
    }
}
