package dev.ovnj.lb;

/**
 * Counters of an engine since it started.
 *
 * @param transactions transactions committed
 * @param operations operations in those transactions
 * @param repairs drift repairs committed
 * @param conflicts concurrent-writer conflicts (a guard failed and the engine re-planned)
 * @param retries passes retried after a retriable error
 * @param failures transactions the server rejected for other reasons
 * @param plans planning passes
 * @param lastPlanMicros duration of the most recent planning pass
 */
public record EngineMetrics(long transactions, long operations, long repairs, long conflicts, long retries,
                            long failures, long plans, long lastPlanMicros) {
}
