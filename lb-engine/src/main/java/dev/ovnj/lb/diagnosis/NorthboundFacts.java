package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.eip.RouterNetworks;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LoadBalancerGroup;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.LogicalRouterStaticRoute;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.LogicalSwitchPort;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What the Northbound database says about load balancers, read from a client's cache in one
 * consistent pass and indexed for the checks: every load balancer (owned or not) with the routers
 * and switches that hold it directly or through a group, the routers' ports, and the addresses of
 * the switch ports. Immutable once read.
 */
public final class NorthboundFacts {
    // Compiled once: every switch port's addresses are split on each read.
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Pattern MAC = Pattern.compile("\\p{XDigit}{2}(:\\p{XDigit}{2}){5}");
    private static final String[] TABLES = {"Load_Balancer", "Load_Balancer_Group", "Logical_Router",
        "Logical_Router_Port", "Logical_Switch", "Logical_Switch_Port"};
    /** Read when the cache holds it (the backend-reach check needs it; without it that check is skipped). */
    static final String STATIC_ROUTES = "Logical_Router_Static_Route";

    private final Map<UUID, LoadBalancer> balancers;
    private final Map<String, List<UUID>> balancersByName;
    private final Map<UUID, Set<UUID>> routersOf;
    private final Map<UUID, Set<UUID>> switchesOf;
    private final Map<UUID, Set<UUID>> directOf;
    private final Map<UUID, String> groupNames;
    private final Map<UUID, Set<UUID>> groupsOf;
    private final Map<UUID, LogicalRouter> routers;
    private final Map<String, UUID> routersByName;
    private final Map<UUID, LogicalRouterPort> routerPorts;
    private final Map<UUID, String> switchNames;
    private final Map<String, UUID> switchesByName;
    private final Set<String> portAddresses;
    private final Map<UUID, Map<String, List<UUID>>> vipUsers;
    private final RouterNetworks networks;
    private final Optional<Map<String, List<StaticRoute>>> staticRoutes;

    private NorthboundFacts(Reader r) {
        this.balancers = r.balancers;
        this.balancersByName = r.balancersByName;
        this.routersOf = r.routersOf;
        this.switchesOf = r.switchesOf;
        this.directOf = r.directOf;
        this.groupNames = r.groupNames;
        this.groupsOf = r.groupsOf;
        this.routers = r.routers;
        this.routersByName = r.routersByName;
        this.routerPorts = r.routerPorts;
        this.switchNames = r.switchNames;
        this.switchesByName = r.switchesByName;
        this.portAddresses = r.portAddresses;
        this.vipUsers = r.vipUsers;
        this.networks = r.networks;
        this.staticRoutes = r.staticRoutes;
    }

    /**
     * The tables a Northbound client must monitor for {@link #read(RowCache)}.
     *
     * @return the monitor request
     */
    public static MonitorRequest monitorRequest() {
        return MonitorRequest.tables(tables().toArray(String[]::new));
    }

    /** The tables {@link #read(RowCache)} reads, for requests that monitor more. */
    static List<String> tables() {
        List<String> out = new ArrayList<>(List.of(TABLES));
        out.add(STATIC_ROUTES);
        return out;
    }

    /**
     * Reads a Northbound client's cache (which must monitor at least {@link #monitorRequest()}).
     *
     * @param cache the cache
     * @return the facts
     * @throws IllegalStateException naming a table the cache does not hold
     */
    public static NorthboundFacts read(RowCache cache) {
        for (String t : TABLES) {
            if (cache.findTable(t).isEmpty()) {
                throw new IllegalStateException("the Northbound cache does not hold table " + t
                        + "; monitor NorthboundFacts.monitorRequest()");
            }
        }
        return cache.read(() -> new NorthboundFacts(new Reader(cache)));
    }

    /** Every load balancer row, by uuid. */
    Map<UUID, LoadBalancer> balancers() {
        return balancers;
    }

    /** The load balancer rows of that name. */
    List<UUID> balancersNamed(String name) {
        return balancersByName.getOrDefault(name, List.of());
    }

    /** One load balancer row. */
    LoadBalancer balancer(UUID uuid) {
        return balancers.get(uuid);
    }

    /** Routers holding the row directly or through a group. */
    Set<UUID> routersOf(UUID lb) {
        return routersOf.getOrDefault(lb, Set.of());
    }

    /** Switches holding the row directly or through a group. */
    Set<UUID> switchesOf(UUID lb) {
        return switchesOf.getOrDefault(lb, Set.of());
    }

    /** Routers and switches holding the row directly, not through a group. */
    Set<UUID> directDatapaths(UUID lb) {
        return directOf.getOrDefault(lb, Set.of());
    }

    /** Names of the groups holding the row. */
    List<String> groupsOf(UUID lb) {
        return groupsOf.getOrDefault(lb, Set.of()).stream().map(groupNames::get).sorted().toList();
    }

