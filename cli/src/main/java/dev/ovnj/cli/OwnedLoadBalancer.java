package dev.ovnj.cli;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A Load_Balancer row that an ovnj engine owns (it carries {@code external_ids:ovnj.owner}), with
 * where it is attached.
 *
 * @param uuid the row
 * @param name its {@code name}
 * @param owner its {@code ovnj.owner}
 * @param spec its {@code ovnj.spec}, or empty when missing
 * @param protocol tcp, udp or sctp
 * @param vips VIP to comma-separated backends, sorted by VIP
 * @param options the {@code options} column
 * @param routers routers holding the row directly
 * @param switches switches holding the row directly
 * @param groups load balancer groups holding the row
 */
record OwnedLoadBalancer(UUID uuid, String name, String owner, String spec, String protocol, Map<String, String> vips,
                         Map<String, String> options, Set<String> routers, Set<String> switches, Set<String> groups) {

    /** Copies the collections. */
    OwnedLoadBalancer {
        // Sorted, so the report lists a row's VIPs in the same order on every run (Map.copyOf's
        // order changes from one JVM to the next).
        vips = Collections.unmodifiableMap(new TreeMap<>(vips));
        options = Map.copyOf(options);
        routers = Set.copyOf(routers);
        switches = Set.copyOf(switches);
        groups = Set.copyOf(groups);
    }
}
