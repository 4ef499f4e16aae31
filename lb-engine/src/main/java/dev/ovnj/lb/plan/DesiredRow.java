package dev.ovnj.lb.plan;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
        if (checks.isEmpty() && mappings.isEmpty() && healthChecks.isEmpty() && ipPortMappings.isEmpty()) {
            // The common case of a row without checks: the same row, not a copy of it.
            return this;
        }
        return new DesiredRow(rowName, spec, protocol, vips, options, selectionFields, externalIds, routers, switches, group,
                checks, mappings);
    }

    /**
     * Whether a {@code Load_Balancer} row's {@code external_ids} name {@code owner} under
     * {@link #OWNER_KEY}. Read in place, without decoding the map: admission and planning ask it of
     * every candidate row of every spec.
     *
     * @param row a {@code Load_Balancer} row
     * @param owner the owner
     * @return whether the row is that owner's
     */
    public static boolean ownedBy(Row row, String owner) {
        return row.mapEntryEquals(row.table().columnIndex("external_ids"), OWNER_KEY, owner);
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
        // Built straight into the immutable maps the record keeps (its copies of them are then
        // free): declaring 10,000 specs makes no scratch maps per spec.
        Set<Protocol> protocols = spec.protocols();
        Map<String, String> options = options(spec.options());
        Map<String, String> ids = spec.externalIds().isEmpty() ? Map.of(OWNER_KEY, owner, SPEC_KEY, spec.name())
                : withOwnership(spec.externalIds(), owner, spec.name());
        List<DesiredRow> rows = new ArrayList<>(protocols.size());
        for (Protocol p : protocols) {
            rows.add(new DesiredRow(spec.name() + "-" + p.wireValue(), spec.name(), p, vips(spec, p), options,
                    spec.options().selectionFields(), ids, spec.routers(), spec.switches(), spec.group(), Map.of(), Map.of()));
        }
        return rows;
    }

    /** VIP to comma-joined backends, both normalized, of the spec's VIPs of one protocol. */
    private static Map<String, String> vips(LoadBalancerSpec spec, Protocol p) {
        Map<String, String> vips = null;
        String onlyKey = null;
        String onlyValue = null;
        for (VipSpec v : spec.vips()) {
            if (v.protocol() != p) {
                continue;
            }
            StringBuilder backends = new StringBuilder();
            for (String b : v.backends()) {
                if (backends.length() > 0) {
                    backends.append(',');
                }
                backends.append(Endpoint.normalize(b));
            }
            String key = Endpoint.normalize(v.vip());
            if (onlyKey == null && vips == null) {
                onlyKey = key;
                onlyValue = backends.toString();
            } else {
                if (vips == null) {
                    vips = new HashMap<>();
                    vips.put(onlyKey, onlyValue);
                }
                vips.put(key, backends.toString());
            }
        }
        return vips != null ? Map.copyOf(vips) : onlyKey != null ? Map.of(onlyKey, onlyValue) : Map.of();
    }

    private static Map<String, String> withOwnership(Map<String, String> externalIds, String owner, String spec) {
        Map<String, String> ids = new HashMap<>(externalIds);
        ids.put(OWNER_KEY, owner);
        ids.put(SPEC_KEY, spec);
        return Map.copyOf(ids);
    }

    private static Map<String, String> options(LbOptions o) {
        if (o.affinityTimeout().isEmpty() && !o.reject() && !o.skipSnat() && o.hairpinSnatIp().isEmpty()
                && o.neighborResponder().isEmpty() && !o.ctFlush() && !o.useStatelessNat() && !o.distributed()) {
            return Map.of();
        }
        Map<String, String> m = new HashMap<>();
        o.affinityTimeout().ifPresent(t -> m.put("affinity_timeout", Integer.toString(t)));
        if (o.reject()) {
            m.put("reject", "true");
        }
        if (o.skipSnat()) {
            m.put("skip_snat", "true");
        }
        o.hairpinSnatIp().ifPresent(ip -> m.put("hairpin_snat_ip", Endpoint.parse(ip).host()));
        o.neighborResponder().ifPresent(n -> m.put("neighbor_responder", n));
        if (o.ctFlush()) {
            m.put("ct_flush", "true");
        }
        if (o.useStatelessNat()) {
            m.put("use_stateless_nat", "true");
        }
        if (o.distributed()) {
            m.put("distributed", "true");
        }
        return Map.copyOf(m);
    }
}
