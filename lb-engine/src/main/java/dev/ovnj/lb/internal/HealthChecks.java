package dev.ovnj.lb.internal;

import dev.ovnj.lb.BackendHealthView;
import dev.ovnj.lb.HealthCheckSource;
import dev.ovnj.lb.OvnFeatures;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What a spec's health checks become in one {@code Load_Balancer} row, read from the topology:
 * one {@code Load_Balancer_Health_Check} per checked VIP, and {@code ip_port_mappings} from each
 * backend address to the {@code Logical_Switch_Port} holding it (in {@code addresses} or
 * {@code dynamic_addresses}, unless the spec names the port) and the source address the monitor
 * probes from. A given source must lie in the backend switch's subnet ({@code other_config:subnet},
 * {@code other_config:ipv6_prefix}, or the networks of a router port on that switch) and must
 * not be any port's address. Without one the source is chosen as OVN requires (ovn-nb(5)
 * {@code ip_port_mappings}; ovn-northd): the address already mapped, while it is still usable (a
 * restart or a re-plan never moves it); else, for a load balancer on a router from OVN 26.03 on, the
 * address of that router's port on the backend's switch (northd then probes from that port's MAC);
 * else the highest address of the switch's subnet that no port uses and
 * {@code other_config:exclude_ips} leaves out (OVN's IPAM hands out the lowest free addresses,
 * so the top of the subnet stays out of its way). Call inside a cache read.
 */
public final class HealthChecks {
    /** Logical switch ports by name (an explicit {@code port:}). */
    static final IndexSpec PORT_BY_NAME = IndexSpec.of("Logical_Switch_Port", "name");
    /** Switches by port, to find a backend port's switch. */
    static final IndexSpec SWITCH_BY_PORT = IndexSpec.of("Logical_Switch", "ports");
    /** Router ports by name, for the networks of a router port on the switch. */
    static final IndexSpec ROUTER_PORT_BY_NAME = IndexSpec.of("Logical_Router_Port", "name");
    /** Routers by port, to tell whether a router port's router holds the load balancer. */
    static final IndexSpec ROUTER_BY_PORT = IndexSpec.of("Logical_Router", "ports");
    /** Load balancers by name, for the source already in the row's {@code ip_port_mappings}. */
    static final IndexSpec LB_BY_NAME = IndexSpec.of("Load_Balancer", "name");

    /**
     * One row's health checks.
     *
     * @param checks VIP key (as in {@code vips}) to the health check's {@code options}
     * @param mappings {@code ip_port_mappings}
     * @param invalid problems that make the spec INVALID
     * @param waiting backends not mapped yet, in words
     * @param sources each mapped backend's source, keyed as {@link BackendHealthView#key} writes it
     * @param watched what a port event must re-plan the spec for: {@code ip:<address>} of every chosen
     *     source (a port taking it), {@code switch:<name>} of a switch with no address left to choose
     */
    public record Resolution(Map<String, Map<String, String>> checks, Map<String, String> mappings, List<String> invalid,
                             List<String> waiting, Map<String, HealthCheckSource> sources, Set<String> watched) {
        /**
         * Copies the collections.
         *
         * @param checks VIP key to options
         * @param mappings ip_port_mappings
         * @param invalid problems that make the spec INVALID
         * @param waiting backends not mapped yet
         * @param sources each mapped backend's source
         * @param watched what a port event must re-plan the spec for
         */
        public Resolution {
            checks = Map.copyOf(checks);
            mappings = Map.copyOf(mappings);
            invalid = List.copyOf(invalid);
            waiting = List.copyOf(waiting);
            sources = Map.copyOf(sources);
            watched = Set.copyOf(watched);
        }

        /** Nothing checked. */
        public static final Resolution NONE = new Resolution(Map.of(), Map.of(), List.of(), List.of(), Map.of(), Set.of());
    }

    private static final String ROUTER_PORT = "router port ";

    private HealthChecks() {
    }

    /**
     * The indexes the resolution reads through.
     *
     * @return index specs
     */
    public static List<IndexSpec> indexes() {
        return List.of(PORT_BY_NAME, SWITCH_BY_PORT, ROUTER_PORT_BY_NAME, ROUTER_BY_PORT, LB_BY_NAME);
    }

    /**
     * Whether a spec checks any VIP.
     *
     * @param spec the spec
     * @return whether a VIP has a health check
     */
    public static boolean any(LoadBalancerSpec spec) {
        for (VipSpec v : spec.vips()) {
            if (v.healthCheck().isPresent()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Problems and waiting backends of every row of a spec.
     *
     * @param spec a statically valid spec
     * @param cache the NB cache, inside a read
     * @return all rows' resolutions merged (checks and mappings of different rows are not comparable)
     */
    public static Resolution resolveAll(LoadBalancerSpec spec, RowCache cache) {
        List<String> invalid = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        Map<String, HealthCheckSource> sources = new TreeMap<>();
        Set<String> watched = new HashSet<>();
        for (Protocol p : spec.protocols()) {
            Resolution r = resolve(spec, p, cache);
            invalid.addAll(r.invalid());
            waiting.addAll(r.waiting());
            sources.putAll(r.sources());
            watched.addAll(r.watched());
        }
        return new Resolution(Map.of(), Map.of(), invalid, waiting, sources, watched);
    }

    /**
     * The health checks of the spec's row of one protocol.
     *
     * @param spec a statically valid spec
     * @param protocol the row's protocol
     * @param cache the NB cache, inside a read
     * @return the resolution
     */
    public static Resolution resolve(LoadBalancerSpec spec, Protocol protocol, RowCache cache) {
        // A loop, not a stream: the engine asks this for every row it plans, nearly always of a
        // spec without health checks.
        for (VipSpec v : spec.vips()) {
            if (v.protocol() == protocol && v.healthCheck().isPresent()) {
                return new Run(spec, cache).resolve(protocol);
            }
        }
        return Resolution.NONE;
    }

    /** The {@code ip_port_mappings} key of a backend address: IPv6 in brackets (ovn-nb(5)). */
    static String mappingKey(Endpoint backend) {
        return backend.isIpv6() ? "[" + backend.host() + "]" : backend.host();
    }

    /** One resolution, inside a cache read. */
    private static final class Run {
        private final LoadBalancerSpec spec;
        private final RowCache cache;
        private final Optional<TableCache> ports;
        private Map<String, List<Row>> byAddress;
        private final List<Row> routerTypePorts = new ArrayList<>();

        Run(LoadBalancerSpec spec, RowCache cache) {
            this.spec = spec;
            this.cache = cache;
            this.ports = cache.findTable("Logical_Switch_Port");
        }

        /**
         * The canonical addresses of the backends of checked VIPs, of the given sources and of the
         * sources mapped now: the only ones looked for in the ports.
         */
        private Set<String> wanted() {
            Set<String> out = new HashSet<>();
            mapped.values().forEach(value -> {
                String src = sourceOf(value);
                if (src != null) {
                    out.add(src);
                }
            });
            for (VipSpec v : spec.vips()) {
                if (v.healthCheck().isPresent()) {
                    v.backends().forEach(b -> out.add(Endpoint.parse(b).host()));
                    v.healthCheck().get().sourceIp().ifPresent(ip -> out.add(Endpoint.address(ip).host()));
                }
            }
            spec.healthCheckSources().values().forEach(ips -> ips.forEach(ip -> out.add(Endpoint.address(ip).host())));
            return out;
        }

        Resolution resolve(Protocol protocol) {
            Map<String, Map<String, String>> checks = new TreeMap<>();
            Map<String, String> mappings = new TreeMap<>();
            Map<String, String> mappedBy = new LinkedHashMap<>();
            List<String> invalid = new ArrayList<>();
            List<String> waiting = new ArrayList<>();
            mapped = mappedNow(protocol);
            for (VipSpec v : spec.vips()) {
                if (v.protocol() != protocol || v.healthCheck().isEmpty()) {
                    continue;
                }
                HealthCheck hc = v.healthCheck().get();
                String vipKey = Endpoint.normalize(v.vip());
                Map<String, String> options = new TreeMap<>();
                options.put("interval", Integer.toString(hc.interval()));
                options.put("timeout", Integer.toString(hc.timeout()));
                options.put("success_count", Integer.toString(hc.successCount()));
                options.put("failure_count", Integer.toString(hc.failureCount()));
                checks.put(vipKey, options);
                for (String b : v.backends()) {
                    Endpoint be = Endpoint.parse(b);
                    String key = mappingKey(be);
                    String value = backend(v, hc, be, mapped.get(key), invalid, waiting);
                    if (value == null) {
                        continue;
                    }
                    String prev = mappings.putIfAbsent(key, value);
                    if (prev != null && !prev.equals(value)) {
                        invalid.add("backend " + be.host() + " is checked by " + mappedBy.get(key) + " as " + prev + " and by "
                                + v.vip() + " as " + value + "; one load balancer row maps each backend address once"
                                + " (ip_port_mappings): give both VIPs the same source and port");
                    } else {
                        mappedBy.putIfAbsent(key, v.vip());
                        sources.put(BackendHealthView.key(be, protocol), lastSource);
                    }
                }
            }
            return new Resolution(checks, mappings, invalid, waiting, sources, watched);
        }

        /**
         * The {@code ip_port_mappings} of the spec's row of this protocol now, for the sources already
         * chosen (a foreign row of the same name does not count).
         */
        private Map<String, String> mappedNow(Protocol protocol) {
            String rowName = spec.name() + "-" + protocol.wireValue();
            Optional<TableCache> lbs = cache.findTable("Load_Balancer");
            if (lbs.isPresent()) {
                for (Row r : lbs.get().lookup(LB_BY_NAME, rowName)) {
                    if (r.get("ip_port_mappings") instanceof Map<?, ?> m && !m.isEmpty() && r.get("external_ids") instanceof Map<?, ?> ids
                            && spec.name().equals(ids.get(DesiredRow.SPEC_KEY))) {
                        Map<String, String> out = new HashMap<>();
                        m.forEach((k, val) -> out.put(String.valueOf(k), String.valueOf(val)));
                        return out;
                    }
                }
            }
            return Map.of();
        }

        /** The row's ip_port_mappings now, read by {@link #resolve}. */
        private Map<String, String> mapped = Map.of();
        /** The source of the backend {@link #backend} mapped last. */
        private HealthCheckSource lastSource;
        private final Map<String, HealthCheckSource> sources = new TreeMap<>();
        private final Set<String> watched = new HashSet<>();
        /** The source chosen per switch and family in this run, so a switch's backends share one. */
        private final Map<List<Object>, String> chosenOn = new HashMap<>();

        /**
         * {@code port:source} for one backend, or null (and why) when it cannot be mapped now.
         *
         * @param mappedNow the backend's entry in the row's ip_port_mappings now, or null
         */
        private String backend(VipSpec v, HealthCheck hc, Endpoint be, String mappedNow, List<String> invalid, List<String> waiting) {
            String host = be.host();
            String explicit = explicitName(v, host);
            Row port;
            if (explicit != null) {
                List<Row> found = ports.map(t -> t.lookup(PORT_BY_NAME, explicit)).orElse(List.of());
                if (found.isEmpty()) {
                    waiting.add("backend " + host + " of " + v.vip() + ": logical switch port " + explicit + " does not exist yet"
                            + " (OVN sends no traffic to an unmapped backend of a checked VIP)");
                    return null;
                }
                port = found.get(0);
            } else {
                List<Row> found = byAddress().getOrDefault(host, List.of());
                if (found.isEmpty()) {
                    waiting.add("backend " + host + " of " + v.vip() + ": no logical switch port has address " + host + " yet"
                            + " (OVN sends no traffic to an unmapped backend of a checked VIP)");
                    return null;
                }
                if (found.size() > 1) {
                    invalid.add("backend " + host + " of " + v.vip() + " is the address of several logical switch ports ("
                            + String.join(", ", found.stream().map(HealthChecks::nameOf).sorted().toList())
                            + "); name one with the backend's port");
                    return null;
                }
                port = found.get(0);
            }
            String portName = nameOf(port);
            List<Row> switches = cache.findTable("Logical_Switch").map(t -> t.lookup(SWITCH_BY_PORT, port.uuid())).orElse(List.of());
            if (switches.isEmpty()) {
                waiting.add("backend " + host + " of " + v.vip() + ": logical switch port " + portName + " is on no switch yet");
                return null;
            }
            Row sw = switches.get(0);
            String swName = nameOf(sw);
            Optional<String> source = hc.sourceIp().or(() -> spec.healthCheckSources().getOrDefault(swName, List.of()).stream()
                    .filter(ip -> Endpoint.address(ip).isIpv6() == be.isIpv6()).findFirst());
            String srcText;
            if (source.isPresent()) {
                InetAddress src = Endpoint.address(source.get()).address();
                String problem = sourceProblem(sw, src, be);
                if (problem != null) {
                    invalid.add("health-check source " + IpAddresses.format(src) + " for backend " + host + " of " + v.vip() + problem);
                    return null;
                }
                srcText = IpAddresses.format(src);
                lastSource = new HealthCheckSource(srcText, false);
            } else {
                srcText = chosen(v, be, sw, mappedNow, invalid);
                if (srcText == null) {
                    return null;
                }
                lastSource = new HealthCheckSource(srcText, true);
                watched.add("ip:" + srcText);
            }
            return portName + ":" + (be.isIpv6() ? "[" + srcText + "]" : srcText);
        }

        /**
         * Why a source cannot probe a backend on this switch (the end of a sentence naming the
         * source and the backend), or null when it can.
         */
        private String sourceProblem(Row sw, InetAddress src, Endpoint be) {
            String swName = nameOf(sw);
            String fam = be.isIpv6() ? "IPv6" : "IPv4";
            List<IpNetwork> sameFamily = subnets(sw).stream().filter(n -> IpAddresses.sameFamily(n.address(), src)).toList();
            if (sameFamily.isEmpty()) {
                return " cannot be checked: switch " + swName + " has no " + fam + " subnet (other_config:"
                        + (be.isIpv6() ? "ipv6_prefix" : "subnet") + ") and no router port with an " + fam + " network";
            }
            if (sameFamily.stream().noneMatch(n -> n.contains(src))) {
                return " is outside the subnets of switch " + swName + " ("
                        + String.join(", ", sameFamily.stream().map(IpNetwork::cidr).distinct().toList()) + ")";
            }
            String holder = portWithAddress(sw, src);
            if (holder != null && holder.startsWith(ROUTER_PORT) && routerPortSources()) {
                // OVN 26.03 probes from a router port's own address on the backend's switch, but only
                // for a load balancer on that port's router; for any other it would answer ARP for the
                // router's address on the switch itself (ovn-northd, ovn_northd_lb_backend_set_mon_port).
                Row lrp = routerPorts(sw).stream().filter(p -> PortAddresses.isRouterPortAddress(p, src)).findFirst().orElseThrow();
                if (onSpecRouter(lrp)) {
                    return null;
                }
                return " is the address of " + holder + " on switch " + swName + ", whose router this load balancer is not on;"
                        + " OVN probes from a router port's address only for a load balancer on that router: add its router to"
                        + " routers, or use an unused address of the subnet";
            }
            if (holder != null && holder.startsWith(ROUTER_PORT)) {
                return " is the address of " + holder + " on switch " + swName + "; " + OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE.what()
                        + " needs OVN " + OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE.release() + " or later; the connected OVN is "
                        + release().map(r -> r[0] + " (" + r[1] + ")").orElse("of an unknown release")
                        + "; use an unused address of the subnet";
            }
            if (holder != null) {
                return " is the address of port " + holder + " on switch " + swName + "; use an unused address of the subnet";
            }
            return null;
        }

        /**
         * The source the engine chooses for a backend without a given one (see the class comment),
         * or null (and why, naming the switch and its networks) when there is none.
         */
        private String chosen(VipSpec v, Endpoint be, Row sw, String mappedNow, List<String> invalid) {
            List<Object> memo = List.of(sw.uuid(), be.isIpv6());
            String kept = mappedNow == null ? null : sourceOf(mappedNow);
            // Kept while it is of the family, in the subnet, and no port has taken it since (the
            // mapped sources are among the addresses looked up in the ports).
            if (kept != null && IpAddresses.sameFamily(IpAddresses.parse(kept), be.address())
                    && sourceProblem(sw, IpAddresses.parse(kept), be) == null) {
                chosenOn.putIfAbsent(memo, kept);
                return kept;
            }
            String earlier = chosenOn.get(memo);
            if (earlier != null) {
                return earlier;
            }
            String picked = routerPortSource(sw, be);
            String swName = nameOf(sw);
            String fam = be.isIpv6() ? "IPv6" : "IPv4";
            if (picked == null) {
                List<IpNetwork> sameFamily = subnets(sw).stream().filter(n -> n.family() == (be.isIpv6()
                        ? IpFamily.IPV6 : IpFamily.IPV4)).toList();
                if (sameFamily.isEmpty()) {
                    invalid.add("backend " + be.host() + " of " + v.vip() + " is on switch " + swName + ", which has no " + fam
                            + " subnet (other_config:" + (be.isIpv6() ? "ipv6_prefix" : "subnet") + ") and no router port with an " + fam
                            + " network, so no health-check source can be chosen: give the switch one, or set healthCheck.sourceIp or"
                            + " healthCheckSources." + swName);
                    return null;
                }
                IpNetwork net = sameFamily.stream().filter(n -> n.contains(be.address())).findFirst().orElse(sameFamily.get(0));
                picked = highestFree(sw, net);
                if (picked == null) {
                    invalid.add("backend " + be.host() + " of " + v.vip() + " is on switch " + swName + ", whose subnet " + net.cidr()
                            + " has no address left that no port uses and other_config:exclude_ips does not exclude, so no health-check"
                            + " source can be chosen: set healthCheck.sourceIp or healthCheckSources." + swName);
                    watched.add("switch:" + swName);
                    return null;
                }
            }
            chosenOn.put(memo, picked);
            return picked;
        }

        /**
         * The source of an ip_port_mappings value ({@code port:source}, {@code port:[source]}),
         * canonical, or null when it has none the engine would have written (e.g. a remote
         * endpoint's {@code :zone} of OVN 26.03).
         */
        private static String sourceOf(String value) {
            int colon = value.indexOf(':');
            if (colon < 0) {
                return null;
            }
            String src = value.substring(colon + 1);
            if (src.startsWith("[") && src.indexOf(']') > 0) {
                if (src.indexOf(']') != src.length() - 1) {
                    return null;
                }
                src = src.substring(1, src.length() - 1);
            } else if (src.indexOf(':') >= 0) {
                return null;
            }
            try {
                return IpAddresses.format(IpAddresses.parse(src));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /**
         * From OVN 26.03 on, for a load balancer on a router: the address of that router's port on
         * the backend's switch, in the port's network that holds the backend (ovn-northd probes
         * from it only when the load balancer is on the port's router). The router port named
         * first wins when several qualify.
         */
        private String routerPortSource(Row sw, Endpoint be) {
            if (spec.routers().isEmpty() || !routerPortSources()) {
                return null;
            }
            String best = null;
            String bestPort = null;
            for (Row lrp : routerPorts(sw)) {
                if (!onSpecRouter(lrp) || !(lrp.get("networks") instanceof Set<?> nets)) {
                    continue;
                }
                for (Object n : nets) {
                    String text = String.valueOf(n);
                    Optional<IpNetwork> net = PortAddresses.network(text, -1);
                    if (net.isPresent() && net.get().contains(be.address())
                            && (bestPort == null || nameOf(lrp).compareTo(bestPort) < 0)) {
                        best = IpAddresses.format(IpAddresses.parse(text.substring(0, text.indexOf('/'))));
                        bestPort = nameOf(lrp);
                    }
                }
            }
            return best;
        }

        /** Whether a router port's router is one the spec's load balancer is on. */
        private boolean onSpecRouter(Row lrp) {
            return !spec.routers().isEmpty() && cache.findTable("Logical_Router").map(t -> t.lookup(ROUTER_BY_PORT, lrp.uuid()).stream()
                    .anyMatch(r -> spec.routers().contains(nameOf(r)))).orElse(false);
        }

        /**
         * The highest host address of {@code net} that no port on the switch holds, no router port
         * on it has, and {@code other_config:exclude_ips} does not exclude; null when none is left.
         */
        private String highestFree(Row sw, IpNetwork net) {
            Set<String> used = usedOn(sw);
            List<IpRange> excluded = excluded(sw);
            IpRange hosts = net.hosts();
            int bits = IpAddresses.bits(net.address());
            BigInteger first = IpAddresses.toInteger(hosts.first());
            BigInteger at = IpAddresses.toInteger(hosts.last());
            // Each step down passes a used or excluded address, so this ends after at most that many steps.
            while (at.compareTo(first) >= 0) {
                InetAddress a = IpAddresses.fromInteger(at, bits);
                IpRange skip = null;
                for (IpRange r : excluded) {
                    if (r.contains(a)) {
                        skip = r;
                    }
                }
                if (skip != null) {
                    at = IpAddresses.toInteger(skip.first()).subtract(BigInteger.ONE);
                    continue;
                }
                String text = IpAddresses.format(a);
                if (!used.contains(text)) {
                    return text;
                }
                at = at.subtract(BigInteger.ONE);
            }
            return null;
        }

        /** Every address a port on the switch holds and every router port address on it, canonical. */
        private Set<String> usedOn(Row sw) {
            return usedOn.computeIfAbsent(sw.uuid(), k -> {
                Set<String> out = new HashSet<>();
                if (sw.get("ports") instanceof Set<?> ids && ports.isPresent()) {
                    for (Object id : ids) {
                        ports.get().get((UUID) id).ifPresent(p -> out.addAll(PortAddresses.of(p)));
                    }
                }
                for (Row lrp : routerPorts(sw)) {
                    if (lrp.get("networks") instanceof Set<?> nets) {
                        for (Object n : nets) {
                            String t = String.valueOf(n);
                            try {
                                out.add(IpAddresses.format(IpAddresses.parse(t.indexOf('/') < 0 ? t : t.substring(0, t.indexOf('/')))));
                            } catch (IllegalArgumentException e) {
                                // Not an address; northd ignores it too.
                            }
                        }
                    }
                }
                return out;
            });
        }

        private final Map<UUID, Set<String>> usedOn = new HashMap<>();

        /** {@code other_config:exclude_ips}: addresses and {@code a..b} ranges OVN's IPAM never hands out (IPv4). */
        private static List<IpRange> excluded(Row sw) {
            if (!(sw.get("other_config") instanceof Map<?, ?> oc) || !(oc.get("exclude_ips") instanceof String text)) {
                return List.of();
            }
            List<IpRange> out = new ArrayList<>();
            for (String token : text.trim().split("\\s+")) {
                try {
                    out.add(IpRange.parse(token));
                } catch (IllegalArgumentException e) {
                    // northd ignores what it cannot parse (and logs it).
                }
            }
            return out;
        }

        private static String explicitName(VipSpec v, String host) {
            for (Map.Entry<String, String> e : v.backendPorts().entrySet()) {
                if (Endpoint.address(e.getKey()).host().equals(host)) {
                    return e.getValue();
                }
            }
            return null;
        }

        /** Backend address to the switch ports holding it; built once per resolution (a scan of the ports). */
        private Map<String, List<Row>> byAddress() {
            if (byAddress == null) {
                byAddress = new HashMap<>();
                Set<String> wanted = wanted();
                Set<String> heads = PortAddresses.v6Heads(wanted);
                // One pass over the ports: who holds a backend or source address, and which are router ports.
                ports.ifPresent(t -> t.rows().forEach(p -> {
                    PortAddresses.held(p, wanted, heads).forEach(a -> byAddress.computeIfAbsent(a, k -> new ArrayList<>()).add(p));
                    if ("router".equals(p.get("type"))) {
                        routerTypePorts.add(p);
                    }
                }));
            }
            return byAddress;
        }

        /** The switch's subnets: other_config:subnet, other_config:ipv6_prefix (a /64), its router ports' networks. */
        private final Map<UUID, List<IpNetwork>> subnets = new HashMap<>();
        private final Map<UUID, List<Row>> routerPorts = new HashMap<>();
        private final Map<List<Object>, Optional<String>> holders = new HashMap<>();
        private Optional<String[]> release;

        /** The connected OVN's release, read once per run (NB_Global), only when a source needs it. */
        private Optional<String[]> release() {
            if (release == null) {
                release = OvnFeatures.release(cache);
            }
            return release;
        }

        private boolean routerPortSources() {
            return OvnFeatures.has(release(), OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE);
        }

        private List<IpNetwork> subnets(Row sw) {
            return subnets.computeIfAbsent(sw.uuid(), k -> readSubnets(sw));
        }

        private List<IpNetwork> readSubnets(Row sw) {
            List<IpNetwork> out = new ArrayList<>();
            if (sw.get("other_config") instanceof Map<?, ?> oc) {
                if (oc.get("subnet") instanceof String s) {
                    PortAddresses.network(s, 32).ifPresent(out::add);
                }
                if (oc.get("ipv6_prefix") instanceof String s) {
                    PortAddresses.network(s, 64).ifPresent(out::add);
                }
            }
            for (Row lrp : routerPorts(sw)) {
                if (lrp.get("networks") instanceof Set<?> nets) {
                    for (Object n : nets) {
                        PortAddresses.network(String.valueOf(n), -1).ifPresent(out::add);
                    }
                }
            }
            return out;
        }

        private List<Row> routerPorts(Row sw) {
            return routerPorts.computeIfAbsent(sw.uuid(), k -> readRouterPorts(sw));
        }

        private List<Row> readRouterPorts(Row sw) {
            List<Row> out = new ArrayList<>();
            Optional<TableCache> lrps = cache.findTable("Logical_Router_Port");
            if (lrps.isEmpty()) {
                return out;
            }
            byAddress();
            for (Row p : routerTypePorts) {
                if (onSwitch(p, sw) && p.get("options") instanceof Map<?, ?> o && o.get("router-port") instanceof String rp) {
                    out.addAll(lrps.get().lookup(ROUTER_PORT_BY_NAME, rp));
                }
            }
            // By name: the ports come in the cache's order, and a chosen source must not depend on it.
            out.sort(java.util.Comparator.comparing(HealthChecks::nameOf));
            return out;
        }

        private boolean onSwitch(Row port, Row sw) {
            return cache.findTable("Logical_Switch").map(t -> t.lookup(SWITCH_BY_PORT, port.uuid()).stream()
                    .anyMatch(r -> r.uuid().equals(sw.uuid()))).orElse(false);
        }

        /** The port on this switch (or router port on it) whose address is {@code ip}, or null. */
        private String portWithAddress(Row sw, InetAddress ip) {
            return holders.computeIfAbsent(List.of(sw.uuid(), ip), k -> Optional.ofNullable(findPortWithAddress(sw, ip))).orElse(null);
        }

        private String findPortWithAddress(Row sw, InetAddress ip) {
            String text = IpAddresses.format(ip);
            for (Row p : byAddress().getOrDefault(text, List.of())) {
                if (onSwitch(p, sw)) {
                    return nameOf(p);
                }
            }
            for (Row lrp : routerPorts(sw)) {
                if (PortAddresses.isRouterPortAddress(lrp, ip)) {
                    return ROUTER_PORT + nameOf(lrp);
                }
            }
            return null;
        }
    }


    static String nameOf(Row row) {
        return row.get("name") instanceof String s ? s : "";
    }
}
