package dev.ovnj.kubernetes;

import dev.ovnj.lb.SpecStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Every reason the controller writes on a Service's {@value LoadBalancerCondition#TYPE} condition,
 * in one place: its own refusals (decided before the engine is asked) and the engine's states
 * ({@link SpecStatus.State}), which are the reason once a spec is declared. A metric of Services by
 * reason, a dashboard or a test reads the list from here rather than from the code that sets them.
 */
public final class ConditionReasons {
    /** A placement annotation ({@code ovnj.dev/router}, {@code switch}, {@code group}) or a pool no grant allows the namespace. */
    public static final String PLACEMENT_NOT_ALLOWED = "PlacementNotAllowed";
    /** No pool serves the Service's namespace, and the command line's router does not either: pending, no address, no row. */
    public static final String NO_POOL = "NoPool";
    /** The pool named by {@code ovnj.dev/eip-pool} does not exist. */
    public static final String POOL_NOT_FOUND = "PoolNotFound";
    /** The Service's pool is Invalid and gives out nothing. */
    public static final String POOL_INVALID = "PoolInvalid";
    /** A requested address is malformed, reserved (gateway, router port, excluded) or outside the namespace's pools. */
    public static final String ADDRESS_INVALID = "AddressInvalid";
    /** A requested address or port is held by another Service, which keeps it. */
    public static final String ADDRESS_CONFLICT = "AddressConflict";
    /** No address can be had: the pool or network is exhausted, or the port serves none of the Service's families. */
    public static final String ADDRESS_UNAVAILABLE = "AddressUnavailable";
    /** The address could not be claimed for another reason (the database refused). */
    public static final String ADDRESS_FAILED = "AddressFailed";
    /** The Service's address is no longer in a network of its router port; it is kept, not moved. */
    public static final String ADDRESS_OUTSIDE_NETWORK = "AddressOutsideNetwork";
    /** An {@code ovnj.dev/} annotation does not parse. */
    public static final String INVALID_ANNOTATION = "InvalidAnnotation";
    /** {@code loadBalancerSourceRanges} that OVN cannot enforce for the Service. */
    public static final String SOURCE_RANGES_UNSUPPORTED = "SourceRangesUnsupported";

    /** The Event reason of a Service field clamped to what OVN accepts (an Event, not a condition reason). */
    public static final String FIELD_CLAMPED = "FieldClamped";
    /** The Event reason of a Service that stopped being served (an Event, not a condition reason). */
    public static final String WITHDRAWN = "Withdrawn";

    /** The controller's own condition reasons, set before the engine is asked. */
    public static final List<String> CONTROLLER = List.of(PLACEMENT_NOT_ALLOWED, NO_POOL, POOL_NOT_FOUND, POOL_INVALID,
            ADDRESS_INVALID, ADDRESS_CONFLICT, ADDRESS_UNAVAILABLE, ADDRESS_FAILED, ADDRESS_OUTSIDE_NETWORK, INVALID_ANNOTATION,
            SOURCE_RANGES_UNSUPPORTED);

    /** Every condition reason: the controller's, then each engine state's name. */
    public static final List<String> ALL = all();

    private ConditionReasons() {
    }

    /**
     * Whether a reason is the controller's own refusal (no load balancer was declared for it).
     *
     * @param reason a condition reason
     * @return true for one of {@link #CONTROLLER}
     */
    public static boolean controllers(String reason) {
        return CONTROLLER.contains(reason);
    }

    private static List<String> all() {
        List<String> out = new ArrayList<>(CONTROLLER);
        for (SpecStatus.State s : SpecStatus.State.values()) {
            out.add(s.name());
        }
        return List.copyOf(out);
    }
}
