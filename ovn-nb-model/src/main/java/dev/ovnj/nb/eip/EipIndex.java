package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.VipAddress;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.CacheListener;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * What an allocation asks of the Northbound database, kept up to date from a cache's update
 * batches instead of read anew for each allocation: per router port its networks and claims (by
 * address and by owner), and every address a port, NAT rule or Load_Balancer VIP uses. A batch
 * costs what its changed rows cost (a changed port's claim map is compared entry by entry, only
 * new entries parsed); a question costs a hash lookup.
 *
 * <p>The state is per row and each event replaces the row's state with what its new version
 * says, so an event seen twice (once in the initial read, once delivered) changes nothing.
 */
final class EipIndex implements CacheListener, AutoCloseable {
    private final RowCache cache;
    private final Map<UUID, PortState> ports = new HashMap<>();
    private final Map<String, UUID> portByName = new HashMap<>();
    /** (port, owner) to the addresses it claims there. */
    private final Map<PortOwner, Set<InetAddress>> byOwner = new HashMap<>();
    /** Every claimed address to how many claims (on any port) name it. */
    private final Map<InetAddress, Integer> claimed = new HashMap<>();
    private final Map<UUID, Set<InetAddress>> natAddresses = new HashMap<>();
    private final Map<UUID, Set<InetAddress>> vipAddresses = new HashMap<>();
    /** Port addresses, NAT external IPs and VIP addresses, each with how many rows use it. */
    private final Map<InetAddress, Integer> rowUses = new HashMap<>();
    private final Map<InetAddress, Integer> routerUses = new HashMap<>();
    private final Map<UUID, Set<InetAddress>> portAddresses = new HashMap<>();
    /**
     * Per port name, claims this process committed that the cache has not shown yet: an update
     * batch from before the commit, delivered after it, must not make them look free.
     */
    private final Map<String, Map<String, Claimed>> pinned = new HashMap<>();
    /** Counts the addresses that stopped being used or claimed, so that search hints know to start over. */
    private long freed;

    /** A router port as the index knows it. */
    record PortState(UUID uuid, String name, Set<String> networks, List<IpNetwork> parsed, Map<String, String> externalIds,
            Map<String, Claimed> claims) {
        List<IpNetwork> networks(IpFamily family) {
            return parsed.stream().filter(n -> n.family() == family).toList();
        }
    }

    /** One claim entry: the address it names and its owner. */
    record Claimed(InetAddress ip, String owner) {
    }

    private record PortOwner(String port, String owner) {
    }

    EipIndex(RowCache cache) {
        this.cache = cache;
        cache.addListener(this);
        cache.read(() -> {
            synchronized (this) {
                table(LogicalRouterPort.TABLE.name()).forEach(this::port);
                table(Nat.TABLE.name()).forEach(this::nat);
                table(LoadBalancer.TABLE.name()).forEach(this::loadBalancer);
            }
            return null;
        });
    }

    private List<Row> table(String name) {
        return cache.findTable(name).map(TableCache::rows).orElse(List.of());
    }

    @Override
    public synchronized void onEvents(List<CacheEvent> events) {
        for (CacheEvent e : events) {
            Optional<Row> now;
            if (e instanceof CacheEvent.Inserted i) {
                now = Optional.of(i.row());
            } else if (e instanceof CacheEvent.Updated u) {
                now = Optional.of(u.newRow());
            } else {
                now = Optional.empty();
            }
            if (e.table().equals(LogicalRouterPort.TABLE.name())) {
                now.ifPresentOrElse(this::port, () -> dropPort(e.uuid()));
            } else if (e.table().equals(Nat.TABLE.name())) {
                now.ifPresentOrElse(this::nat, () -> setUses(natAddresses, e.uuid(), Set.of(), true));
            } else if (e.table().equals(LoadBalancer.TABLE.name())) {
                now.ifPresentOrElse(this::loadBalancer, () -> setUses(vipAddresses, e.uuid(), Set.of(), false));
            }
        }
    }

    @Override
    public void close() {
        cache.removeListener(this);
    }

    synchronized Optional<PortState> port(String name) {
        return Optional.ofNullable(portByName.get(name)).map(ports::get);
    }

