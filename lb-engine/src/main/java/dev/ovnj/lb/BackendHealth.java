package dev.ovnj.lb;

/**
 * What OVN's own service monitor says about one backend of a checked VIP, read from the Southbound
 * {@code Service_Monitor} row that ovn-northd keeps for it (its {@code status}, set by the
 * ovn-controller that probes it).
 */
public enum BackendHealth {
    /** The monitor's probes succeed: OVN sends the backend traffic. */
    ONLINE,
    /** The probes fail: OVN sends the backend no new traffic. */
    OFFLINE,
    /** The probe got an error answer (e.g. a TCP reset or ICMP unreachable): no traffic either. */
    ERROR,
    /** No status yet, no Service_Monitor row (backend unmapped, northd not done), or no Southbound connection. */
    UNKNOWN;

    /**
     * The lower-case word {@code ovnj status} prints.
     *
     * @return online, offline, error or unknown
     */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
