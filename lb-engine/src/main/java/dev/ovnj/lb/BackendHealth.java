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
    /**
     * No verdict to trust: no status yet, no Service_Monitor row (backend unmapped, northd not done),
     * no Southbound connection, or the ovn-controller that probes it is gone (see {@link BackendHealthView}).
     */
    UNKNOWN;

    /**
     * This backend's operating status: ONLINE, ERROR (offline or error) or UNKNOWN.
     *
     * @return the status
     */
    public OperatingStatus operatingStatus() {
        return switch (this) {
            case ONLINE -> OperatingStatus.ONLINE;
            case OFFLINE, ERROR -> OperatingStatus.ERROR;
            case UNKNOWN -> OperatingStatus.UNKNOWN;
        };
    }

    /**
     * The lower-case word {@code ovnj status} prints.
     *
     * @return online, offline, error or unknown
     */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