    /** The addresses an owner claims on a port, lowest first. */
    synchronized List<InetAddress> held(String port, String owner) {
        return byOwner.getOrDefault(new PortOwner(port, owner), Set.of()).stream()
                .sorted(Comparator.comparing((InetAddress ip) -> IpAddresses.bits(ip)).thenComparing(IpAddresses::toInteger)).toList();
    }

    /** The claims of an address, on any port, as port name to owner. */
    synchronized Map<String, String> claimsOf(InetAddress ip) {
        if (!claimed.containsKey(ip)) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        String key = EipClaim.key(ip);
        for (PortState p : ports.values()) {
            Claimed c = p.claims().get(key);
            if (c != null) {
                out.put(p.name(), c.owner());
            }
        }
        return out;
    }

    /** The owners with a claim on the port, each once. */
    synchronized Set<String> owners(String port) {
        Set<String> out = new HashSet<>();
        byOwner.keySet().stream().filter(k -> k.port().equals(port)).forEach(k -> out.add(k.owner()));
        return out;
    }

    /** Whether a port address, NAT rule, VIP or claim uses the address. */
    synchronized boolean used(InetAddress ip) {
        return claimed.containsKey(ip) || rowUses.containsKey(ip);
    }

    /** Whether the address is a router port's own or a NAT rule's external IP. */
    synchronized boolean routerUses(InetAddress ip) {
        return routerUses.containsKey(ip);
    }

    synchronized long freed() {
        return freed;
    }

    /**
     * Reads a port anew from the cache, which may be ahead of the update batches delivered so far
     * (the cache holds a transaction's effects when it completes).
     *
     * @return the port as read, empty when there is none
     */
    Optional<PortState> refresh(String portName) {
        return cache.read(() -> {
            synchronized (this) {
                table(LogicalRouterPort.TABLE.name()).stream().filter(r -> portName.equals(r.get(LogicalRouterPort.NAME.name())))
                        .forEach(this::port);
                return port(portName);
            }
        });
    }

    /** Records claims this process committed, before the cache's update for them arrives. */
    synchronized void claimed(String portName, Map<InetAddress, String> claims) {
        PortState p = port(portName).orElse(null);
        if (p == null) {
            return;
        }
        Map<String, Claimed> next = new HashMap<>(p.claims());
        Map<String, Claimed> pins = pinned.computeIfAbsent(portName, k -> new HashMap<>());
        claims.forEach((ip, owner) -> {
            next.put(EipClaim.key(ip), new Claimed(ip, owner));
            pins.put(EipClaim.key(ip), new Claimed(ip, owner));
        });
        setClaims(p, next);
    }

    /** Records claims this process removed, before the cache's update for them arrives. */
    synchronized void released(String portName, Set<InetAddress> ips) {
        PortState p = port(portName).orElse(null);
        if (p == null) {
            return;
        }
        Map<String, Claimed> next = new HashMap<>(p.claims());
        Map<String, Claimed> pins = pinned.getOrDefault(portName, new HashMap<>());
        ips.forEach(ip -> {
            next.remove(EipClaim.key(ip));
            pins.remove(EipClaim.key(ip));
        });
        setClaims(p, next);
    }

    private void port(Row row) {
        LogicalRouterPort lrp = LogicalRouterPort.fromRow(row);
        PortState old = ports.get(row.uuid());
        Set<String> networks = Set.copyOf(lrp.networks());
        List<IpNetwork> parsed = old != null && old.networks().equals(networks) ? old.parsed()
                : networks.stream().flatMap(n -> parse(n, IpNetwork::parse).stream()).toList();
        Map<String, Claimed> claims = new HashMap<>();
        Map<String, Claimed> before = old == null ? Map.of() : old.claims();
        lrp.externalIds().forEach((key, owner) -> {
            Claimed known = before.get(key);
            if (known != null && known.owner().equals(owner)) {
                claims.put(key, known);
            } else {
                EipClaim.ipOf(key).ifPresent(ip -> claims.put(key, new Claimed(ip, owner)));
            }
        });
        Map<String, Claimed> pins = pinned.get(lrp.name());
        if (pins != null) {
            pins.entrySet().removeIf(pin -> pin.getValue().equals(claims.get(pin.getKey())));
            pins.forEach(claims::putIfAbsent);
        }
        if (old != null && !old.name().equals(lrp.name())) {
            dropPort(row.uuid());
            old = null;
        }
        PortState state = new PortState(row.uuid(), lrp.name(), networks, parsed, lrp.externalIds(), old == null ? Map.of() : old.claims());
        ports.put(row.uuid(), state);
        portByName.put(lrp.name(), row.uuid());
        Set<InetAddress> own = new HashSet<>();
        parsed.forEach(n -> own.add(n.address()));
        setUses(portAddresses, row.uuid(), own, true);
        setClaims(state, claims);
    }

