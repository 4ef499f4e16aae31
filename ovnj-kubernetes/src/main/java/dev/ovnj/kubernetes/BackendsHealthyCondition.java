package dev.ovnj.kubernetes;

import dev.ovnj.lb.OperatingStatus;
import dev.ovnj.lb.SpecStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The condition {@value #TYPE} on each Service the controller serves: whether its load balancer
 * serves on healthy backends, from the engine's {@link OperatingStatus} (rolled up from OVN's
 * service monitors). Status {@code True} when ONLINE, {@code False} when DEGRADED, ERROR or
 * OFFLINE (no endpoints), {@code Unknown} when NO_MONITOR (no health check) or UNKNOWN; the reason
 * is the operating status, the message each VIP's and backend's. An Event marks each change of the
 * reason (a Warning for DEGRADED, ERROR and OFFLINE); a Service's first condition makes none (a new
 * Service is OFFLINE or UNKNOWN until its endpoints and monitors are there: that is no news).
 *
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param reason the operating status
 * @param message the VIPs' and backends' statuses in words
 */
record BackendsHealthyCondition(String status, String reason, String message) {
    /** The condition's type. */
    static final String TYPE = "ovnj.dev/BackendsHealthy";

    /** The condition for an engine status. */
    static BackendsHealthyCondition of(SpecStatus s) {
        OperatingStatus op = s.operatingStatus();
        String status = switch (op) {
            case ONLINE -> "True";
            case DEGRADED, ERROR, OFFLINE -> "False";
            case NO_MONITOR, UNKNOWN -> "Unknown";
        };
        String vips = s.vipOperatingStatus().entrySet().stream().map(e -> e.getKey() + " " + e.getValue().word())
                .collect(Collectors.joining(", "));
        String backends = s.backendOperatingStatus().entrySet().stream().map(e -> e.getKey() + " " + e.getValue().word())
                .collect(Collectors.joining(", "));
        String message = (vips.isEmpty() ? "no verdict yet" : "VIPs " + vips) + (backends.isEmpty() ? "" : "; backends " + backends);
        return new BackendsHealthyCondition(status, op.name(), message);
    }

    /** Whether this reason is a problem worth a Warning event. */
    boolean warning() {
        return status.equals("False");
    }

    /**
     * Whether this condition is a change that deserves an Event: from the reason last recorded for
     * the Service by this controller, or, when it has recorded none (first sight, or a restart), from
     * the Service's current condition. Two reconciliations of one Service may both see its status
     * from before the first one's patch, so the Service alone could tell one change twice.
     */
    boolean transition(Service service, String lastRecorded) {
        String before = lastRecorded != null ? lastRecorded : current(service).map(Condition::getReason).orElse(null);
        return before != null && !before.equals(reason);
    }

    private static Optional<Condition> current(Service service) {
        return LoadBalancerCondition.current(service, TYPE);
    }

    /** Whether the Service already carries this condition (apart from its time). */
    boolean isOn(Service service) {
        return current(service).filter(c -> Objects.equals(c.getStatus(), status) && Objects.equals(c.getReason(), reason)
                && Objects.equals(c.getMessage(), message)).isPresent();
    }

    /** {@code conditions} with this one in place of the Service's; the transition time moves only when the status flips. */
    List<Condition> replaceIn(List<Condition> conditions, Service service, Instant now) {
        String since = current(service).filter(c -> Objects.equals(c.getStatus(), status))
                .map(Condition::getLastTransitionTime).orElse(now.toString());
        List<Condition> out = new ArrayList<>();
        conditions.stream().filter(c -> !TYPE.equals(c.getType())).forEach(out::add);
        out.add(new ConditionBuilder().withType(TYPE).withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(since).withObservedGeneration(service.getMetadata().getGeneration()).build());
        return out;
    }
}
