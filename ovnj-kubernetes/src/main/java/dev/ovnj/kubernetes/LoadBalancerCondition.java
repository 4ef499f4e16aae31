package dev.ovnj.kubernetes;

import dev.ovnj.lb.BackendHealth;
import dev.ovnj.lb.SpecStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The condition the controller keeps on each Service it serves, type {@value #TYPE}: status
 * {@code True} when the engine says APPLIED, else {@code False}; the reason is the engine's state
 * (APPLIED, WAITING, INVALID, CONFLICT, FAILED, PENDING, or any state a later engine adds, such as
 * HELD) or one of the controller's own ({@link ConditionReasons#CONTROLLER}, set before the engine is asked); the message is the engine's reason in words, the backends' health
 * when the Service has a health check, and the notes of {@link #withNotes}.
 *
 * @param status {@code True} or {@code False}
 * @param reason the state
 * @param message the reason in words
 */
record LoadBalancerCondition(String status, String reason, String message) {
    /** The condition's type. */
    static final String TYPE = "ovnj.dev/LoadBalancerReady";

    /** The condition for an engine status. */
    static LoadBalancerCondition of(SpecStatus status) {
        boolean applied = status.state() == SpecStatus.State.APPLIED;
        String message = applied ? "load balancer applied" : status.reason();
        if (!status.backendHealth().isEmpty()) {
            message = message + "; backends " + health(status.backendHealth());
        }
        return new LoadBalancerCondition(applied ? "True" : "False", status.state().name(), message);
    }

    /**
     * This condition with notes added to its message (VIPs rejecting or draining for want of ready
     * endpoints, a family missing, a clamped field), so that each of them is visible on the
     * Service and a change of them is a change of the condition.
     */
    LoadBalancerCondition withNotes(List<String> notes) {
        if (notes.isEmpty()) {
            return this;
        }
        return new LoadBalancerCondition(status, reason, message + "; " + String.join("; ", notes));
    }

    /** No condition: what a Service that never carried one is compared with. */
    static final LoadBalancerCondition NONE = new LoadBalancerCondition("", "", "");

    /** The condition the Service carries, as a value to compare with; empty when it carries none. */
    static Optional<LoadBalancerCondition> on(Service service) {
        return current(service).map(c -> new LoadBalancerCondition(String.valueOf(c.getStatus()), String.valueOf(c.getReason()),
                // toCondition writes the reason as the message when there is none.
                Objects.equals(c.getMessage(), c.getReason()) ? "" : String.valueOf(c.getMessage())));
    }

    /** A condition the controller sets itself, before the engine is asked. */
    static LoadBalancerCondition failed(String reason, String message) {
        return new LoadBalancerCondition("False", reason, message);
    }

    /** Whether this condition is a problem worth a Warning event. */
    boolean warning() {
        return !status.equals("True") && !reason.equals(SpecStatus.State.PENDING.name())
                && !reason.equals(SpecStatus.State.APPLYING.name());
    }

    /** The condition as the Service currently carries it, if it does. */
    static Optional<Condition> current(Service service) {
        return current(service, TYPE);
    }

    /** The Service's condition of a type, if it has one. */
    static Optional<Condition> current(Service service, String type) {
        if (service.getStatus() == null || service.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return service.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** Whether the Service already carries this condition (apart from its time). */
    boolean isOn(Service service) {
        return current(service).filter(c -> Objects.equals(c.getStatus(), status) && Objects.equals(c.getReason(), reason)
                && Objects.equals(c.getMessage(), message)).isPresent();
    }

    /** The condition as a Kubernetes object; the transition time moves only when the status flips. */
    Condition toCondition(Service service, Instant now) {
        String since = current(service).filter(c -> Objects.equals(c.getStatus(), status))
                .map(Condition::getLastTransitionTime).orElse(now.toString());
        return new ConditionBuilder().withType(TYPE).withStatus(status).withReason(reason)
                .withMessage(message.isEmpty() ? reason : message).withLastTransitionTime(since)
                .withObservedGeneration(service.getMetadata().getGeneration()).build();
    }

    private static String health(Map<String, BackendHealth> health) {
        return health.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().name().toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    /** The conditions of a Service with this one put in place of the old one. */
    List<Condition> replaceIn(Service service, Instant now) {
        List<Condition> out = new java.util.ArrayList<>();
        if (service.getStatus() != null && service.getStatus().getConditions() != null) {
            service.getStatus().getConditions().stream().filter(c -> !TYPE.equals(c.getType())).forEach(out::add);
        }
        out.add(toCondition(service, now));
        return out;
    }
}
