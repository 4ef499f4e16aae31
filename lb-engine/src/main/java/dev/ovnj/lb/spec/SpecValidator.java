package dev.ovnj.lb.spec;

import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks specs before anything is written. Every problem is reported with owner, spec and field;
 * an invalid spec is skipped while the owner's other specs proceed.
 */
public final class SpecValidator {
    private static final Set<String> RESPONDER_MODES = Set.of("reachable", "all", "none");
    private static final Set<String> SELECTION_FIELDS = Set.of("eth_src", "eth_dst", "ip_src", "ip_dst", "tp_src", "tp_dst");
    /**
     * The most source ranges a spec may have. Each range is one term of the allow policy's match
     * (one OpenFlow flow of a conjunction per range on every chassis); ovnj bounds it so that one
     * Service cannot grow every router's flow table without limit.
     */
    public static final int MAX_SOURCE_RANGES = 64;

    private SpecValidator() {
    }

    /**
     * Validates one owner's full set of specs, including checks across specs (duplicate names,
     * a VIP claimed twice).
     *
     * @param owner the owner
     * @param specs the specs
     * @return problems by spec name, empty for valid specs (every spec has an entry)
     */
    public static Map<String, List<SpecError>> validate(String owner, List<LoadBalancerSpec> specs) {
        return validate(owner, true, specs);
    }

    private static Map<String, List<SpecError>> validate(String owner, boolean hasOwner, List<LoadBalancerSpec> specs) {
        Map<String, List<SpecError>> out = new LinkedHashMap<>();
        Map<String, String> vipOwners = new HashMap<>();
        for (LoadBalancerSpec spec : specs) {
            List<SpecError> errors = new ArrayList<>();
            if (out.containsKey(spec.name())) {
                out.get(spec.name()).add(new SpecError(owner, spec.name(), "name", "declared twice for this owner"));
                continue;
            }
            out.put(spec.name(), errors);
            validateOne(owner, hasOwner, spec, errors);
            for (int i = 0; i < spec.vips().size(); i++) {
                VipSpec v = spec.vips().get(i);
                String key = v.protocol() + " " + normalized(v.vip());
                String other = vipOwners.putIfAbsent(key, spec.name());
                if (other != null) {
                    errors.add(new SpecError(owner, spec.name(), "vips[" + i + "].vip",
                            v.protocol().wireValue() + " " + v.vip() + " is already used by spec " + other + " of this owner"));
                }
            }
        }
        return out;
    }

    /**
     * Validates a single spec on its own (as {@code upsert} does).
     *
     * @param owner the owner
     * @param spec the spec
     * @return its problems, empty when valid
     */
    public static List<SpecError> validate(String owner, LoadBalancerSpec spec) {
        return validate(owner, List.of(spec)).get(spec.name());
    }

    /**
     * Validates a single spec without an owner: every check that needs neither an owner nor the
     * database. {@link LoadBalancerSpec.Builder#build()} runs it; the engine runs the same checks
     * again, with the owner, and then those against the database.
     *
     * @param spec the spec
     * @return its problems (with a null owner), empty when valid
     */
    public static List<SpecError> validate(LoadBalancerSpec spec) {
        return validate(null, false, List.of(spec)).get(spec.name());
    }

