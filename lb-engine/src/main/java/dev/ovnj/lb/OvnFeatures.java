package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which OVN release a spec's features need, and which release the engine is talking to. The NB
 * schema version does not tell releases apart well (22.09, 22.12 and 23.03 all have 7.0.0), so the
 * release is read from {@code NB_Global options:northd_internal_version}, which ovn-northd writes
 * ({@code <release>-<SB schema>-<internal>}, e.g. {@code 23.03.1-20.27.0-70.6}). Without it (no
 * ovn-northd has run yet) the NB schema version gives the newest release known to have that schema
 * (a server with that schema may be that new, so only what no such release has is refused). When
 * neither is known, nothing is refused.
 */
public final class OvnFeatures {

    /**
     * A feature and the first OVN release that has it.
     *
     * @param what the feature in words, as shown in errors
     * @param release the first release with it, {@code major.minor}
     * @param source where that fact comes from
     */
    public record Feature(String what, String release, String source) {
    }

    // Each release below is the first tag of OVN's sources (github.com/ovn-org/ovn, vXX.YY.0) whose
    // ovn-nb.xml documents the feature; FeatureSupportIT checks every entry against the ovn-northd of
    // each release in the test matrix (23.03, 25.03, 26.03; docs/testing.md).

    /** {@code Load_Balancer.selection_fields}. */
    public static final Feature SELECTION_FIELDS = new Feature("options.selectionFields (selection_fields)", "20.06",
            "ovn-nb.xml of v20.06.0: Load_Balancer column selection_fields");
    /** {@code options:hairpin_snat_ip}. */
    public static final Feature HAIRPIN_SNAT_IP = new Feature("options.hairpinSnatIp (options:hairpin_snat_ip)", "21.03",
            "ovn-nb.xml of v21.03.0: Load_Balancer options:hairpin_snat_ip");
    /** {@code Load_Balancer_Group}. */
    public static final Feature GROUPS = new Feature("group (Load_Balancer_Group)", "21.12",
            "ovn-nb.xml of v21.12.0: table Load_Balancer_Group");
    /** {@code options:neighbor_responder}. */
    public static final Feature NEIGHBOR_RESPONDER = new Feature("options.neighborResponder (options:neighbor_responder)", "22.06",
            "ovn-nb.xml of v22.06.0: Load_Balancer options:neighbor_responder");
    /** {@code options:affinity_timeout}. */
    public static final Feature AFFINITY_TIMEOUT = new Feature("options.affinityTimeout (options:affinity_timeout)", "22.12",
            "ovn-nb.xml of v22.12.0: Load_Balancer options:affinity_timeout");
    /** {@code options:ct_flush}. */
    public static final Feature CT_FLUSH = new Feature("options.ctFlush (options:ct_flush)", "23.06",
            "ovn-nb.xml of v23.06.0: Load_Balancer options:ct_flush");
    /** {@code options:use_stateless_nat}. */
    public static final Feature USE_STATELESS_NAT = new Feature("options.useStatelessNat (options:use_stateless_nat)", "25.03",
            "ovn-nb.xml of v25.03.0: Load_Balancer options:use_stateless_nat");
    /** {@code options:distributed}. */
    public static final Feature DISTRIBUTED = new Feature("options.distributed (options:distributed)", "26.03",
            "ovn-nb.xml of v26.03.0: Load_Balancer options:distributed ('Required configuration: ip_port_mappings')");
    /** IPv4 health checks: {@code Load_Balancer_Health_Check}, {@code ip_port_mappings}, SB {@code Service_Monitor}. */
    public static final Feature HEALTH_CHECK = new Feature("healthCheck (Load_Balancer_Health_Check)", "20.03",
            "ovn-nb.xml of v20.03.0: table Load_Balancer_Health_Check, Load_Balancer column ip_port_mappings");
    /** IPv6 health checks: bracketed {@code ip_port_mappings}. */
    public static final Feature IPV6_HEALTH_CHECK = new Feature("healthCheck on an IPv6 VIP", "23.03",
            "ovn-nb.xml of v23.03.0: IPv6 ip_port_mappings ([backend]=port:[source]); verified by HealthCheckIT"
                    + " against ovn-northd 23.03, 25.03 and 26.03; older releases are treated as lacking it");
    /** A router port's address as the health-check source. */
    public static final Feature ROUTER_PORT_HEALTH_CHECK_SOURCE = new Feature(
            "a health-check source that is a router port's address", "26.03",
            "ovn-nb.xml of v26.03.0, ip_port_mappings: the source 'can be either an unused IP from the subnet, or an IP"
                    + " of one of the Logical Router Ports connected to the same switch' (NEWS, v26.03.0)");

    /** Every feature, oldest first. */
    public static final List<Feature> TABLE = List.of(HEALTH_CHECK, SELECTION_FIELDS, HAIRPIN_SNAT_IP, GROUPS, NEIGHBOR_RESPONDER,
            AFFINITY_TIMEOUT, IPV6_HEALTH_CHECK, CT_FLUSH, USE_STATELESS_NAT, DISTRIBUTED, ROUTER_PORT_HEALTH_CHECK_SOURCE);

