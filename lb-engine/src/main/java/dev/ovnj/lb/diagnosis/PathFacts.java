package dev.ovnj.lb.diagnosis;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.model.Acl;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPolicy;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.LogicalRouterStaticRoute;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.LogicalSwitchPort;
import dev.ovnj.nb.model.PortGroup;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What tracing a client's packets to a VIP needs beyond {@link NorthboundFacts} and
 * {@link SouthboundFacts}: the Northbound rows a logical flow can be pinned on (ACLs and where they
 * are applied, router policies, load balancers, switch and router ports) by the uuid prefix northd
 * writes into a flow's {@code external_ids:stage-hint}, every logical flow's stage hint by the uuid
 * prefix {@code ovn-trace} prints, the switch ports by address, and the routers' static routes.
 * Read from clients' caches in one pass each; immutable once read.
 */
public final class PathFacts {
    private static final String[] NB_TABLES = {"ACL", "Port_Group", "Logical_Router_Policy", "Logical_Router_Static_Route"};
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final int PREFIX = 8;

    private final Map<String, List<PathObject>> objects;
    private final Map<String, List<String>> hints;
    private final Map<String, SwitchPort> portsByName;
    private final Map<String, SwitchPort> portsByIp;
    private final Map<String, RouterPortRef> routerPorts;
    private final Map<String, List<String>> routes;
    private final Map<UUID, String> aclDeletes;

    private PathFacts(Map<String, List<PathObject>> objects, Map<String, List<String>> hints, Map<String, SwitchPort> portsByName,
                      Map<String, SwitchPort> portsByIp, Map<String, RouterPortRef> routerPorts, Map<String, List<String>> routes,
                      Map<UUID, String> aclDeletes) {
        this.objects = objects;
        this.hints = hints;
        this.portsByName = portsByName;
        this.portsByIp = portsByIp;
        this.routerPorts = routerPorts;
        this.routes = routes;
        this.aclDeletes = aclDeletes;
    }

    /**
     * The tables a Northbound client must monitor for {@link #read}: those of
     * {@link NorthboundFacts#monitorRequest()} and the ACLs, port groups, router policies and routes.
     *
     * @return the monitor request
     */
    public static MonitorRequest northboundMonitorRequest() {
        List<String> tables = new ArrayList<>(NorthboundFacts.tables());
        for (String t : NB_TABLES) {
            if (!tables.contains(t)) {
                tables.add(t);
            }
        }
        return MonitorRequest.tables(tables.toArray(String[]::new));
    }

    /**
     * What a Southbound client must monitor for {@link #read}: {@link SouthboundFacts#monitorRequest()}
     * and the logical flows' {@code external_ids}, where northd names the Northbound row of a flow.
     *
     * @return the monitor request
     */
    public static MonitorRequest southboundMonitorRequest() {
        return SouthboundFacts.monitorRequest(List.of("external_ids"));
    }

    /**
     * Reads both caches.
     *
     * @param northbound a cache monitoring {@link #northboundMonitorRequest()}
     * @param southbound a cache monitoring {@link #southboundMonitorRequest()}
     * @return the facts
     * @throws IllegalStateException naming a table the Northbound cache does not hold
     */
    public static PathFacts read(RowCache northbound, RowCache southbound) {
        for (String t : NB_TABLES) {
            if (northbound.findTable(t).isEmpty()) {
                throw new IllegalStateException("the Northbound cache does not hold table " + t + "; monitor PathFacts.northboundMonitorRequest()");
            }
        }
        Map<String, List<String>> hints = southbound.read(() -> readHints(southbound));
        return northbound.read(() -> readNorthbound(northbound, hints));
    }

