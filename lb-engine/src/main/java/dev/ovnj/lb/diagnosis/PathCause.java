package dev.ovnj.lb.diagnosis;

/**
 * Why a client's packet to a VIP did or did not reach one backend, as {@code ovnj doctor --from}
 * reports it. The codes are part of the public contract, as {@link FindingCode}'s are.
 */
public enum PathCause {
    /** The request reached the backend's port and the reply got back to where the client is. */
    DELIVERED("delivered"),
    /** An ACL dropped or rejected the packet. */
    ACL("acl"),
    /** A router policy dropped the packet. */
    ROUTER_POLICY("router-policy"),
    /** A router has no route to the packet's destination (for the reply: back to the client). */
    NO_ROUTE("no-route"),
    /** The backend's port is bound to no chassis, has no binding, or is disabled. */
    PORT_DOWN("port-down"),
    /** The gateway port the client's packets enter by is resident on no chassis. */
    NO_CHASSIS("no-chassis"),
    /** The VIP has no backends, so the load balancer rejects (options:reject) or drops. */
    NO_BACKENDS("no-backends"),
    /**
     * The router the load balancer is on has no network holding the backend and no route to it but
     * its default one, so the DNATed request leaves away from the backend.
     */
    UNREACHABLE("unreachable"),
    /**
     * The reply gets back to the client's side without the router's un-DNAT, so it does not come
     * from the VIP ({@code options:skip_snat} on a distributed router with a gateway port).
     */
    NOT_UNDNATTED("not-undnatted"),
    /** The backend's address is no logical switch port's. */
    NO_PORT("no-port"),
    /** Dropped by a logical flow no Northbound row could be named for. */
    DROPPED("dropped");

    private final String code;

    PathCause(String code) {
        this.code = code;
    }

    /**
     * The stable code, e.g. {@code no-route}.
     *
     * @return the code
     */
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