    /**
     * NB schema version to the newest OVN release known to ship it, used only when no ovn-northd has
     * written its version yet. Sources: {@code /usr/share/ovn/ovn-nb.ovsschema} of Debian's
     * {@code ovn-central} 23.03.1 (bookworm, "7.0.0"), 25.03.0 (trixie, "7.11.0") and 26.03.1 (sid,
     * "7.18.0"). Schema versions not listed refuse nothing.
     */
    static final Map<String, String> SCHEMA_RELEASES = Map.of("7.0.0", "23.03", "7.11.0", "25.03", "7.18.0", "26.03");

    private OvnFeatures() {
    }

    /**
     * The release the connected OVN runs, as {@code major.minor}, with where it was read.
     *
     * @param cache the NB cache (NB_Global monitored)
     * @return e.g. {@code 23.03 (NB_Global options:northd_internal_version 23.03.1-20.27.0-70.6)}, or empty
     */
    public static Optional<String[]> release(RowCache cache) {
        Optional<TableCache> global = cache.findTable("NB_Global");
        if (global.isPresent()) {
            for (Row r : global.get().rows()) {
                if (r.get("options") instanceof Map<?, ?> o && o.get("northd_internal_version") instanceof String v && !v.isBlank()) {
                    String rel = majorMinor(v.split("-", 2)[0]);
                    if (rel != null) {
                        return Optional.of(new String[] {rel, "NB_Global options:northd_internal_version " + v});
                    }
                }
            }
        }
        Optional<String> schema = cache.schema() == null ? Optional.empty() : cache.schema().version();
        return schema.map(SCHEMA_RELEASES::get).map(rel -> new String[] {rel, "NB schema " + schema.get()
                + " (no ovn-northd version in NB_Global yet; newest release known with that schema)"});
    }

    /**
     * What a spec needs that the connected OVN lacks, one message each.
     *
     * @param spec the spec
     * @param cache the NB cache
     * @return messages naming the field, the feature, the release it needs and the one connected
     */
    public static List<String> missing(LoadBalancerSpec spec, RowCache cache) {
        return missing(spec, cache.read(() -> release(cache)));
    }

    /**
     * What a spec needs that a known OVN release lacks, one message each.
     *
     * @param spec the spec
     * @param rel the release as {@link #release} gives it, or empty when unknown (nothing is refused)
     * @return messages naming the field, the feature, the release it needs and the one connected
     */
    public static List<String> missing(LoadBalancerSpec spec, Optional<String[]> rel) {
        if (rel.isEmpty()) {
            return List.of();
        }
        // Made on first use: nearly every spec needs nothing the release lacks.
        List<String> out = List.of();
        LbOptions o = spec.options();
        out = need(out, rel.get(), o.affinityTimeout().isPresent(), AFFINITY_TIMEOUT);
        out = need(out, rel.get(), o.hairpinSnatIp().isPresent(), HAIRPIN_SNAT_IP);
        out = need(out, rel.get(), o.neighborResponder().isPresent(), NEIGHBOR_RESPONDER);
        out = need(out, rel.get(), !o.selectionFields().isEmpty(), SELECTION_FIELDS);
        out = need(out, rel.get(), spec.group().isPresent(), GROUPS);
        out = need(out, rel.get(), o.ctFlush(), CT_FLUSH);
        out = need(out, rel.get(), o.useStatelessNat(), USE_STATELESS_NAT);
        out = need(out, rel.get(), o.distributed(), DISTRIBUTED);
        boolean checked = false;
        boolean checked6 = false;
        for (VipSpec v : spec.vips()) {
            if (v.healthCheck().isPresent()) {
                checked = true;
                try {
                    checked6 |= Endpoint.parse(v.vip()).isIpv6();
                } catch (IllegalArgumentException e) {
                    // Reported by validation.
                }
            }
        }
        out = need(out, rel.get(), checked, HEALTH_CHECK);
        out = need(out, rel.get(), checked6, IPV6_HEALTH_CHECK);
        return out;
    }

    private static List<String> need(List<String> out, String[] rel, boolean used, Feature f) {
        if (used && compare(rel[0], f.release()) < 0) {
            if (out.isEmpty()) {
                out = new ArrayList<>();
            }
            out.add(f.what() + " needs OVN " + f.release() + " or later; the connected OVN is " + rel[0] + " (" + rel[1]
                    + "); nothing is written for this spec");
        }
        return out;
    }

    /**
     * Whether a known release has a feature; an unknown release has none of those that are checked
     * this way (see {@link #ROUTER_PORT_HEALTH_CHECK_SOURCE}).
     *
     * @param rel the release as {@link #release} gives it
     * @param f the feature
     * @return true when the release is known and at least the feature's
     */
    public static boolean has(Optional<String[]> rel, Feature f) {
        return rel.isPresent() && compare(rel.get()[0], f.release()) >= 0;
    }

    static int compare(String a, String b) {
        // Every spec of every pass asks (a group needs 21.12): parsed in place, without splitting.
        int da = a.indexOf('.');
        int db = b.indexOf('.');
        int c = Integer.compare(Integer.parseInt(a, 0, da, 10), Integer.parseInt(b, 0, db, 10));
        return c != 0 ? c : Integer.compare(Integer.parseInt(a, da + 1, a.length(), 10), Integer.parseInt(b, db + 1, b.length(), 10));
    }

    private static String majorMinor(String version) {
        String[] p = version.split("\\.");
        if (p.length < 2 || !p[0].matches("\\d+") || !p[1].matches("\\d+")) {
            return null;
        }
        return p[0] + "." + p[1];
    }
}
