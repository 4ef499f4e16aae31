package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.VipAddress;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The typed rows an EIP question needs (routers, their ports and NAT rules, load balancers and
 * switches), taken from the cache in one read so that they come from the same database state.
 * Entries the database holds in a form that does not parse (a malformed network or VIP) are
 * skipped: one bad row must not blind every EIP query.
 */
final class EipSnapshot {
    private final List<LogicalRouter> routers;
    private final Map<UUID, LogicalRouterPort> ports;
    private final Map<UUID, Nat> nats;
    private final List<LoadBalancer> loadBalancers;
    private final List<LogicalSwitch> switches;
    private final Map<UUID, String> routerOfPort = new HashMap<>();

    private EipSnapshot(List<LogicalRouter> routers, List<LogicalRouterPort> ports, List<Nat> nats,
            List<LoadBalancer> loadBalancers, List<LogicalSwitch> switches) {
        this.routers = routers;
        this.ports = ports.stream().collect(Collectors.toMap(p -> p.uuid().orElseThrow(), Function.identity()));
        this.nats = nats.stream().collect(Collectors.toMap(n -> n.uuid().orElseThrow(), Function.identity()));
        this.loadBalancers = loadBalancers;
        this.switches = switches;
        for (LogicalRouter r : routers) {
            r.ports().forEach(p -> routerOfPort.put(p, r.name()));
        }
    }

    /**
     * Reads the snapshot.
     *
     * @param cache a cache monitoring the tables involved
     * @return the snapshot
     */
    static EipSnapshot read(RowCache cache) {
        return cache.read(() -> new EipSnapshot(
                rows(cache, LogicalRouter.TABLE.name(), LogicalRouter::fromRow),
                rows(cache, LogicalRouterPort.TABLE.name(), LogicalRouterPort::fromRow),
                rows(cache, Nat.TABLE.name(), Nat::fromRow),
                rows(cache, LoadBalancer.TABLE.name(), LoadBalancer::fromRow),
                rows(cache, LogicalSwitch.TABLE.name(), LogicalSwitch::fromRow)));
    }

    private static <T> List<T> rows(RowCache cache, String table, Function<Row, T> typed) {
        return cache.table(table).rows().stream().map(typed).toList();
    }

    Optional<LogicalRouterPort> port(String name) {
        return ports.values().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** Every port, whether or not a router references it. */
    List<LogicalRouterPort> ports() {
        return List.copyOf(ports.values());
    }

    /** The owning router's name; a port no router references yet has none. */
    String routerOf(LogicalRouterPort port) {
        return routerOfPort.getOrDefault(port.uuid().orElseThrow(), "");
    }

    List<LoadBalancer> loadBalancers() {
        return loadBalancers;
    }

    /** Every NAT row, referenced or not. */
    List<Nat> nats() {
        return List.copyOf(nats.values());
    }

    /** Every parseable network of every port, each marked as the port's own address or not relative to {@code ip}. */
    List<PortNetwork> portNetworks(InetAddress ip) {
        List<PortNetwork> out = new ArrayList<>();
        for (LogicalRouterPort p : ports.values()) {
            for (String entry : p.networks()) {
                parse(entry, IpNetwork::parse).ifPresent(net ->
                        out.add(new PortNetwork(routerOf(p), p.name(), net, net.address().equals(ip))));
            }
        }
        return out;
    }

    /** NAT rules referenced by routers, with the referencing router. */
    List<NatUse> natUses(InetAddress ip) {
        List<NatUse> out = new ArrayList<>();
        for (LogicalRouter r : routers) {
            for (UUID id : r.nat()) {
                Nat n = nats.get(id);
                if (n != null && parse(n.externalIp(), IpAddresses::parse).filter(ip::equals).isPresent()) {
                    out.add(new NatUse(r.name(), id, n.type().wireValue(), n.logicalIp()));
                }
            }
        }
        return out;
    }

    /** VIPs on {@code ip} with the routers and switches that attach their load balancer. */
    List<VipUse> vipUses(InetAddress ip) {
        List<VipUse> out = new ArrayList<>();
        for (LoadBalancer lb : loadBalancers) {
            UUID id = lb.uuid().orElseThrow();
            for (String vip : lb.vips().keySet()) {
                Optional<VipAddress> key = parse(vip, VipAddress::parse).filter(k -> k.ip().equals(ip));
                if (key.isPresent()) {
                    List<String> attachedRouters = routers.stream().filter(r -> r.loadBalancer().contains(id))
                            .map(LogicalRouter::name).sorted().toList();
                    List<String> attachedSwitches = switches.stream().filter(s -> s.loadBalancer().contains(id))
                            .map(LogicalSwitch::name).sorted().toList();
                    out.add(new VipUse(lb.name(), id, vip, lb.protocol().map(LoadBalancer.Protocol::wireValue),
                            key.get().port(), attachedRouters, attachedSwitches));
                }
            }
        }
        return out;
    }

    /** Every claim recorded on any port. */
    List<EipClaim> claims() {
        List<EipClaim> out = new ArrayList<>();
        for (LogicalRouterPort p : ports.values()) {
            p.externalIds().forEach((k, owner) ->
                    EipClaim.ipOf(k).ifPresent(ip -> out.add(new EipClaim(ip, owner, routerOf(p), p.name()))));
        }
        return out;
    }

    /**
     * Every address the database already gives a role: port addresses, NAT external IPs, VIPs on
     * any port, and claims.
     */
    Set<InetAddress> usedAddresses() {
        Set<InetAddress> used = new HashSet<>();
        for (LogicalRouterPort p : ports.values()) {
            p.networks().forEach(entry -> parse(entry, IpNetwork::parse).ifPresent(net -> used.add(net.address())));
        }
        nats.values().forEach(n -> parse(n.externalIp(), IpAddresses::parse).ifPresent(used::add));
        loadBalancers.forEach(lb -> lb.vips().keySet().forEach(vip -> parse(vip, VipAddress::parse).ifPresent(k -> used.add(k.ip()))));
        claims().forEach(c -> used.add(c.ip()));
        return used;
    }

    private static <T> Optional<T> parse(String text, Function<String, T> parser) {
        try {
            return Optional.of(parser.apply(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
