package dev.ovnj.kubernetes;

import dev.ovnj.lb.BackendHealthChange;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.SpecStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns what the engine learns on its own into reconciliations of the Service concerned, so that
 * the condition follows the database without waiting for the retry: a spec's settled state
 * changing (WAITING to APPLIED when the router appears, a conflict resolved, a held deletion) and
 * OVN's verdict on a backend changing. Each declaration passes through PENDING and back to its
 * verdict; that is not a change of the settled state, so a reconciliation never triggers itself.
 */
final class EngineEvents implements EngineListener {
    private final String owner;
    private final SimpleInboundEventSource<Service> source = new SimpleInboundEventSource<>("ovnj-engine");
    /** Spec name to its last settled state; entries go when the spec does. */
    private final Map<String, SpecStatus.State> settled = new ConcurrentHashMap<>();

    EngineEvents(String owner) {
        this.owner = owner;
    }

    SimpleInboundEventSource<Service> source() {
        return source;
    }

    @Override
    public void onStatus(SpecStatus status) {
        if (!status.owner().equals(owner) || !status.state().settled()) {
            return;
        }
        SpecStatus.State before = settled.put(status.spec(), status.state());
        if (before != null && before != status.state()) {
            propagate(status.spec());
        }
    }

    @Override
    public void onBackendHealth(BackendHealthChange change) {
        if (change.owner().equals(owner)) {
            propagate(change.spec());
        }
    }

    /** Forgets a spec that was removed, so that a Service of the same name starts afresh. */
    void forget(String spec) {
        settled.remove(spec);
    }

    /** Asks for a reconciliation of a spec's Service now (an address or pool it waits for became available). */
    void reconcile(String spec) {
        propagate(spec);
    }

    private void propagate(String spec) {
        int slash = spec.indexOf('/');
        // Only specs named namespace/name are this controller's; the source ignores events
        // before JOSDK has started it.
        if (slash > 0 && source.isRunning()) {
            source.propagateEvent(new ResourceID(spec.substring(slash + 1), spec.substring(0, slash)));
        }
    }
}
