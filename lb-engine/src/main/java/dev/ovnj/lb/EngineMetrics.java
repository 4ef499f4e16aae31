package dev.ovnj.lb;

import java.util.Map;

/**
 * Counters and gauges of an engine since it started. Counters only grow; gauges describe now.
 *
 * @param transactions counter: transactions committed
 * @param operations counter: operations in those transactions
 * @param repairs counter: drift repairs committed (one per repaired row): rows of an APPLIED spec that
 *     another writer changed or deleted, written back. Writes after waiting are not counted here.
 * @param conflicts counter: concurrent-writer conflicts (a guard failed and the spec was re-planned)
 * @param retries counter: specs requeued with backoff after a retriable error
 * @param failures counter: transactions the server rejected for good (specs then FAILED)
 * @param plans counter: planning passes
 * @param lastPlanMicros gauge: duration of the most recent planning pass, in microseconds
 * @param specPlans counter: single-spec plans made (a change that concerns no spec adds none)
 * @param longestCacheReadMicros gauge: the most CPU time the engine spent in one hold of the client's cache read lock
 *     (which the client's update thread waits for), in microseconds
 * @param slowCacheReads counter: holds of the cache read lock that took more than 10 ms of CPU time
 * @param listenerFailures counter: listener calls that threw (logged at most once per 10 s)
 * @param specsByState gauge: how many specs are in each state, every state present
 * @param stalled gauge: whether the engine loop has been stuck on one step longer than its stall bound
 * @param heldDeletions counter: spec deletions held back by the deletion budget (see {@link DeletionBudget})
 * @param fights counter: specs found fought over by another writer of their owner (rows changed back
 *     again and again), each then left alone for a while in CONFLICT
 * @param handoffs counter: tasks the engine handed from one thread to another: steps given to the
 *     engine thread (declarations, batches of cache events and transaction answers, timers),
 *     answers handed to the callers' stage threads, and deliveries to the listener thread. The
 *     client's own hand-offs (I/O thread to callback thread) are not included.
 * @param specsByOperatingStatus gauge: how many specs are in each {@link OperatingStatus}, every status present
 * @param awaitedWrites counter: rows written for the first time since their spec waited (a router
 *     appeared, a conflicting row went; see {@link AwaitedWriteEvent}), one per row
 */
public record EngineMetrics(long transactions, long operations, long repairs, long conflicts, long retries,
                            long failures, long plans, long lastPlanMicros, long specPlans, long longestCacheReadMicros,
                            long slowCacheReads, long listenerFailures, Map<SpecStatus.State, Integer> specsByState, boolean stalled,
                            long heldDeletions, long fights, long handoffs,
                            Map<OperatingStatus, Integer> specsByOperatingStatus, long awaitedWrites) {

    /**
     * Copies the map.
     *
     * @param transactions counter: transactions committed
     * @param operations counter: operations in those transactions
     * @param repairs counter: drift repairs committed
     * @param conflicts counter: concurrent-writer conflicts
     * @param retries counter: specs requeued with backoff after a retriable error
     * @param failures counter: transactions the server rejected for good
     * @param plans counter: planning passes
     * @param lastPlanMicros gauge: duration of the most recent planning pass
     * @param specPlans counter: single-spec plans made
     * @param longestCacheReadMicros gauge: the most CPU time spent in one hold of the cache read lock
     * @param slowCacheReads counter: holds of the cache read lock over 10 ms of CPU time
     * @param listenerFailures counter: listener calls that threw
     * @param specsByState gauge: how many specs are in each state
     * @param stalled gauge: whether the engine loop is stuck
     * @param heldDeletions counter: spec deletions held back by the deletion budget
     * @param fights counter: specs found fought over by another writer of their owner
     * @param handoffs counter: tasks the engine handed from one thread to another (steps given to
     *     the engine thread, answers to the callers' stage threads, deliveries to the listener
     *     thread); the client's own hand-offs (I/O to callback thread) are not counted
     * @param specsByOperatingStatus gauge: how many specs are in each operating status
     * @param awaitedWrites counter: rows written for the first time since their spec waited
     */
    public EngineMetrics {
        specsByState = Map.copyOf(specsByState);
        specsByOperatingStatus = Map.copyOf(specsByOperatingStatus);
    }

    /**
     * How many specs are in one operating status now.
     *
     * @param status the operating status
     * @return the count
     */
    public int specs(OperatingStatus status) {
        return specsByOperatingStatus.getOrDefault(status, 0);
    }

    /**
     * How many specs are in one state now.
     *
     * @param state the state
     * @return the count
     */
    public int specs(SpecStatus.State state) {
        return specsByState.getOrDefault(state, 0);
    }
}