    private static void validateOne(String owner, boolean hasOwner, LoadBalancerSpec spec, List<SpecError> errors) {
        String name = spec.name();
        if (name.isBlank()) {
            errors.add(new SpecError(owner, name, "name", "must not be empty"));
        }
        if (hasOwner && (owner == null || owner.isBlank())) {
            errors.add(new SpecError(String.valueOf(owner), name, "owner", "must not be empty"));
        }
        if (spec.vips().isEmpty()) {
            errors.add(new SpecError(owner, name, "vips", "at least one VIP is needed"));
        }
        for (int i = 0; i < spec.vips().size(); i++) {
            validateVip(owner, name, i, spec.vips().get(i), errors);
        }
        for (String r : spec.routers()) {
            if (r.isBlank()) {
                errors.add(new SpecError(owner, name, "routers", "router name must not be empty"));
            }
        }
        for (String s : spec.switches()) {
            if (s.isBlank()) {
                errors.add(new SpecError(owner, name, "switches", "switch name must not be empty"));
            }
        }
        spec.group().filter(String::isBlank).ifPresent(g -> errors.add(new SpecError(owner, name, "group", "group name must not be empty")));
        LbOptions o = spec.options();
        o.affinityTimeout().ifPresent(t -> {
            if (t < 1 || t > 65535) {
                errors.add(new SpecError(owner, name, "options.affinityTimeout", t + " is out of range 1..65535 seconds"));
            }
        });
        o.hairpinSnatIp().ifPresent(ip -> {
            try {
                if (Endpoint.parse(ip).hasPort()) {
                    errors.add(new SpecError(owner, name, "options.hairpinSnatIp", "\"" + ip + "\" must be an address without a port"));
                }
            } catch (IllegalArgumentException e) {
                errors.add(new SpecError(owner, name, "options.hairpinSnatIp", e.getMessage()));
            }
        });
        if (o.distributed()) {
            // ovn-nb(5) of 26.03: a distributed load balancer needs ip_port_mappings, which ovnj writes
            // for the backends of health-checked VIPs.
            for (VipSpec v : spec.vips()) {
                if (v.healthCheck().isEmpty()) {
                    errors.add(new SpecError(owner, name, "options.distributed", "VIP " + v.vip() + " has no healthCheck: a"
                            + " distributed load balancer needs ip_port_mappings, which are written for health-checked VIPs"));
                }
            }
        }
        o.neighborResponder().filter(m -> !RESPONDER_MODES.contains(m)).ifPresent(m ->
                errors.add(new SpecError(owner, name, "options.neighborResponder", "\"" + m + "\" is not one of reachable, all, none")));
        for (String f : o.selectionFields()) {
            if (!SELECTION_FIELDS.contains(f)) {
                errors.add(new SpecError(owner, name, "options.selectionFields",
                        "\"" + f + "\" is not one of eth_src, eth_dst, ip_src, ip_dst, tp_src, tp_dst"));
            }
        }
        healthCheckSources(owner, spec, errors);
        sourceRanges(owner, spec, errors);
        sharedBackends(owner, spec, errors);
        for (String k : spec.externalIds().keySet()) {
            if (k.startsWith("ovnj.")) {
                errors.add(new SpecError(owner, name, "externalIds." + k, "keys starting with ovnj. are reserved for the engine"));
            }
        }
    }

