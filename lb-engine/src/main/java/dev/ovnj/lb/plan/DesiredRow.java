package dev.ovnj.lb.plan;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The exact contents one owned {@code Load_Balancer} row must have: one per (spec, protocol),
 * named {@code <spec>-<protocol>}, with the ownership keys in {@code external_ids}.
 *
 * @param rowName the row's {@code name}
 * @param spec the spec it comes from
 * @param protocol the row's protocol
 * @param vips {@code vips}: VIP to comma-joined backends
 * @param options {@code options}
 * @param selectionFields {@code selection_fields}
 * @param externalIds {@code external_ids}, including the ownership keys
 * @param routers routers to attach to (directly, or through the group when there is one)
 * @param switches switches to attach to (directly, or through the group when there is one)
 * @param group the group to attach through, if any
 * @param healthChecks VIP key to the {@code options} of its {@code Load_Balancer_Health_Check} row
 * @param ipPortMappings {@code ip_port_mappings}
 */
public record DesiredRow(String rowName, String spec, Protocol protocol, Map<String, String> vips,
                         Map<String, String> options, Set<String> selectionFields, Map<String, String> externalIds,
                         Set<String> routers, Set<String> switches, Optional<String> group,
                         Map<String, Map<String, String>> healthChecks, Map<String, String> ipPortMappings) {

    /** {@code external_ids} key naming the owner of an engine-managed row. */
    public static final String OWNER_KEY = "ovnj.owner";
    /**
     * Prefix of the {@code NB_Global external_ids} key marking a Load_Balancer_Group that ovnj
     * created ({@code ovnj.group.<name>}): such a group is deleted once no load balancer uses it.
     */
    public static final String GROUP_MARK_PREFIX = "ovnj.group.";
    /** {@code external_ids} key naming the spec a row realizes. */
    public static final String SPEC_KEY = "ovnj.spec";

    /**
     * Copies the collections.
     *
     * @param externalIds {@code external_ids}, including the ownership keys
     * @param group the group to attach through, if any
     * @param options {@code options}
     * @param protocol the row's protocol
     * @param routers routers to attach to (directly, or through the group when there is one)
     * @param rowName the row's {@code name}
     * @param selectionFields {@code selection_fields}
     * @param spec the spec it comes from
     * @param switches switches to attach to (directly, or through the group when there is one)
     * @param vips {@code vips}: VIP to comma-joined backends
     * @param healthChecks VIP key to health check options
     * @param ipPortMappings {@code ip_port_mappings}
     */
    public DesiredRow {
        vips = Map.copyOf(vips);
        options = Map.copyOf(options);
        selectionFields = Set.copyOf(selectionFields);
        externalIds = Map.copyOf(externalIds);
        routers = Set.copyOf(routers);
        switches = Set.copyOf(switches);
        healthChecks = Map.copyOf(healthChecks);
        ipPortMappings = Map.copyOf(ipPortMappings);
    }

    /**
     * Returns a copy with the health checks the topology resolved.
     *
     * @param checks VIP key to health check options
     * @param mappings {@code ip_port_mappings}
     * @return the new row
     */
    public DesiredRow withHealthChecks(Map<String, Map<String, String>> checks, Map<String, String> mappings) {
        return new DesiredRow(rowName, spec, protocol, vips, options, selectionFields, externalIds, routers, switches, group,
                checks, mappings);
    }

    /**
     * The {@code external_ids} of this row's {@code Load_Balancer_Health_Check} rows: the ownership keys.
     *
     * @return owner and spec keys
     */
    public Map<String, String> healthCheckIds() {
        return Map.of(OWNER_KEY, externalIds.get(OWNER_KEY), SPEC_KEY, externalIds.get(SPEC_KEY));
    }

    /**
     * The rows a (valid) spec becomes.
     *
     * @param owner the owner
     * @param spec the spec
     * @return one row per protocol
     */
    public static List<DesiredRow> of(String owner, LoadBalancerSpec spec) {
        List<DesiredRow> rows = new ArrayList<>();
        for (Protocol p : spec.protocols()) {
            Map<String, String> vips = new TreeMap<>();
            for (VipSpec v : spec.vips()) {
                if (v.protocol() == p) {
                    List<String> backends = new ArrayList<>();
                    v.backends().forEach(b -> backends.add(Endpoint.normalize(b)));
                    vips.put(Endpoint.normalize(v.vip()), String.join(",", backends));
                }
            }
            Map<String, String> ids = new LinkedHashMap<>(spec.externalIds());
            ids.put(OWNER_KEY, owner);
            ids.put(SPEC_KEY, spec.name());
            rows.add(new DesiredRow(spec.name() + "-" + p.wireValue(), spec.name(), p, vips, options(spec.options()),
                    spec.options().selectionFields(), ids, spec.routers(), spec.switches(), spec.group(), Map.of(), Map.of()));
        }
        return rows;
    }

    private static Map<String, String> options(LbOptions o) {
        Map<String, String> m = new TreeMap<>();
        o.affinityTimeout().ifPresent(t -> m.put("affinity_timeout", Integer.toString(t)));
        if (o.reject()) {
            m.put("reject", "true");
        }
        if (o.skipSnat()) {
            m.put("skip_snat", "true");
        }
        o.hairpinSnatIp().ifPresent(ip -> m.put("hairpin_snat_ip", Endpoint.parse(ip).host()));
        o.neighborResponder().ifPresent(n -> m.put("neighbor_responder", n));
        return m;
    }
}