    /** A router by uuid. */
    LogicalRouter router(UUID uuid) {
        return routers.get(uuid);
    }

    /** A router's uuid by name. */
    Optional<UUID> routerNamed(String name) {
        return Optional.ofNullable(routersByName.get(name));
    }

    /** A switch's name. */
    String switchName(UUID uuid) {
        return switchNames.getOrDefault(uuid, uuid.toString());
    }

    /** A switch's uuid by name. */
    Optional<UUID> switchNamed(String name) {
        return Optional.ofNullable(switchesByName.get(name));
    }

    /** The ports of a router that exist. */
    List<LogicalRouterPort> portsOf(LogicalRouter router) {
        List<LogicalRouterPort> out = new ArrayList<>();
        for (UUID p : router.ports()) {
            LogicalRouterPort port = routerPorts.get(p);
            if (port != null) {
                out.add(port);
            }
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    /** Whether some logical switch port has this (canonical) IP in its addresses. */
    boolean isSwitchPortAddress(String ip) {
        return portAddresses.contains(ip);
    }

    /** The router networks. */
    RouterNetworks networks() {
        return networks;
    }

    /** Every router's name. */
    List<String> routerNames() {
        return routersByName.keySet().stream().sorted().toList();
    }

    /**
     * A router's static routes, or empty when the cache did not hold the table (then nothing can
     * be said about where the router sends an address outside its networks).
     */
    Optional<List<StaticRoute>> staticRoutes(String router) {
        return staticRoutes.map(m -> m.getOrDefault(router, List.of()));
    }

    /**
     * A static route as a check needs it.
     *
     * @param prefix the destination network, or empty when it does not parse
     * @param text {@code PREFIX via NEXTHOP}, as it is shown
     */
    record StaticRoute(Optional<IpNetwork> prefix, String text) {
        /** Whether the route covers the address with a prefix longer than 0 (not a default route). */
        boolean coversSpecifically(InetAddress a) {
            return prefix.filter(p -> p.prefixLength() > 0 && p.contains(a)).isPresent();
        }

        /** Whether it is a default route of the address's family. */
        boolean isDefaultFor(InetAddress a) {
            return prefix.filter(p -> p.prefixLength() == 0 && p.contains(a)).isPresent();
        }
    }

    /** The load balancers on a router or switch serving this VIP key (see {@link #vipKey}). */
    List<UUID> vipUsers(UUID datapath, String key) {
        return vipUsers.getOrDefault(datapath, Map.of()).getOrDefault(key, List.of());
    }

    /** The key a VIP is served under: canonical VIP and protocol. */
    static String vipKey(String canonicalVip, String protocol) {
        return canonicalVip + "/" + protocol;
    }

    /** The protocol of a row, {@code tcp} when unset as OVN defaults. */
    static String protocol(LoadBalancer lb) {
        return lb.protocol().map(p -> p.wireValue()).orElse("tcp");
    }

    /** The owner of a row, when ovnj owns it. */
    static Optional<String> owner(LoadBalancer lb) {
        return Optional.ofNullable(lb.externalIds().get(DesiredRow.OWNER_KEY));
    }

    /** The spec name of an owned row, else the row's name. */
    static String specName(LoadBalancer lb) {
        return lb.externalIds().getOrDefault(DesiredRow.SPEC_KEY, lb.name());
    }

    /** Builds the indexes in one pass over the cache. */
    private static final class Reader {
        final Map<UUID, LoadBalancer> balancers = new LinkedHashMap<>();
        final Map<String, List<UUID>> balancersByName = new HashMap<>();
        final Map<UUID, Set<UUID>> routersOf = new HashMap<>();
        final Map<UUID, Set<UUID>> switchesOf = new HashMap<>();
        final Map<UUID, Set<UUID>> directOf = new HashMap<>();
        final Map<UUID, String> groupNames = new HashMap<>();
        final Map<UUID, Set<UUID>> groupsOf = new HashMap<>();
        final Map<UUID, LogicalRouter> routers = new HashMap<>();
        final Map<String, UUID> routersByName = new HashMap<>();
        final Map<UUID, LogicalRouterPort> routerPorts = new HashMap<>();
        final Map<UUID, String> switchNames = new HashMap<>();
        final Map<String, UUID> switchesByName = new HashMap<>();
        final Set<String> portAddresses = new HashSet<>();
        final Map<UUID, Map<String, List<UUID>>> vipUsers = new HashMap<>();
        final RouterNetworks networks;
        final Optional<Map<String, List<StaticRoute>>> staticRoutes;

        Reader(RowCache cache) {
            for (Row r : cache.table("Load_Balancer").rows()) {
                LoadBalancer lb = LoadBalancer.fromRow(r);
                balancers.put(r.uuid(), lb);
                balancersByName.computeIfAbsent(lb.name(), k -> new ArrayList<>()).add(r.uuid());
            }
            Map<UUID, Set<UUID>> groupMembers = new HashMap<>();
            for (Row r : cache.table("Load_Balancer_Group").rows()) {
                LoadBalancerGroup g = LoadBalancerGroup.fromRow(r);
                groupNames.put(r.uuid(), g.name());
                groupMembers.put(r.uuid(), g.loadBalancer());
                g.loadBalancer().forEach(lb -> groupsOf.computeIfAbsent(lb, k -> new LinkedHashSet<>()).add(r.uuid()));
            }
            for (Row r : cache.table("Logical_Router").rows()) {
                LogicalRouter lr = LogicalRouter.fromRow(r);
                routers.put(r.uuid(), lr);
                routersByName.putIfAbsent(lr.name(), r.uuid());
                attach(routersOf, r.uuid(), lr.loadBalancer(), lr.loadBalancerGroup(), groupMembers);
            }
            for (Row r : cache.table("Logical_Router_Port").rows()) {
                routerPorts.put(r.uuid(), LogicalRouterPort.fromRow(r));
            }
            for (Row r : cache.table("Logical_Switch").rows()) {
                LogicalSwitch ls = LogicalSwitch.fromRow(r);
                switchNames.put(r.uuid(), ls.name());
                switchesByName.putIfAbsent(ls.name(), r.uuid());
                attach(switchesOf, r.uuid(), ls.loadBalancer(), ls.loadBalancerGroup(), groupMembers);
            }
            TableCache ports = cache.table("Logical_Switch_Port");
            for (Row r : ports.rows()) {
                LogicalSwitchPort lsp = LogicalSwitchPort.fromRow(r);
                lsp.addresses().forEach(this::addAddresses);
                lsp.dynamicAddresses().ifPresent(this::addAddresses);
            }
            networks = RouterNetworks.read(cache);
            staticRoutes = cache.findTable(STATIC_ROUTES).map(t -> {
                Map<UUID, LogicalRouterStaticRoute> byUuid = new HashMap<>();
                t.rows().forEach(r -> byUuid.put(r.uuid(), LogicalRouterStaticRoute.fromRow(r)));
                Map<String, List<StaticRoute>> out = new HashMap<>();
                for (LogicalRouter lr : routers.values()) {
                    List<StaticRoute> mine = new ArrayList<>();
                    for (UUID u : lr.staticRoutes()) {
                        LogicalRouterStaticRoute route = byUuid.get(u);
                        if (route != null) {
                            mine.add(new StaticRoute(prefix(route.ipPrefix()), route.ipPrefix() + " via " + route.nexthop()));
                        }
                    }
                    out.put(lr.name(), List.copyOf(mine));
                }
                return out;
            });
        }

        /** A route's ip_prefix: {@code NET/LEN}, or a bare address (a host route). */
        private static Optional<IpNetwork> prefix(String text) {
            try {
                if (text.indexOf('/') >= 0) {
                    return Optional.of(IpNetwork.parse(text));
                }
                InetAddress a = IpAddresses.parse(text);
                return Optional.of(new IpNetwork(a, IpAddresses.bits(a)));
            } catch (IllegalArgumentException malformed) {
                return Optional.empty();
            }
        }

        private void attach(Map<UUID, Set<UUID>> holders, UUID datapath, Set<UUID> direct, Set<UUID> groups,
                            Map<UUID, Set<UUID>> groupMembers) {
            direct.forEach(lb -> directOf.computeIfAbsent(lb, k -> new LinkedHashSet<>()).add(datapath));
            Set<UUID> served = new LinkedHashSet<>(direct);
            groups.forEach(g -> served.addAll(groupMembers.getOrDefault(g, Set.of())));
            for (UUID lb : served) {
                holders.computeIfAbsent(lb, k -> new LinkedHashSet<>()).add(datapath);
                LoadBalancer row = balancers.get(lb);
                if (row == null) {
                    continue;
                }
                Map<String, List<UUID>> byVip = vipUsers.computeIfAbsent(datapath, k -> new HashMap<>());
                String protocol = protocol(row);
                for (String vip : row.vips().keySet()) {
                    byVip.computeIfAbsent(vipKey(Endpoints.canonical(vip), protocol), k -> new ArrayList<>(2)).add(lb);
                }
            }
        }

        /** An {@code addresses} entry is "MAC IP..." (or router, unknown, dynamic): keep the IPs. */
        private void addAddresses(String entry) {
            for (String token : SPACES.split(entry.trim())) {
                if (token.indexOf('.') < 0 && token.indexOf(':') < 0 || MAC.matcher(token).matches()) {
                    continue;
                }
                try {
                    portAddresses.add(IpAddresses.format(IpAddresses.parse(token.contains("/")
                            ? token.substring(0, token.indexOf('/')) : token)));
                } catch (IllegalArgumentException notAnAddress) {
                    // a MAC, a keyword or a malformed token: not an address a backend could have
                }
            }
        }
    }
}
