package dev.ovnj.lb.internal;

import dev.ovnj.lb.OvnFeatures;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a spec's health checks become in one {@code Load_Balancer} row, read from the topology:
 * one {@code Load_Balancer_Health_Check} per checked VIP, and {@code ip_port_mappings} from each
 * backend address to the {@code Logical_Switch_Port} holding it (in {@code addresses} or
 * {@code dynamic_addresses}, unless the spec names the port) and the source address the monitor
 * probes from. The source must lie in the backend switch's subnet ({@code other_config:subnet},
 * {@code other_config:ipv6_prefix}, or the networks of a router port on that switch) and must
 * not be any port's address. Call inside a cache read.
 */
public final class HealthChecks {
    /** Logical switch ports by name (an explicit {@code port:}). */
    static final IndexSpec PORT_BY_NAME = IndexSpec.of("Logical_Switch_Port", "name");
    /** Switches by port, to find a backend port's switch. */
    static final IndexSpec SWITCH_BY_PORT = IndexSpec.of("Logical_Switch", "ports");
    /** Router ports by name, for the networks of a router port on the switch. */
    static final IndexSpec ROUTER_PORT_BY_NAME = IndexSpec.of("Logical_Router_Port", "name");

    /**
     * One row's health checks.
     *
     * @param checks VIP key (as in {@code vips}) to the health check's {@code options}
     * @param mappings {@code ip_port_mappings}
     * @param invalid problems that make the spec INVALID
     * @param waiting backends not mapped yet, in words
     */
    public record Resolution(Map<String, Map<String, String>> checks, Map<String, String> mappings, List<String> invalid,
                             List<String> waiting) {
        /**
         * Copies the collections.
         *
         * @param checks VIP key to options
         * @param mappings ip_port_mappings
         * @param invalid problems that make the spec INVALID
         * @param waiting backends not mapped yet
         */
        public Resolution {
            checks = Map.copyOf(checks);
            mappings = Map.copyOf(mappings);
            invalid = List.copyOf(invalid);
            waiting = List.copyOf(waiting);
        }

        /** Nothing checked. */
        static final Resolution NONE = new Resolution(Map.of(), Map.of(), List.of(), List.of());
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
        return List.of(PORT_BY_NAME, SWITCH_BY_PORT, ROUTER_PORT_BY_NAME);
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
        for (Protocol p : spec.protocols()) {
            Resolution r = resolve(spec, p, cache);
            invalid.addAll(r.invalid());
            waiting.addAll(r.waiting());
        }
        return new Resolution(Map.of(), Map.of(), invalid, waiting);
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

        /** The canonical addresses of the backends of checked VIPs: the only ones looked for in the ports. */
        private Set<String> wanted() {
            Set<String> out = new java.util.HashSet<>();
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
                    String value = backend(v, hc, be, invalid, waiting);
                    if (value == null) {
                        continue;
                    }
                    String key = mappingKey(be);
                    String prev = mappings.putIfAbsent(key, value);
                    if (prev != null && !prev.equals(value)) {
                        invalid.add("backend " + be.host() + " is checked by " + mappedBy.get(key) + " as " + prev + " and by "
                                + v.vip() + " as " + value + "; one load balancer row maps each backend address once"
                                + " (ip_port_mappings): give both VIPs the same source and port");
                    } else {
                        mappedBy.putIfAbsent(key, v.vip());
                    }
                }
            }
            return new Resolution(checks, mappings, invalid, waiting);
        }

        /** {@code port:source} for one backend, or null (and why) when it cannot be mapped now. */
        private String backend(VipSpec v, HealthCheck hc, Endpoint be, List<String> invalid, List<String> waiting) {
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
            if (source.isEmpty()) {
                invalid.add("backend " + host + " of " + v.vip() + " is on switch " + swName + ", but no " + (be.isIpv6() ? "IPv6" : "IPv4")
                        + " health-check source is given: set healthCheck.sourceIp or healthCheckSources." + swName);
                return null;
            }
            InetAddress src = Endpoint.address(source.get()).address();
            String srcText = IpAddresses.format(src);
            List<IpNetwork> nets = subnets(sw);
            String fam = be.isIpv6() ? "IPv6" : "IPv4";
            List<IpNetwork> sameFamily = nets.stream().filter(n -> IpAddresses.sameFamily(n.address(), src)).toList();
            if (sameFamily.isEmpty()) {
                invalid.add("health-check source " + srcText + " for backend " + host + " of " + v.vip() + " cannot be checked: switch "
                        + swName + " has no " + fam + " subnet (other_config:" + (be.isIpv6() ? "ipv6_prefix" : "subnet")
                        + ") and no router port with an " + fam + " network");
                return null;
            }
            if (sameFamily.stream().noneMatch(n -> n.contains(src))) {
                invalid.add("health-check source " + srcText + " for backend " + host + " of " + v.vip() + " is outside the subnets of switch "
                        + swName + " (" + String.join(", ", sameFamily.stream().map(IpNetwork::cidr).distinct().toList()) + ")");
                return null;
            }
            String holder = portWithAddress(sw, src);
            if (holder != null && holder.startsWith(ROUTER_PORT) && routerPortSources()) {
                // OVN 26.03 probes from a router port's own address on the backend's switch.
                return portName + ":" + (be.isIpv6() ? "[" + srcText + "]" : srcText);
            }
            if (holder != null && holder.startsWith(ROUTER_PORT)) {
                invalid.add("health-check source " + srcText + " for backend " + host + " of " + v.vip() + " is the address of "
                        + holder + " on switch " + swName + "; " + OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE.what() + " needs OVN "
                        + OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE.release() + " or later; the connected OVN is "
                        + release().map(r -> r[0] + " (" + r[1] + ")").orElse("of an unknown release")
                        + "; use an unused address of the subnet");
                return null;
            }
            if (holder != null) {
                invalid.add("health-check source " + srcText + " for backend " + host + " of " + v.vip() + " is the address of port "
                        + holder + " on switch " + swName + "; use an unused address of the subnet");
                return null;
            }
            return portName + ":" + (be.isIpv6() ? "[" + srcText + "]" : srcText);
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
                byAddress = new java.util.HashMap<>();
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
        private final Map<java.util.UUID, List<IpNetwork>> subnets = new java.util.HashMap<>();
        private final Map<java.util.UUID, List<Row>> routerPorts = new java.util.HashMap<>();
        private final Map<List<Object>, Optional<String>> holders = new java.util.HashMap<>();
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
