package dev.ovnj.nb.command;

import dev.ovnj.nb.ip.IpAddresses;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The text ovn-nbctl's listing commands print, column for column. */
final class Listings {
    private Listings() {
    }

    /** C's {@code %-W.Ps}: left-justified in W, cut to P characters. */
    static String left(String s, int width, int precision) {
        String cut = s.length() > precision ? s.substring(0, precision) : s;
        return cut.length() >= width ? cut : cut + " ".repeat(width - cut.length());
    }

    /** C's {@code %Ws}: right-justified in W. */
    static String right(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    static String uuidAndName(Workspace ws, String table, List<UUID> rows) {
        List<String[]> lines = new ArrayList<>();
        for (UUID u : rows) {
            String name = ws.string(table, u, "name");
            lines.add(new String[] {name, u + " (" + name + ")"});
        }
        lines.sort(Comparator.<String[], String>comparing(l -> l[0]).thenComparing(l -> l[1]));
        StringBuilder out = new StringBuilder();
        lines.forEach(l -> out.append(l[1]).append('\n'));
        return out.toString();
    }

    static String nats(Workspace ws, UUID lr) {
        List<String[]> lines = new ArrayList<>();
        for (Object o : ws.set("Logical_Router", lr, "nat")) {
            UUID nat = (UUID) o;
            Object gw = ws.optional("NAT", nat, "gateway_port");
            String gwName = gw == null ? "" : ws.string("Logical_Router_Port", (UUID) gw, "name");
            boolean withMatch = ws.hasColumn("NAT", "match");
            String key = withMatch
                    ? left(ws.string("NAT", nat, "type"), 17, 13) + left(gwName, 22, 18)
                            + left(ws.string("NAT", nat, "match"), 22, 18) + left(ws.string("NAT", nat, "external_ip"), 19, 15)
                    : left(ws.string("NAT", nat, "type"), 17, 13) + left(gwName, 22, 18) + ws.string("NAT", nat, "external_ip");
            Object mac = ws.optional("NAT", nat, "external_mac");
            Object port = ws.optional("NAT", nat, "logical_port");
            String range = ws.string("NAT", nat, "external_port_range");
            String value = mac != null && port != null
                    ? left(range, 17, 13) + left(ws.string("NAT", nat, "logical_ip"), 20, 16) + left(mac.toString(), 21, 17) + port
                    : left(range, 17, 13) + ws.string("NAT", nat, "logical_ip");
            lines.add(new String[] {key, value});
        }
        if (lines.isEmpty()) {
            return "";
        }
        lines.sort(Comparator.<String[], String>comparing(l -> l[0]).thenComparing(l -> l[1]));
        StringBuilder out = new StringBuilder();
        boolean withMatch = ws.hasColumn("NAT", "match");
        out.append(left("TYPE", 17, 13)).append(left("GATEWAY_PORT", 22, 18));
        if (withMatch) {
            out.append(left("MATCH", 22, 18));
        }
        out.append(left("EXTERNAL_IP", 19, 15))
                .append(left("EXTERNAL_PORT", 17, 13)).append(left("LOGICAL_IP", 20, 16)).append(left("EXTERNAL_MAC", 21, 17))
                .append("LOGICAL_PORT\n");
        lines.forEach(l -> out.append(withMatch ? left(l[0], 80, 86) : left(l[0], 58, 54)).append(l[1]).append('\n'));
        return out.toString();
    }

    /** One static route of lr-route-list, with its sort keys. */
    private record Route(UUID uuid, String table, int priority, BigInteger addr, String nexthop, String outputPort) {
    }

    static String routes(Workspace ws, UUID lr, String routeTableFilter) {
        String t = "Logical_Router_Static_Route";
        boolean hasTables = ws.hasColumn(t, "route_table");
        List<Route> v4 = new ArrayList<>();
        List<Route> v6 = new ArrayList<>();
        for (Object o : ws.set("Logical_Router", lr, "static_routes")) {
            UUID r = (UUID) o;
            String table = hasTables ? ws.string(t, r, "route_table") : "";
            if (routeTableFilter != null && !table.equals(routeTableFilter)) {
                continue;
            }
            Object policy = ws.optional(t, r, "policy");
            boolean dst = policy == null || policy.equals("dst-ip");
            String prefix = ws.string(t, r, "ip_prefix");
            Object port = ws.optional(t, r, "output_port");
            String v4p = Addresses.ipv4Prefix(prefix);
            String norm = v4p != null ? v4p : Addresses.ipv6Prefix(prefix);
            if (norm == null) {
                continue;
            }
            int bits = v4p != null ? 32 : 128;
            int plen = norm.contains("/") ? Integer.parseInt(norm.substring(norm.indexOf('/') + 1)) : bits;
            String ip = prefix.contains("/") ? prefix.substring(0, prefix.indexOf('/')) : prefix;
            InetAddress a = v4p != null ? Addresses.ipv4(ip) : Addresses.ipv6(ip);
            Route route = new Route(r, table, dst ? 2 * plen + 1 : 2 * plen, IpAddresses.toInteger(a),
                    ws.string(t, r, "nexthop"), port == null ? null : port.toString());
            (v4p != null ? v4 : v6).add(route);
        }
        Comparator<Route> base = Comparator.comparing(Route::table).thenComparing(Route::priority, Comparator.reverseOrder())
                .thenComparing(Route::addr);
        Comparator<Route> full = base.thenComparing(Route::nexthop).thenComparing(Route::outputPort,
                Comparator.nullsFirst(Comparator.naturalOrder()));
        v4.sort(full);
        v6.sort(full);
        StringBuilder out = new StringBuilder();
        if (!v4.isEmpty()) {
            out.append("IPv4 Routes\n");
        }
        printRoutes(ws, v4, base, out);
        if (!v6.isEmpty()) {
            out.append(v4.isEmpty() ? "" : "\n").append("IPv6 Routes\n");
        }
        printRoutes(ws, v6, base, out);
        return out.toString();
    }

    private static void printRoutes(Workspace ws, List<Route> routes, Comparator<Route> base, StringBuilder out) {
        String t = "Logical_Router_Static_Route";
        for (int i = 0; i < routes.size(); i++) {
            Route r = routes.get(i);
            boolean ecmp = (i < routes.size() - 1 && base.compare(r, routes.get(i + 1)) == 0)
                    || (i > 0 && base.compare(r, routes.get(i - 1)) == 0);
            if (i == 0 || !r.table().equals(routes.get(i - 1).table())) {
                out.append(i == 0 ? "" : "\n").append("Route Table ").append(r.table().isEmpty() ? "<main>" : r.table())
                        .append(":\n");
            }
            String prefix = Addresses.prefix(ws.string(t, r.uuid(), "ip_prefix"));
            String hop = r.nexthop().equals("discard") ? "discard"
                    : r.nexthop().isEmpty() ? "" : String.valueOf(Addresses.prefix(r.nexthop()));
            out.append(right(prefix, 25)).append(' ').append(right(hop, 25));
            Object policy = ws.optional(t, r.uuid(), "policy");
            out.append(' ').append(policy == null ? "dst-ip" : policy);
            if (r.outputPort() != null) {
                out.append(' ').append(r.outputPort());
            }
            if (ws.map(t, r.uuid(), "external_ids").containsKey("ic-learned-route")) {
                out.append(" (learned)");
            }
            if (ecmp) {
                out.append(" ecmp");
            }
            if ("true".equals(ws.map(t, r.uuid(), "options").get("ecmp_symmetric_reply"))) {
                out.append(" ecmp-symmetric-reply");
            }
            if (ws.optional(t, r.uuid(), "bfd") != null) {
                out.append(" bfd");
            }
            out.append('\n');
        }
    }

    static String acls(Workspace ws, String ownerTable, UUID owner) {
        List<UUID> acls = new ArrayList<>();
        ws.set(ownerTable, owner, "acls").forEach(o -> acls.add((UUID) o));
        acls.sort(Comparator.<UUID, Integer>comparing(a -> ws.string("ACL", a, "direction").equals("from-lport") ? 0 : 1)
                .thenComparing(a -> "true".equals(ws.map("ACL", a, "options").get("apply-after-lb")) ? 1 : 0)
                .thenComparing(a -> -(Long) ws.get("ACL", a, "priority"))
                .thenComparing(a -> ws.string("ACL", a, "match")));
        StringBuilder out = new StringBuilder();
        for (UUID a : acls) {
            out.append(right(ws.string("ACL", a, "direction"), 10)).append(' ')
                    .append(right(Long.toString((Long) ws.get("ACL", a, "priority")), 5)).append(" (")
                    .append(ws.string("ACL", a, "match")).append(") ").append(ws.string("ACL", a, "action"));
            if (Boolean.TRUE.equals(ws.get("ACL", a, "log"))) {
                StringBuilder log = new StringBuilder();
                Object name = ws.optional("ACL", a, "name");
                Object severity = ws.optional("ACL", a, "severity");
                Object meter = ws.optional("ACL", a, "meter");
                if (name != null) {
                    log.append("name=").append(name).append(',');
                }
                if (severity != null) {
                    log.append("severity=").append(severity).append(',');
                }
                if (meter != null) {
                    log.append("meter=\"").append(meter).append("\",");
                }
                if (!log.isEmpty()) {
                    log.setLength(log.length() - 1);
                }
                out.append(" log(").append(log).append(')');
            }
            if (ws.hasColumn("ACL", "label") && (Long) ws.get("ACL", a, "label") != 0) {
                out.append(" label=").append(ws.get("ACL", a, "label"));
            }
            if ("true".equals(ws.map("ACL", a, "options").get("apply-after-lb"))) {
                out.append(" [after-lb]");
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String loadBalancers(Workspace ws, List<UUID> lbs) {
        String t = "Load_Balancer";
        int width = 0;
        for (UUID lb : lbs) {
            for (Object k : ws.map(t, lb, "vips").keySet()) {
                width = Math.max(width, k.toString().length());
            }
        }
        List<String[]> entries = new ArrayList<>();
        for (UUID lb : lbs) {
            List<Map.Entry<Object, Object>> vips = DatumSyntax.sortedEntries(ws.map(t, lb, "vips"));
            if (vips.isEmpty()) {
                continue;
            }
            Object proto = ws.optional(t, lb, "protocol");
            String name = ws.string(t, lb, "name");
            StringBuilder val = new StringBuilder();
            for (int i = 0; i < vips.size(); i++) {
                String key = vips.get(i).getKey().toString();
                // A VIP without a port shows no protocol (ovn-nbctl's lb_info_add_smap).
                String protocol = LbVipPort.hasPort(key) ? (proto == null ? "" : proto.toString()) : "";
                if (i == 0) {
                    val.append(lb).append("    ").append(left(name, 20, 16)).append(left(protocol, 11, 7))
                            .append(left(key, width + 4, width)).append(vips.get(i).getValue());
                } else {
                    val.append('\n').append(" ".repeat(60)).append(left(protocol, 11, 7)).append(left(key, width + 4, width))
                            .append(vips.get(i).getValue());
                }
            }
            entries.add(new String[] {left(name, 20, 16), val.toString()});
        }
        if (entries.isEmpty()) {
            return "";
        }
        entries.sort(Comparator.<String[], String>comparing(e -> e[0]).thenComparing(e -> e[1]));
        StringBuilder out = new StringBuilder();
        out.append(left("UUID", 40, 36)).append(left("LB", 20, 16)).append(left("PROTO", 11, 7))
                .append(left("VIP", width + 4, width)).append("IPs\n");
        entries.forEach(e -> out.append(e[1]).append('\n'));
        return out.toString();
    }

    /** Whether a stored VIP key carries a port. */
    private static final class LbVipPort {
        static boolean hasPort(String key) {
            if (key.startsWith("[")) {
                return key.contains("]:");
            }
            return key.indexOf(':') >= 0 && key.indexOf(':') == key.lastIndexOf(':');
        }
    }
}
