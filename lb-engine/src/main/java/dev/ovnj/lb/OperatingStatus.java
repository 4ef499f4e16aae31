package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a load balancer serves traffic, in one word, next to the provisioning {@link SpecStatus.State}
 * (which says whether OVN holds what was declared): of a backend, of a VIP (from its backends) and of
 * a spec (its worst VIP). Rolled up from what OVN's service monitor says ({@link BackendHealth}).
 */
public enum OperatingStatus {
    /** Every backend is healthy (its monitor reports online): the VIP serves on all of them. */
    ONLINE,
    /** Some backends are healthy, others are not or not known: the VIP serves, on fewer backends. */
    DEGRADED,
    /** Every backend is unhealthy (offline or error): OVN sends the VIP's traffic nowhere. */
    ERROR,
    /** No health check: OVN sends traffic to every backend, healthy or not, and nothing says which are. */
    NO_MONITOR,
    /** No backends: OVN rejects the VIP's connections (or drops them, per the VIP's options). */
    OFFLINE,
    /**
     * Monitoring is configured but there is no verdict to trust: no Southbound connection, no
     * {@code Service_Monitor} row or status yet, or the ovn-controller that probes the backend is gone
     * (see {@link BackendHealthView}). For a spec: also one that is invalid or removed.
     */
    UNKNOWN;

    /**
     * The lower-case word {@code ovnj status} prints.
     *
     * @return e.g. degraded, no_monitor
     */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** How bad, for the roll-up to a spec: ERROR is the worst, ONLINE the best. */
    private int severity() {
        return switch (this) {
            case ERROR -> 5;
            case UNKNOWN -> 4;
            case OFFLINE -> 3;
            case DEGRADED -> 2;
            case NO_MONITOR -> 1;
            case ONLINE -> 0;
        };
    }

    /**
     * The worst of several statuses: a spec takes the worst of its VIPs. The order, worst first:
     * ERROR, UNKNOWN, OFFLINE, DEGRADED, NO_MONITOR, ONLINE.
     *
     * @param statuses the statuses
     * @return the worst, or OFFLINE when there is none (a spec without VIPs serves nothing)
     */
    public static OperatingStatus worst(Collection<OperatingStatus> statuses) {
        OperatingStatus out = null;
        for (OperatingStatus s : statuses) {
            if (out == null || s.severity() > out.severity()) {
                out = s;
            }
        }
        return out == null ? OFFLINE : out;
    }

    /**
     * A VIP's status from its backends' health: OFFLINE without backends, NO_MONITOR without a
     * health check; else ONLINE when every backend is, ERROR when every one is unhealthy, UNKNOWN
     * when none is healthy and some are not known, DEGRADED when some are healthy and some not.
     *
     * @param monitored whether the VIP has a health check
     * @param backends the health of each backend (UNKNOWN for one without a verdict)
     * @return the VIP's status
     */
    public static OperatingStatus ofVip(boolean monitored, Collection<BackendHealth> backends) {
        if (backends.isEmpty()) {
            return OFFLINE;
        }
        if (!monitored) {
            return NO_MONITOR;
        }
        int online = 0;
        int unknown = 0;
        for (BackendHealth h : backends) {
            if (h == BackendHealth.ONLINE) {
                online++;
            } else if (h == BackendHealth.UNKNOWN) {
                unknown++;
            }
        }
        if (online == backends.size()) {
            return ONLINE;
        }
        if (online > 0) {
            return DEGRADED;
        }
        return unknown > 0 ? UNKNOWN : ERROR;
    }

    /**
     * The status of each VIP of a spec.
     *
     * @param spec the spec
     * @param health its backends' health, keyed as {@link BackendHealthView#key} writes them (a
     *     checked backend missing from it counts as UNKNOWN)
     * @return VIP, keyed as {@link BackendHealthView#key} writes it ({@code 172.16.0.100:80},
     *     {@code 10.96.0.10:53/udp}), to its status
     */
    public static Map<String, OperatingStatus> ofVips(LoadBalancerSpec spec, Map<String, BackendHealth> health) {
        Map<String, OperatingStatus> out = new TreeMap<>();
        for (VipSpec v : spec.vips()) {
            boolean monitored = v.healthCheck().isPresent();
            // Most VIPs are not checked: only how many backends they have counts, no key is built.
            List<BackendHealth> backends = monitored ? new ArrayList<>(v.backends().size())
                    : Collections.nCopies(v.backends().size(), BackendHealth.UNKNOWN);
            if (monitored) {
                for (String b : v.backends()) {
                    backends.add(health.getOrDefault(key(b, v), BackendHealth.UNKNOWN));
                }
            }
            out.put(key(v.vip(), v), ofVip(monitored, backends));
        }
        return out;
    }

    private static String key(String endpoint, VipSpec v) {
        try {
            return BackendHealthView.key(Endpoint.parse(endpoint), v.protocol());
        } catch (IllegalArgumentException e) {
            // Not parseable (a spec is checked before it gets here): reported under its own text.
            return endpoint;
        }
    }
}