    private void dropPort(UUID uuid) {
        PortState old = ports.remove(uuid);
        if (old == null) {
            return;
        }
        setClaims(old, Map.of());
        portByName.remove(old.name(), uuid);
        setUses(portAddresses, uuid, Set.of(), true);
    }

    private void setClaims(PortState port, Map<String, Claimed> next) {
        Map<String, Claimed> before = port.claims();
        for (Map.Entry<String, Claimed> e : before.entrySet()) {
            Claimed now = next.get(e.getKey());
            if (now == null || !now.owner().equals(e.getValue().owner())) {
                unclaim(port.name(), e.getValue());
            }
        }
        for (Map.Entry<String, Claimed> e : next.entrySet()) {
            Claimed was = before.get(e.getKey());
            if (was == null || !was.owner().equals(e.getValue().owner())) {
                Claimed c = e.getValue();
                byOwner.computeIfAbsent(new PortOwner(port.name(), c.owner()), k -> new HashSet<>()).add(c.ip());
                claimed.merge(c.ip(), 1, Integer::sum);
            }
        }
        if (ports.containsKey(port.uuid())) {
            ports.put(port.uuid(), new PortState(port.uuid(), port.name(), port.networks(), port.parsed(), port.externalIds(),
                    Map.copyOf(next)));
        }
    }

    private void unclaim(String port, Claimed c) {
        PortOwner key = new PortOwner(port, c.owner());
        Set<InetAddress> set = byOwner.get(key);
        if (set != null) {
            set.remove(c.ip());
            if (set.isEmpty()) {
                byOwner.remove(key);
            }
        }
        if (claimed.merge(c.ip(), -1, Integer::sum) <= 0) {
            claimed.remove(c.ip());
            freed++;
        }
    }

    private void nat(Row row) {
        Set<InetAddress> ips = parse(Nat.fromRow(row).externalIp(), IpAddresses::parse).map(Set::of).orElse(Set.of());
        setUses(natAddresses, row.uuid(), ips, true);
    }

    private void loadBalancer(Row row) {
        Set<InetAddress> ips = new HashSet<>();
        LoadBalancer.fromRow(row).vips().keySet().forEach(vip -> parse(vip, VipAddress::parse).ifPresent(k -> ips.add(k.ip())));
        setUses(vipAddresses, row.uuid(), ips, false);
    }

    /** Replaces the addresses a row uses, keeping the counts of {@link #rowUses} (and {@link #routerUses}) in step. */
    private void setUses(Map<UUID, Set<InetAddress>> byRow, UUID row, Set<InetAddress> now, boolean router) {
        Set<InetAddress> before = now.isEmpty() ? byRow.remove(row) : byRow.put(row, now);
        before = before == null ? Set.of() : before;
        for (InetAddress ip : before) {
            if (!now.contains(ip)) {
                if (rowUses.merge(ip, -1, Integer::sum) <= 0) {
                    rowUses.remove(ip);
                    freed++;
                }
                if (router && routerUses.merge(ip, -1, Integer::sum) <= 0) {
                    routerUses.remove(ip);
                }
            }
        }
        for (InetAddress ip : now) {
            if (!before.contains(ip)) {
                rowUses.merge(ip, 1, Integer::sum);
                if (router) {
                    routerUses.merge(ip, 1, Integer::sum);
                }
            }
        }
    }

    private static <T> Optional<T> parse(String text, Function<String, T> parser) {
        try {
            return Optional.of(parser.apply(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
