package dev.ovnj.lb.plan;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpNetwork;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One {@code Logical_Router_Policy} row that enforces a spec's {@code sourceRanges} on each of its
 * routers. OVN has no source filter on a load balancer, and a router policy runs after the
 * router's DNAT ({@code lr_in_policy} follows {@code lr_in_dnat}), where the destination is
 * already the backend and the logical match language has no field for the original destination.
 * So a spec gets, per address family of its VIPs, a pair: an {@code allow} at
 * {@link #ALLOW_PRIORITY} for the ranges' sources, and a {@code drop} below it, both matching
 * {@code ct.dnat} (the connection was destination-NATed by this router) and the backends' address
 * and port. A family without a range gets the drop alone: no client of that family is allowed.
 *
 * @param key which policy of the spec: {@code allow-ipv4}, {@code drop-ipv4}, {@code allow-ipv6},
 *     {@code drop-ipv6} (kept in {@code external_ids} under {@link #POLICY_KEY})
 * @param priority {@code priority}
 * @param match {@code match}
 * @param action {@code action}: {@code allow} or {@code drop}
 * @param externalIds {@code external_ids}: the ownership keys and the policy's key
 */
public record DesiredPolicy(String key, int priority, String match, String action, Map<String, String> externalIds) {
    /** {@code external_ids} key naming which of a spec's policies a row is. */
    public static final String POLICY_KEY = "ovnj.policy";
    /** Priority of the allow policies: above the drops, near the top of the 0..32767 range. */
    public static final int ALLOW_PRIORITY = 32001;
    /** Priority of the drop policies. */
    public static final int DROP_PRIORITY = 32000;

    /**
     * Copies the map.
     *
     * @param key which policy of the spec
     * @param priority {@code priority}
     * @param match {@code match}
     * @param action {@code action}
     * @param externalIds {@code external_ids}
     */
    public DesiredPolicy {
        externalIds = Map.copyOf(externalIds);
    }

    /**
     * The policies a (valid) spec needs on each of its routers; none without source ranges.
     *
     * @param owner the owner
     * @param spec the spec
     * @return allow and drop per address family of the VIPs that have backends
     */
    public static List<DesiredPolicy> of(String owner, LoadBalancerSpec spec) {
        if (spec.sourceRanges().isEmpty()) {
            return List.of();
        }
        List<DesiredPolicy> out = new ArrayList<>(4);
        for (boolean v6 : new boolean[] {false, true}) {
            String backends = backends(spec, v6);
            if (backends.isEmpty()) {
                continue;
            }
            String family = v6 ? "ipv6" : "ipv4";
            String ip = v6 ? "ip6" : "ip4";
            TreeSet<String> ranges = new TreeSet<>();
            for (String r : spec.sourceRanges()) {
                IpNetwork net = IpNetwork.parse(r);
                if ((net.family() == dev.ovnj.nb.ip.IpFamily.IPV6) == v6) {
                    ranges.add(net.cidr());
                }
            }
            if (!ranges.isEmpty()) {
                out.add(policy(owner, spec, "allow-" + family, ALLOW_PRIORITY,
                        "ct.dnat && " + ip + ".src == " + set(ranges) + " && (" + backends + ")", "allow"));
            }
            out.add(policy(owner, spec, "drop-" + family, DROP_PRIORITY, "ct.dnat && (" + backends + ")", "drop"));
        }
        return out;
    }

    private static DesiredPolicy policy(String owner, LoadBalancerSpec spec, String key, int priority, String match, String action) {
        return new DesiredPolicy(key, priority, match, action,
                Map.of(DesiredRow.OWNER_KEY, owner, DesiredRow.SPEC_KEY, spec.name(), POLICY_KEY, key));
    }

    /**
     * The backends of one family as the router sees them after its DNAT, in a stable order:
     * {@code (ip4.dst == {10.0.0.2, 10.0.0.3} && tcp.dst == 8080) || ...}, one term per protocol and port.
     */
    private static String backends(LoadBalancerSpec spec, boolean v6) {
        Map<String, TreeSet<String>> byPort = new TreeMap<>();
        for (VipSpec v : spec.vips()) {
            for (String b : v.backends()) {
                Endpoint e = Endpoint.parse(b);
                if (e.isIpv6() == v6) {
                    byPort.computeIfAbsent(v.protocol().wireValue() + ".dst == " + e.port(), k -> new TreeSet<>()).add(e.host());
                }
            }
        }
        List<String> terms = new ArrayList<>(byPort.size());
        byPort.forEach((port, hosts) -> terms.add("(" + (v6 ? "ip6" : "ip4") + ".dst == " + set(hosts) + " && " + port + ")"));
        return String.join(" || ", terms);
    }

    private static String set(TreeSet<String> values) {
        return values.size() == 1 ? values.first() : "{" + String.join(", ", values) + "}";
    }
}
