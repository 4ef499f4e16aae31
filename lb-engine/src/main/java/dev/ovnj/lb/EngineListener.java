package dev.ovnj.lb;

import java.time.Duration;

/**
 * Observes the engine: status changes, repairs and every transaction (the metrics hook).
 * Called on the engine's thread; do not block.
 */
public interface EngineListener {
    /**
     * A spec's status changed.
     *
     * @param status the new status
     */
    default void onStatus(SpecStatus status) {
    }

    /**
     * Drift was repaired.
     *
     * @param event what was repaired and how fast
     */
    default void onRepair(RepairEvent event) {
    }

    /**
     * A transaction finished.
     *
     * @param operations operations it carried
     * @param latency from sending to committed and cached
     * @param error null on success, else why it failed
     */
    default void onTransaction(int operations, Duration latency, Throwable error) {
    }

    /**
     * The engine became able or unable to write (connection lost, quorum lost, lock lost).
     *
     * @param available whether it can write now
     * @param reason why, in words
     */
    default void onAvailability(boolean available, String reason) {
    }
}