    private static void validateVip(String owner, String name, int i, VipSpec v, List<SpecError> errors) {
        String field = "vips[" + i + "]";
        Endpoint vip;
        try {
            vip = Endpoint.parse(v.vip());
        } catch (IllegalArgumentException e) {
            errors.add(new SpecError(owner, name, field + ".vip", e.getMessage()));
            return;
        }
        if (!vip.hasPort()) {
            errors.add(new SpecError(owner, name, field + ".vip", "\"" + v.vip() + "\" needs a port (1..65535)"));
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        boolean plainVip = !vip.isIpv6() && vip.hasPort();
        for (int b = 0; b < v.backends().size(); b++) {
            String text = v.backends().get(b);
            if (plainVip && Endpoint.isPlainIpv4WithPort(text)) {
                // The usual backend, a.b.c.d:port of an IPv4 VIP with a port: right in family and
                // port, its own normal form; only a repeat is wrong. Checked without an Endpoint,
                // an address object or a field name per backend (every declaration validates).
                if (!seen.add(text)) {
                    errors.add(new SpecError(owner, name, field + ".backends[" + b + "]", "\"" + text + "\" is listed twice"));
                }
                continue;
            }
            String bf = field + ".backends[" + b + "]";
            Endpoint be;
            try {
                be = Endpoint.parse(v.backends().get(b));
            } catch (IllegalArgumentException e) {
                errors.add(new SpecError(owner, name, bf, e.getMessage()));
                continue;
            }
            if (be.isIpv6() != vip.isIpv6()) {
                errors.add(new SpecError(owner, name, bf, "\"" + v.backends().get(b) + "\" is " + family(be)
                        + " but the VIP " + v.vip() + " is " + family(vip)));
            }
            if (vip.hasPort() && !be.hasPort()) {
                errors.add(new SpecError(owner, name, bf, "\"" + v.backends().get(b) + "\" needs a port because the VIP has one"));
            }
            if (!seen.add(Endpoint.normalize(v.backends().get(b)))) {
                errors.add(new SpecError(owner, name, bf, "\"" + v.backends().get(b) + "\" is listed twice"));
            }
        }
        v.healthCheck().ifPresent(hc -> healthCheck(owner, name, field, v, vip, hc, errors));
        if (v.backendPorts().isEmpty()) {
            return;
        }
        java.util.Set<String> hosts = new java.util.HashSet<>();
        for (String b : v.backends()) {
            try {
                hosts.add(Endpoint.parse(b).host());
            } catch (IllegalArgumentException e) {
                // Reported above.
            }
        }
        v.backendPorts().forEach((ip, port) -> {
            String pf = field + ".backendPorts." + ip;
            String host;
            try {
                host = Endpoint.address(ip).host();
            } catch (IllegalArgumentException e) {
                errors.add(new SpecError(owner, name, pf, e.getMessage()));
                return;
            }
            if (!hosts.contains(host)) {
                errors.add(new SpecError(owner, name, pf, "\"" + ip + "\" is not the address of a backend of " + v.vip()));
            }
            if (port == null || port.isBlank()) {
                errors.add(new SpecError(owner, name, pf, "the logical port name must not be empty"));
            }
        });
    }

    private static void healthCheck(String owner, String name, String field, VipSpec v, Endpoint vip, HealthCheck hc,
                                    List<SpecError> errors) {
        String f = field + ".healthCheck";
        if (v.protocol() == Protocol.SCTP) {
            errors.add(new SpecError(owner, name, f, "OVN does not health-check SCTP load balancers (ovn-northd ignores the"
                    + " health check of an SCTP VIP); remove the health check or use TCP or UDP"));
        }
        positive(owner, name, f + ".interval", hc.interval(), errors);
        positive(owner, name, f + ".timeout", hc.timeout(), errors);
        positive(owner, name, f + ".successCount", hc.successCount(), errors);
        positive(owner, name, f + ".failureCount", hc.failureCount(), errors);
        hc.sourceIp().ifPresent(ip -> {
            try {
                Endpoint src = Endpoint.address(ip);
                if (src.isIpv6() != vip.isIpv6()) {
                    errors.add(new SpecError(owner, name, f + ".sourceIp", "\"" + ip + "\" is " + family(src) + " but the VIP "
                            + v.vip() + " is " + family(vip)));
                }
            } catch (IllegalArgumentException e) {
                errors.add(new SpecError(owner, name, f + ".sourceIp", e.getMessage()));
            }
        });
    }

    private static void positive(String owner, String name, String field, int value, List<SpecError> errors) {
        if (value < 1 || value > 65535) {
            errors.add(new SpecError(owner, name, field, value + " is out of range 1..65535"));
        }
    }

    private static void healthCheckSources(String owner, LoadBalancerSpec spec, List<SpecError> errors) {
        spec.healthCheckSources().forEach((sw, ips) -> {
            String f = "healthCheckSources." + sw;
            if (sw.isBlank()) {
                errors.add(new SpecError(owner, spec.name(), "healthCheckSources", "switch name must not be empty"));
            }
            int v4 = 0;
            int v6 = 0;
            for (String ip : ips) {
                try {
                    Endpoint e = Endpoint.address(ip);
                    v4 += e.isIpv4() ? 1 : 0;
                    v6 += e.isIpv6() ? 1 : 0;
                } catch (IllegalArgumentException ex) {
                    errors.add(new SpecError(owner, spec.name(), f, ex.getMessage()));
                }
            }
            if (v4 > 1 || v6 > 1) {
                errors.add(new SpecError(owner, spec.name(), f, "give at most one IPv4 and one IPv6 source per switch"));
            }
        });
    }

    private static void sourceRanges(String owner, LoadBalancerSpec spec, List<SpecError> errors) {
        List<String> ranges = spec.sourceRanges();
        if (ranges.isEmpty()) {
            return;
        }
        if (ranges.size() > MAX_SOURCE_RANGES) {
            errors.add(new SpecError(owner, spec.name(), "sourceRanges", ranges.size() + " ranges are more than the "
                    + MAX_SOURCE_RANGES + " one router policy match may carry"));
        }
        if (!spec.switches().isEmpty()) {
            errors.add(new SpecError(owner, spec.name(), "switches", "a spec with sourceRanges is attached to routers only: a"
                    + " switch's own load-balancing stage sends its ports' traffic to the backends before any router policy,"
                    + " whatever the source"));
        }
        Set<IpFamily> vipFamilies = java.util.EnumSet.noneOf(IpFamily.class);
        for (VipSpec v : spec.vips()) {
            try {
                vipFamilies.add(Endpoint.parse(v.vip()).isIpv6() ? IpFamily.IPV6 : IpFamily.IPV4);
            } catch (IllegalArgumentException e) {
                // Reported with the VIP.
            }
        }
        for (int i = 0; i < ranges.size(); i++) {
            String f = "sourceRanges[" + i + "]";
            IpNetwork net;
            try {
                net = IpNetwork.parse(ranges.get(i));
            } catch (IllegalArgumentException e) {
                errors.add(new SpecError(owner, spec.name(), f, "\"" + ranges.get(i) + "\" is not a network address/prefix"
                        + " such as 198.51.100.0/24 or 2001:db8::/48 (" + e.getMessage() + ")"));
                continue;
            }
            if (!vipFamilies.isEmpty() && !vipFamilies.contains(net.family())) {
                errors.add(new SpecError(owner, spec.name(), f, "\"" + ranges.get(i) + "\" is " + word(net.family())
                        + " but every VIP of this spec is " + word(vipFamilies.iterator().next())));
            }
        }
    }

    private static String word(IpFamily family) {
        return family == IpFamily.IPV6 ? "IPv6" : "IPv4";
    }

    /**
     * Two checked VIPs of one row (same protocol) that name different ports or sources for the same
     * backend address: {@code ip_port_mappings} holds one entry per backend address per row.
     */
    private static void sharedBackends(String owner, LoadBalancerSpec spec, List<SpecError> errors) {
        Map<String, String[]> seen = new HashMap<>();
        for (int i = 0; i < spec.vips().size(); i++) {
            VipSpec v = spec.vips().get(i);
            if (v.healthCheck().isEmpty()) {
                continue;
            }
            for (String b : v.backends()) {
                String host;
                try {
                    host = Endpoint.parse(b).host();
                } catch (IllegalArgumentException e) {
                    continue;
                }
                String port = v.backendPorts().entrySet().stream().filter(e -> sameHost(e.getKey(), host))
                        .map(Map.Entry::getValue).findFirst().orElse("");
                String source = v.healthCheck().get().sourceIp().map(SpecValidator::normalizedHost).orElse("");
                String key = v.protocol() + " " + host;
                String[] mine = {port, source, v.vip()};
                String[] other = seen.putIfAbsent(key, mine);
                if (other != null && (!other[0].equals(port) || !other[1].equals(source))) {
                    errors.add(new SpecError(owner, spec.name(), "vips[" + i + "].healthCheck",
                            "backend " + host + " is checked by " + other[2] + " and " + v.vip() + " with different "
                                    + (!other[0].equals(port) ? "logical ports (" + show(other[0]) + ", " + show(port) + ")"
                                    : "source addresses (" + show(other[1]) + ", " + show(source) + ")")
                                    + "; one load balancer row maps each backend address once (ip_port_mappings)"));
                }
            }
        }
    }

    private static boolean sameHost(String ip, String host) {
        return normalizedHost(ip).equals(host);
    }

    private static String normalizedHost(String ip) {
        try {
            return Endpoint.address(ip).host();
        } catch (IllegalArgumentException e) {
            return ip;
        }
    }

    private static String show(String s) {
        return s.isEmpty() ? "not given" : s;
    }

    private static String family(Endpoint e) {
        return e.isIpv6() ? "IPv6" : "IPv4";
    }

    private static String normalized(String vip) {
        try {
            return Endpoint.normalize(vip);
        } catch (IllegalArgumentException e) {
            return vip;
        }
    }
}
