package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The Services waiting for a reconciliation, as controller-runtime's {@code workqueue_depth}: JOSDK
 * keeps no queue it shows, so this counts, from its monitoring callbacks, the Services that have an
 * event and whose reconciliation has not started since. Only while this replica reconciles: a
 * standby receives events it does not act on, and its depth is 0.
 */
final class ReconcileQueue implements Metrics {
    private final Set<ResourceID> pending = ConcurrentHashMap.newKeySet();
    private final BooleanSupplier reconciling;

    ReconcileQueue(BooleanSupplier reconciling) {
        this.reconciling = reconciling;
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        if (reconciling.getAsBoolean()) {
            pending.add(event.getRelatedCustomResourceID());
        }
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
        pending.remove(ResourceID.fromResource(resource));
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        pending.remove(resourceID);
    }

    /** Forgets every pending Service: this replica stopped reconciling. */
    void clear() {
        pending.clear();
    }

    int depth() {
        return reconciling.getAsBoolean() ? pending.size() : 0;
    }
}
