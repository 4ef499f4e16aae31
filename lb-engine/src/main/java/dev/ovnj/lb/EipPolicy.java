package dev.ovnj.lb;

/**
 * What to do with a router-attached VIP that lies in no network of the router's ports: OVN's
 * ARP responder does not answer for it, so traffic from outside never arrives.
 */
public enum EipPolicy {
    /** Write the load balancer and report a warning in the spec's status (default). */
    WARN,
    /** Treat the spec as invalid: nothing is written until the VIP is routable. */
    REJECT
}
