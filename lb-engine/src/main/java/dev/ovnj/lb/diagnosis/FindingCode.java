package dev.ovnj.lb.diagnosis;

/**
 * The stable codes of diagnosis findings. The codes are part of the public contract: scripts and
 * controllers match on {@link #code()}, and docs/troubleshooting.md explains each one.
 */
public enum FindingCode {
    /** A load balancer of the desired state is not in the Northbound database. */
    LB_MISSING("lb-missing", Severity.ERROR, false),
    /** The load balancer is not on a router or switch it should be on. */
    NOT_ATTACHED("not-attached", Severity.ERROR, false),
    /** A router-attached VIP lies outside every network of the router's ports. */
    VIP_OUTSIDE_ROUTER_NETWORKS("vip-outside-router-networks", Severity.ERROR, false),
    /** The router has no gateway, so nothing answers ARP/ND for the VIP from outside. */
    NO_GATEWAY_CHASSIS("no-gateway-chassis", Severity.ERROR, false),
    /** The Southbound binding of the gateway port's {@code cr-} port has no chassis. */
    CHASSISREDIRECT_UNBOUND("chassisredirect-unbound", Severity.ERROR, true),
    /** The Southbound database does not reflect the Northbound load balancer as it is now. */
    NORTHD_NOT_SYNCED("northd-not-synced", Severity.ERROR, true),
    /** Southbound looks synced, yet no logical flow load-balances the VIP. */
    NO_LFLOW("no-lflow", Severity.ERROR, true),
    /** A {@code Service_Monitor} of a backend reports {@code offline} or {@code error}. */
    BACKEND_OFFLINE("backend-offline", Severity.ERROR, true),
    /** No backend of a health-checked VIP is healthy: its operating status is ERROR, OVN sends its traffic nowhere. */
    VIP_ERROR("vip-error", Severity.ERROR, true),
    /**
     * No backend of a health-checked VIP is known healthy and some have no verdict to trust (no
     * status, or the ovn-controller that probes them is gone): its operating status is UNKNOWN.
     */
    VIP_UNKNOWN("vip-unknown", Severity.WARNING, true),
    /**
     * A backend is a logical switch port on no network of a router the load balancer is on, and the
     * router has no route to it but its default one: the router DNATs the VIP's traffic and sends it away.
     */
    BACKEND_UNREACHABLE("backend-unreachable", Severity.ERROR, false),
    /**
     * A load balancer with {@code options:skip_snat=true} is on a distributed router with a gateway
     * port, where OVN leaves its replies without un-DNAT.
     */
    SKIP_SNAT_DISTRIBUTED_ROUTER("skip-snat-distributed-router", Severity.ERROR, false),
    /** A backend IP is the address of no logical switch port. */
    BACKEND_NO_PORT("backend-no-port", Severity.WARNING, false),
    /** Another load balancer serves the same VIP and protocol on the same router or switch. */
    CONFLICT("conflict", Severity.ERROR, false),
    /** {@code ovn-trace} from the gateway port to the VIP does not end in load balancing to the desired backends. */
    TRACE_MISMATCH("trace-mismatch", Severity.ERROR, true),
    /** Load balancers attached one by one to many switches and routers, where a group would do. */
    SCALE_LB_GROUP("scale-lb-group", Severity.ADVICE, false),
    /** A router load balancer's VIPs are all routed, yet its ARP/ND responder is left at the default. */
    SCALE_NEIGHBOR_RESPONDER("scale-neighbor-responder", Severity.ADVICE, false),
    /** Load balancers set their own {@code hairpin_snat_ip}, which multiplies ovn-controller's hairpin flows. */
    SCALE_HAIRPIN_SNAT_IP("scale-hairpin-snat-ip", Severity.ADVICE, false);

    private final String code;
    private final Severity severity;
    private final boolean southbound;

    FindingCode(String code, Severity severity, boolean southbound) {
        this.code = code;
        this.severity = severity;
        this.southbound = southbound;
    }

    /**
     * The stable code, e.g. {@code no-lflow}.
     *
     * @return the code
     */
    public String code() {
        return code;
    }

    /**
     * The severity findings of this code have.
     *
     * @return the severity
     */
    public Severity severity() {
        return severity;
    }

    /**
     * Whether the check needs the Southbound database.
     *
     * @return true for Southbound checks
     */
    public boolean needsSouthbound() {
        return southbound;
    }

    @Override
    public String toString() {
        return code;
    }
}
