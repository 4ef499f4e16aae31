package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
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
import java.util.UUID;

/**
 * The addresses nobody may take, neither by allocation nor by asking for them, each with why: every
 * router port's own address, every next hop of a static route (the upstream gateway), every NAT
 * rule's external IP, and the administrator's exclude lists (the command line's and the pool's).
 * The network and broadcast addresses of a port's network are refused by {@link Tenancy}, which
 * knows the network. An immutable value, read from the Northbound cache in one consistent read.
 *
 * @param singles single addresses and why each is reserved
 * @param ranges excluded ranges and why
 */
record ReservedAddresses(Map<InetAddress, String> singles, List<Excluded> ranges) {
    /** Nothing reserved. */
    static final ReservedAddresses NONE = new ReservedAddresses(Map.of(), List.of());

    /**
     * An excluded range.
     *
     * @param range the addresses
     * @param why who excluded it, e.g. {@code --exclude-addresses}
     */
    record Excluded(IpRange range, String why) {
    }

    ReservedAddresses {
        singles = Map.copyOf(singles);
        ranges = List.copyOf(ranges);
    }

    /**
     * Reads the router ports, static routes and NAT rules; a table the client does not monitor
     * contributes nothing.
     *
     * @param cache the Northbound client's cache
     * @return what the database reserves
     */
    static ReservedAddresses read(RowCache cache) {
        return cache.read(() -> {
            Map<InetAddress, String> out = new LinkedHashMap<>();
            Map<UUID, String> routerOfRoute = new java.util.HashMap<>();
            Map<UUID, String> routerOfPort = new java.util.HashMap<>();
            cache.findTable("Logical_Router").ifPresent(routers -> {
                for (Row r : routers.rows()) {
                    String name = String.valueOf(r.get("name"));
                    for (Object id : (Set<?>) r.get("static_routes")) {
                        routerOfRoute.put((UUID) id, name);
                    }
                    for (Object id : (Set<?>) r.get("ports")) {
                        routerOfPort.put((UUID) id, name);
                    }
                }
            });
            Optional<TableCache> ports = cache.findTable("Logical_Router_Port");
            ports.ifPresent(t -> {
                for (Row p : t.rows()) {
                    for (Object cidr : (Set<?>) p.get("networks")) {
                        try {
                            out.putIfAbsent(IpNetwork.parse((String) cidr).address(), "the address of Logical_Router_Port " + p.get("name")
                                    + Optional.ofNullable(routerOfPort.get(p.uuid())).map(r -> " of router " + r).orElse(""));
                        } catch (IllegalArgumentException malformed) {
                            // Another client's malformed network reserves nothing.
                        }
                    }
                }
            });
            cache.findTable("Logical_Router_Static_Route").ifPresent(t -> {
                for (Row route : t.rows()) {
                    parse(String.valueOf(route.get("nexthop"))).ifPresent(ip -> out.putIfAbsent(ip, "the next hop of a static route"
                            + Optional.ofNullable(routerOfRoute.get(route.uuid())).map(r -> " of router " + r).orElse("")
                            + " (" + route.get("ip_prefix") + " via " + IpAddresses.format(ip) + ")"));
                }
            });
            cache.findTable("NAT").ifPresent(t -> {
                for (Row nat : t.rows()) {
                    parse(String.valueOf(nat.get("external_ip"))).ifPresent(ip -> out.putIfAbsent(ip, "the external IP of a NAT rule ("
                            + nat.get("type") + " " + nat.get("logical_ip") + ")"));
                }
            });
            return new ReservedAddresses(out, List.of());
        });
    }

    /**
     * These reservations and an exclude list.
     *
     * @param entries ranges {@code a-b}, CIDRs or addresses ({@link PoolAddresses#parse})
     * @param why who excluded them, for the messages
     * @return the reservations with the entries added
     * @throws IllegalArgumentException naming an entry that does not parse
     */
    ReservedAddresses excluding(List<String> entries, String why) {
        if (entries.isEmpty()) {
            return this;
        }
        List<Excluded> more = new ArrayList<>(ranges);
        for (String entry : entries) {
            more.add(new Excluded(PoolAddresses.parse(entry), why));
        }
        return new ReservedAddresses(singles, more);
    }

    /**
     * Why an address is reserved.
     *
     * @param ip the address
     * @return e.g. {@code the next hop of a static route of router r1 (0.0.0.0/0 via 172.30.0.254)}; empty when it is not
     */
    Optional<String> why(InetAddress ip) {
        String single = singles.get(ip);
        if (single != null) {
            return Optional.of(single);
        }
        return ranges.stream().filter(e -> e.range().contains(ip)).findFirst()
                .map(e -> "excluded by " + e.why() + " (" + PoolAddresses.format(e.range()) + ")");
    }

    /**
     * Every reservation as ranges, for the allocator's exclude list.
     *
     * @return single addresses as one-address ranges, then the excluded ranges
     */
    List<IpRange> asRanges() {
        List<IpRange> out = new ArrayList<>();
        singles.keySet().forEach(ip -> out.add(new IpRange(ip, ip)));
        ranges.forEach(e -> out.add(e.range()));
        return out;
    }

    private static Optional<InetAddress> parse(String literal) {
        try {
            return Optional.of(IpAddresses.parse(literal.trim()));
        } catch (IllegalArgumentException notAnAddress) {
            return Optional.empty();
        }
    }
}
