package dev.ovnj.lb;

import java.time.Duration;
import java.util.List;

/**
 * Observes the engine: status changes, drift repairs, writes after waiting and every transaction
 * (the metrics hook). Register with {@link LoadBalancerEngine#addListener}, unregister with
 * {@link LoadBalancerEngine#removeListener}.
 * Called on one dedicated thread ("ovnj-engine-listeners"), in order, never on the engine's own
 * thread: a listener may call {@link LoadBalancerEngine#status} or any other method. A listener
 * that throws is logged (at most once per 10 s) and counted in
 * {@link EngineMetrics#listenerFailures()}; it cannot stop or slow the engine. A slow listener
 * only delays the listeners after it.
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
     * Drift was repaired: another writer changed or deleted rows the engine had written for an
     * APPLIED spec, and the engine wrote them back. Only drift: a spec written once what it waited
     * for appeared is reported by {@link #onAwaitedWrite}.
     *
     * @param event what was repaired and how fast
     */
    default void onRepair(RepairEvent event) {
    }

    /**
     * The repairs committed together by one transaction round. By default calls {@link #onRepair}
     * for each; override to handle a mass repair (thousands of rows) as one event.
     *
     * @param events the repairs, at least one
     */
    default void onRepairs(List<RepairEvent> events) {
        events.forEach(this::onRepair);
    }

    /**
     * A spec that waited (WAITING for a router, switch or group, or in CONFLICT with another
     * owner's row) was written because what it waited for changed: it is becoming APPLIED. Not a
     * drift repair, and not counted as one.
     *
     * @param event what was written, and what the spec had waited for
     */
    default void onAwaitedWrite(AwaitedWriteEvent event) {
    }

    /**
     * The writes after waiting committed together by one transaction round (a router appearing
     * that thousands of specs waited for). By default calls {@link #onAwaitedWrite} for each.
     *
     * @param events the writes, at least one
     */
    default void onAwaitedWrites(List<AwaitedWriteEvent> events) {
        events.forEach(this::onAwaitedWrite);
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
     * The engine became able or unable to write (connection lost, quorum lost, lock lost, loop stalled).
     *
     * @param available whether it can write now
     * @param reason why, in words
     */
    default void onAvailability(boolean available, String reason) {
    }

    /**
     * OVN's service monitor changed its verdict on a backend of a checked VIP (needs a Southbound
     * connection, {@link LoadBalancerEngine.Builder#southbound}). The spec's status already holds it.
     *
     * @param change the backend, its spec, and its health before and now
     */
    default void onBackendHealth(BackendHealthChange change) {
    }

    /**
     * A spec's {@link OperatingStatus} changed (once per change, not per Southbound update): e.g.
     * {@code ONLINE -> DEGRADED} when the service monitor takes one of its backends out. The spec's
     * status already holds it. Specs without health checks get one when they are first judged
     * ({@code UNKNOWN -> NO_MONITOR}) and when their VIPs gain or lose their last backend.
     *
     * @param change the spec, its status before and now, and its VIPs' statuses now
     */
    default void onOperatingStatus(OperatingStatusChange change) {
    }

    /**
     * An {@code apply} would have deleted more of an owner's rows than the {@link DeletionBudget}
     * allows: these specs' rows stay, in state {@link SpecStatus.State#HELD}, until released.
     *
     * @param owner the owner
     * @param specs the specs whose rows are kept
     * @param reason the reason, as their status gives it
     */
    default void onDeletionsHeld(String owner, List<String> specs, String reason) {
    }

    /**
     * A spec is gone: it was removed (by {@code remove}, or by an {@code apply} that no longer
     * names it, or its held deletion released) and its rows are deleted, so
     * {@link LoadBalancerEngine#status} no longer lists it. The last event about the spec, after
     * its last {@link #onStatus} (PENDING, "removed; its rows are being deleted"): a cache kept
     * from {@code onStatus} drops the spec here. A spec declared again later starts anew with
     * {@code onStatus}.
     *
     * @param owner the owner
     * @param spec the spec's name
     */
    default void onRemoved(String owner, String spec) {
    }
}