    private static Map<String, List<String>> readHints(RowCache sb) {
        Map<String, List<String>> out = new HashMap<>();
        for (Row r : sb.table("Logical_Flow").rows()) {
            Object ids = r.get("external_ids");
            if (ids instanceof Map<?, ?> m && m.get("stage-hint") instanceof String hint) {
                out.computeIfAbsent(prefix(r.uuid()), k -> new ArrayList<>(1)).add(hint.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static PathFacts readNorthbound(RowCache nb, Map<String, List<String>> hints) {
        Map<String, List<PathObject>> objects = new HashMap<>();
        Map<UUID, String> aclHolders = new HashMap<>();
        Map<UUID, String> aclEntities = new HashMap<>();
        Map<UUID, String> aclDeletes = new HashMap<>();
        Map<String, SwitchPort> portsByName = new HashMap<>();
        Map<String, SwitchPort> portsByIp = new HashMap<>();
        Map<UUID, LogicalSwitchPort> lsps = new HashMap<>();
        for (Row r : nb.table("Logical_Switch_Port").rows()) {
            lsps.put(r.uuid(), LogicalSwitchPort.fromRow(r));
        }
        Map<String, RouterPortRef> routerPorts = new HashMap<>();
        Map<UUID, LogicalRouterPort> lrps = new HashMap<>();
        for (Row r : nb.table("Logical_Router_Port").rows()) {
            LogicalRouterPort p = LogicalRouterPort.fromRow(r);
            lrps.put(r.uuid(), p);
            add(objects, new PathObject("Logical_Router_Port", p.name(), r.uuid(), ""));
        }
        Map<UUID, String> policyRouters = new HashMap<>();
        Map<String, List<String>> routes = new HashMap<>();
        Map<UUID, LogicalRouterStaticRoute> staticRoutes = new HashMap<>();
        for (Row r : nb.table("Logical_Router_Static_Route").rows()) {
            staticRoutes.put(r.uuid(), LogicalRouterStaticRoute.fromRow(r));
        }
        for (Row r : nb.table("Logical_Router").rows()) {
            LogicalRouter lr = LogicalRouter.fromRow(r);
            lr.policies().forEach(p -> policyRouters.put(p, lr.name()));
            List<String> mine = new ArrayList<>();
            for (UUID s : lr.staticRoutes()) {
                LogicalRouterStaticRoute route = staticRoutes.get(s);
                if (route != null) {
                    mine.add(route.ipPrefix() + " via " + route.nexthop());
                }
            }
            routes.put(lr.name(), mine);
            for (UUID p : lr.ports()) {
                LogicalRouterPort port = lrps.get(p);
                if (port != null) {
                    routerPorts.put(port.name(), new RouterPortRef(lr.name(), r.uuid(), port, p));
                }
            }
        }
        Map<String, String> routerMacs = new HashMap<>();
        for (RouterPortRef p : routerPorts.values()) {
            routerMacs.put(p.port().name(), p.port().mac());
        }
        for (Row r : nb.table("Logical_Switch").rows()) {
            LogicalSwitch ls = LogicalSwitch.fromRow(r);
            ls.acls().forEach(a -> aclHolders.put(a, "switch " + ls.name()));
            ls.acls().forEach(a -> aclEntities.put(a, "--type=switch " + ls.name()));
            String gatewayMac = "";
            for (UUID p : ls.ports()) {
                LogicalSwitchPort lsp = lsps.get(p);
                if (lsp != null && lsp.type().equals("router") && routerMacs.containsKey(lsp.options().getOrDefault("router-port", ""))) {
                    gatewayMac = routerMacs.get(lsp.options().get("router-port"));
                }
            }
            for (UUID p : ls.ports()) {
                LogicalSwitchPort lsp = lsps.get(p);
                if (lsp == null) {
                    continue;
                }
                SwitchPort port = switchPort(ls.name(), p, lsp, gatewayMac);
                portsByName.put(lsp.name(), port);
                port.ips().forEach(ip -> portsByIp.putIfAbsent(ip, port));
                add(objects, new PathObject("Logical_Switch_Port", lsp.name(), p,
                        lsp.enabled().orElse(true) ? "" : "enabled=false"));
            }
        }
        for (Row r : nb.table("Port_Group").rows()) {
            PortGroup pg = PortGroup.fromRow(r);
            pg.acls().forEach(a -> aclHolders.put(a, "port group " + pg.name()));
            pg.acls().forEach(a -> aclEntities.put(a, "--type=port-group " + pg.name()));
        }
        for (Row r : nb.table("ACL").rows()) {
            Acl acl = Acl.fromRow(r);
            String entity = aclEntities.get(r.uuid());
            if (entity != null) {
                aclDeletes.put(r.uuid(), "ovn-nbctl " + entity.substring(0, entity.indexOf(' ')) + " acl-del "
                        + entity.substring(entity.indexOf(' ') + 1) + " " + acl.direction().wireValue() + " " + acl.priority()
                        + " '" + acl.match() + "'");
            }
            add(objects, new PathObject("ACL", acl.name().orElse(""), r.uuid(), acl.direction().wireValue() + " priority " + acl.priority()
                    + " match \"" + acl.match() + "\" action " + acl.action().wireValue()
                    + Optional.ofNullable(aclHolders.get(r.uuid())).map(h -> " on " + h).orElse("")));
        }
        for (Row r : nb.table("Logical_Router_Policy").rows()) {
            LogicalRouterPolicy p = LogicalRouterPolicy.fromRow(r);
            add(objects, new PathObject("Logical_Router_Policy", "", r.uuid(), "priority " + p.priority() + " match \"" + p.match()
                    + "\" action " + p.action().wireValue()
                    + Optional.ofNullable(policyRouters.get(r.uuid())).map(h -> " on router " + h).orElse("")));
        }
        for (Row r : nb.table("Load_Balancer").rows()) {
            add(objects, new PathObject("Load_Balancer", LoadBalancer.fromRow(r).name(), r.uuid(), ""));
        }
        return new PathFacts(objects, hints, portsByName, portsByIp, routerPorts, routes, aclDeletes);
    }

    private static SwitchPort switchPort(String switchName, UUID uuid, LogicalSwitchPort lsp, String gatewayMac) {
        String mac = "";
        List<String> ips = new ArrayList<>();
        List<String> entries = new ArrayList<>(lsp.addresses());
        lsp.dynamicAddresses().ifPresent(entries::add);
        for (String entry : entries) {
            for (String token : SPACES.split(entry.trim())) {
                if (token.matches("\\p{XDigit}{2}(:\\p{XDigit}{2}){5}")) {
                    if (mac.isEmpty()) {
                        mac = token.toLowerCase(Locale.ROOT);
                    }
                    continue;
                }
                try {
                    ips.add(IpAddresses.format(IpAddresses.parse(token.contains("/") ? token.substring(0, token.indexOf('/')) : token)));
                } catch (IllegalArgumentException notAnAddress) {
                    // "router", "unknown", "dynamic": no address
                }
            }
        }
        return new SwitchPort(lsp.name(), uuid, switchName, mac, ips, gatewayMac);
    }

    private static void add(Map<String, List<PathObject>> objects, PathObject o) {
        objects.computeIfAbsent(prefix(o.uuid()), k -> new ArrayList<>(1)).add(o);
    }

    private static String prefix(UUID uuid) {
        return uuid.toString().substring(0, PREFIX);
    }

    /**
     * The Northbound row a traced flow was made for: the flow's uuid prefix (as {@code ovn-trace}
     * prints it) to its {@code stage-hint}, and that to the one row whose uuid starts with it.
     */
    Optional<PathObject> objectOf(String flowPrefix) {
        String key = flowPrefix.length() > PREFIX ? flowPrefix.substring(0, PREFIX) : flowPrefix;
        List<String> flowHints = hints.getOrDefault(key, List.of());
        if (flowHints.size() != 1) {
            return Optional.empty();
        }
        List<PathObject> rows = objects.getOrDefault(flowHints.get(0), List.of());
        return rows.size() == 1 ? Optional.of(rows.get(0)) : Optional.empty();
    }

    /** The ovn-nbctl command that deletes an ACL, when it is applied to a switch or port group. */
    Optional<String> aclDelete(UUID acl) {
        return Optional.ofNullable(aclDeletes.get(acl));
    }

    /** A logical switch port by name. */
    Optional<SwitchPort> switchPort(String name) {
        return Optional.ofNullable(portsByName.get(name));
    }

    /** The logical switch port that has this (canonical) IP. */
    Optional<SwitchPort> portWithAddress(String ip) {
        return Optional.ofNullable(portsByIp.get(ip));
    }

    /** A logical router port by name, with its router's name. */
    Optional<RouterPortRef> routerPort(String name) {
        return Optional.ofNullable(routerPorts.get(name));
    }

    /** A router's static routes as {@code PREFIX via NEXTHOP}. */
    List<String> routes(String router) {
        return routes.getOrDefault(router, List.of());
    }

    /**
     * A logical switch port as a packet sees it.
     *
     * @param name the port
     * @param uuid its row
     * @param switchName its switch
     * @param mac its first MAC, or empty
     * @param ips its addresses, canonical
     * @param gatewayMac the MAC of the router port on its switch, or empty when the switch has none
     */
    record SwitchPort(String name, UUID uuid, String switchName, String mac, List<String> ips, String gatewayMac) {
        SwitchPort {
            ips = List.copyOf(ips);
        }
    }

    /**
     * A logical router port and its router.
     *
     * @param router the router's name
     * @param routerUuid the router's row
     * @param port the port
     * @param uuid the port's row
     */
    record RouterPortRef(String router, UUID routerUuid, LogicalRouterPort port, UUID uuid) {
    }
}
