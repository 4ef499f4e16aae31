package dev.ovnj.kubernetes;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.spec.HealthCheck;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code ovnj.dev/} annotations a Service may carry, read with a clear error for a malformed value.
 *
 * <ul>
 *   <li>{@value #ROUTER}, {@value #SWITCH}, {@value #GROUP}: attach to this router, switch or
 *       Load_Balancer_Group instead of the pool's ({@code none} as the switch or group drops it), when
 *       an administrator granted it ({@link Tenancy}; refused otherwise);</li>
 *   <li>{@value #ADDRESSES}: the external addresses to use, comma-separated (one per family), like
 *       {@code spec.loadBalancerIP}, which it overrides;</li>
 *   <li>{@value #SHARED_IP}: a sharing key; Services of one namespace with the same key share one
 *       address per family as long as their ports differ ({@link AddressSharing});</li>
 *   <li>{@value #HEALTH_CHECK}: {@code true} for OVN's defaults, or
 *       {@code interval=5,timeout=20,success=3,failure=3,source=10.1.0.2} (any subset);</li>
 *   <li>{@value #ADOPT}: load balancers of another owner or of none that the Service's may take over
 *       in place ({@link Adoption#parse}: a row's name or UUID, {@code owner:OWNER}, {@code unowned};
 *       comma-separated), for a move from another tool without a moment without the VIP.</li>
 * </ul>
 */
public final class ServiceAnnotations {
    /** The router to attach to. */
    public static final String ROUTER = "ovnj.dev/router";
    /** The switch to attach to. */
    public static final String SWITCH = "ovnj.dev/switch";
    /** The Load_Balancer_Group to attach through. */
    public static final String GROUP = "ovnj.dev/group";
    /** The external addresses asked for. */
    public static final String ADDRESSES = "ovnj.dev/load-balancer-ips";
    /** The sharing key: Services of a namespace with the same key share their addresses. */
    public static final String SHARED_IP = "ovnj.dev/allow-shared-ip";
    /** The health check of every VIP. */
    public static final String HEALTH_CHECK = "ovnj.dev/health-check";
    /** The foreign load balancers the Service's may adopt. */
    public static final String ADOPT = "ovnj.dev/adopt";

    private ServiceAnnotations() {
    }

    /**
     * Where a Service's load balancer is attached.
     *
     * @param router the router
     * @param logicalSwitch the switch, if any
     * @param group the group, if any
     */
    public record Attachment(String router, Optional<String> logicalSwitch, Optional<String> group) {
    }

    /**
     * The addresses the Service asks for: the annotation, else {@code spec.loadBalancerIP}.
     *
     * @param service the Service
     * @return the literals, possibly empty
     */
    public static List<String> requestedAddresses(Service service) {
        String listed = annotations(service).get(ADDRESSES);
        if (listed == null && service.getSpec() != null) {
            listed = service.getSpec().getLoadBalancerIP();
        }
        if (listed == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : listed.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return List.copyOf(out);
    }

    /**
     * The Service's sharing key.
     *
     * @param service the Service
     * @return the key, trimmed; empty when the annotation is absent or blank
     */
    public static Optional<String> shareKey(Service service) {
        return Optional.ofNullable(annotations(service).get(SHARED_IP)).map(String::trim).filter(k -> !k.isEmpty());
    }

    /**
     * The health check the Service asks for.
     *
     * @param service the Service
     * @return the check, or empty when the annotation is absent or {@code false}
     * @throws IllegalArgumentException naming the annotation and the bad entry when it does not parse
     */
    public static Optional<HealthCheck> healthCheck(Service service) {
        String text = annotations(service).get(HEALTH_CHECK);
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("false")) {
            return Optional.empty();
        }
        HealthCheck check = HealthCheck.DEFAULTS;
        if (text.trim().equalsIgnoreCase("true")) {
            return Optional.of(check);
        }
        int success = check.successCount();
        int failure = check.failureCount();
        for (String entry : text.split(",")) {
            String[] kv = entry.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException(HEALTH_CHECK + ": \"" + entry.trim() + "\" is not key=value");
            }
            String key = kv[0].trim();
            String value = kv[1].trim();
            switch (key) {
                case "interval" -> check = check.withInterval(number(key, value));
                case "timeout" -> check = check.withTimeout(number(key, value));
                case "success" -> success = number(key, value);
                case "failure" -> failure = number(key, value);
                case "source" -> check = check.withSourceIp(value);
                default -> throw new IllegalArgumentException(HEALTH_CHECK + ": unknown key \"" + key
                        + "\" (interval, timeout, success, failure, source)");
            }
        }
        return Optional.of(check.withCounts(success, failure));
    }

    /**
     * The adoption the Service asks for.
     *
     * @param service the Service
     * @return the adoption, or empty when the annotation is absent or blank
     * @throws IllegalArgumentException naming the annotation when it names nothing
     */
    public static Optional<Adoption> adoption(Service service) {
        String text = annotations(service).get(ADOPT);
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Adoption.parse(List.of(text)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ADOPT + ": " + e.getMessage(), e);
        }
    }

    private static int number(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(HEALTH_CHECK + ": " + key + "=\"" + value + "\" is not a number", e);
        }
    }

    private static Map<String, String> annotations(Service service) {
        Map<String, String> a = service.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
