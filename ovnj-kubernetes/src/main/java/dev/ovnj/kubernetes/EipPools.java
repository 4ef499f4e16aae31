package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpRange;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import io.fabric8.kubernetes.api.model.Service;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The {@link EipPool}s as the controller sees them: each one checked against the Northbound
 * database and the other pools, and the choice of a Service's pool.
 *
 * <p>Which pool a Service gets, and whether it may, is {@link Tenancy}'s decision; this class
 * reads the pools and the Northbound facts it is made from.
 *
 * <p>A pool is {@code Invalid} (and gives out nothing) when its spec lacks the router or the
 * external port or names both a switch and a group, when the port does not exist or belongs to
 * another router, when an address entry does not parse or lies outside the network the port's
 * addresses of its family are given from, or when its addresses overlap those of an older pool
 * (by {@code creationTimestamp}, then name): the older one keeps working.
 */
final class EipPools {
    /** The annotation naming a Service's pool. */
    static final String ANNOTATION = "ovnj.dev/eip-pool";

    private final OvsdbClient nb;
    private final ControllerSettings settings;
    private volatile Supplier<Stream<EipPool>> source = Stream::empty;

    EipPools(OvsdbClient nb, ControllerSettings settings) {
        this.nb = nb;
        this.settings = settings;
    }

    /** Where the pools are read from: the informer's cache once it runs. */
    void readFrom(Supplier<Stream<EipPool>> pools) {
        this.source = pools;
    }

    /**
     * A pool as checked now.
     *
     * @param name the pool's name
     * @param pool the object
     * @param networks its port's networks as written
     * @param addresses what it gives out, when its entries resolve
     * @param invalid why it gives out nothing, if it does not
     * @param target where its Services' load balancers go (meaningful only when the spec names a router and port)
     */
    record State(String name, EipPool pool, List<String> networks, Optional<PoolAddresses> addresses, Optional<String> invalid,
                 Optional<ControllerSettings> target) {
        boolean valid() {
            return invalid.isEmpty();
        }
    }

    /**
     * Where a Service's load balancer and addresses go.
     *
     * @param pool the pool whose port it is on, if any
     * @param target the router, attachment and external port
     * @param addresses the pool's addresses, when it is on a pool's port
     * @param exclusions what the allocator must not give it (the port's addresses outside the pool)
     * @param kept addresses it holds on the port outside the pool's addresses
     * @param notes what its condition must say about where it is
     */
    record Placement(Optional<String> pool, ControllerSettings target, Optional<PoolAddresses> addresses, List<IpRange> exclusions,
                     List<InetAddress> kept, List<String> notes) {
    }

    /**
     * What the database and the command line reserve now ({@link ReservedAddresses}).
     *
     * @return the reservations, without any pool's exclude list
     */
    ReservedAddresses reserved() {
        return ReservedAddresses.read(nb.cache()).excluding(settings.excludeAddresses(), "--exclude-addresses");
    }

    /**
     * The reservations a pool's addresses are subject to: the base ones and its {@code spec.excludeAddresses}.
     *
     * @param pool the pool
     * @param base {@link #reserved()}
     * @return the reservations
     */
    static ReservedAddresses reservedFor(State pool, ReservedAddresses base) {
        if (pool.pool().getSpec() == null) {
            return base;
        }
        try {
            return base.excluding(pool.pool().getSpec().excludeAddressesOrNone(), "EipPool " + pool.name() + " spec.excludeAddresses");
        } catch (IllegalArgumentException malformed) {
            // The pool's check names it (the pool is Invalid); nothing more is reserved.
            return base;
        }
    }

    /** Every pool, checked, by name. */
    Map<String, State> states() {
        List<EipPool> pools = source.get().sorted(Comparator.comparing(EipPools::age).thenComparing(p -> p.getMetadata().getName()))
                .toList();
        if (pools.isEmpty()) {
            return Map.of();
        }
        Set<String> named = new HashSet<>();
        pools.forEach(p -> Optional.ofNullable(p.getSpec()).map(EipPool.Spec::externalPort).ifPresent(named::add));
        Map<String, PortInfo> ports = ports(named);
        Map<String, State> out = new TreeMap<>();
        List<State> older = new ArrayList<>();
        for (EipPool pool : pools) {
            State s = check(pool, ports, older);
            older.add(s);
            out.put(s.name(), s);
        }
        return out;
    }

    private State check(EipPool pool, Map<String, PortInfo> ports, List<State> older) {
        String name = pool.getMetadata().getName();
        EipPool.Spec spec = pool.getSpec();
        if (spec == null || blank(spec.router()) || blank(spec.externalPort())) {
            return invalid(name, pool, List.of(), Optional.empty(), "spec.router and spec.externalPort are required");
        }
        if (spec.switchName().isPresent() && spec.groupName().isPresent()) {
            return invalid(name, pool, List.of(), Optional.empty(), "spec.switch and spec.group are exclusive");
        }
        PortInfo port = ports.get(spec.externalPort());
        if (port == null) {
            return invalid(name, pool, List.of(), Optional.empty(), "no Logical_Router_Port " + spec.externalPort());
        }
        if (!port.router().equals(spec.router())) {
            return invalid(name, pool, port.networks(), Optional.empty(), "Logical_Router_Port " + spec.externalPort()
                    + (port.router().isEmpty() ? " belongs to no router" : " belongs to router " + port.router())
                    + ", not " + spec.router());
        }
        PoolAddresses addresses;
        try {
            addresses = PoolAddresses.resolve(spec.addressesOrAll(), port.networks(), spec.externalPort());
            for (String excluded : spec.excludeAddressesOrNone()) {
                try {
                    PoolAddresses.parse(excluded);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("spec.excludeAddresses: " + e.getMessage(), e);
                }
            }
        } catch (IllegalArgumentException e) {
            return invalid(name, pool, port.networks(), Optional.empty(), e.getMessage());
        }
        for (State o : older) {
            Optional<IpRange> overlap = o.addresses().flatMap(addresses::overlapWith);
            if (overlap.isPresent()) {
                return invalid(name, pool, port.networks(), Optional.of(addresses), "spec.addresses: " + PoolAddresses.format(overlap.get())
                        + " overlaps the addresses of EipPool " + o.name() + " (" + o.addresses().get() + "), which is older");
            }
        }
        ControllerSettings target = settings.at(spec.router(), spec.switchName(), spec.groupName(), spec.externalPort());
        return new State(name, pool, port.networks(), Optional.of(addresses), Optional.empty(), Optional.of(target));
    }

    private State invalid(String name, EipPool pool, List<String> networks, Optional<PoolAddresses> addresses, String why) {
        return new State(name, pool, networks, addresses, Optional.of(why), Optional.empty());
    }

    /**
     * Where a Service holding an address on a port no valid pool serves stays: where its rows are
     * attached now, else on the port's router.
     *
     * @param specName the Service's spec name
     * @param port the port it holds its address on
     * @return the target there
     */
    ControllerSettings stayOn(String specName, String port) {
        return CurrentAttachment.read(nb, settings.owner(), specName)
                .map(a -> settings.at(a.router(), a.logicalSwitch(), a.group(), port))
                .orElseGet(() -> settings.at(Optional.ofNullable(ports(Set.of(port)).get(port)).map(PortInfo::router).orElse(port),
                        Optional.empty(), Optional.empty(), port));
    }

    /** Every router's port networks, read now. */
    dev.ovnj.nb.eip.RouterNetworks routerNetworks() {
        return dev.ovnj.nb.eip.RouterNetworks.read(nb.cache());
    }

    /**
     * Whether a router is a gateway router ({@code options:chassis}), read now: only there does OVN
     * apply {@code lb_force_snat_ip} to load-balanced traffic, and {@code skip_snat} work. False for
     * a distributed router and for a router not written yet.
     */
    boolean gatewayRouter(String router) {
        return nb.cache().read(() -> {
            for (Row r : nb.cache().table(LogicalRouter.TABLE.name()).rows()) {
                if (router.equals(r.get(LogicalRouter.NAME.name()))) {
                    return LogicalRouter.fromRow(r).options().containsKey("chassis");
                }
            }
            return false;
        });
    }

    /** The networks of a router port as written, empty when there is no such port. */
    List<String> networksOf(String port) {
        return Optional.ofNullable(ports(Set.of(port)).get(port)).map(PortInfo::networks).orElse(List.of());
    }

    /**
     * The name of a pool the API server has and the informer has not shown yet that would serve the
     * Service automatically: a pool created just before the Service may reach this process after
     * it, and a Service placed on the command line's port meanwhile would keep that address for
     * good. Asked only before a Service's first address is taken on the command line's port.
     *
     * @param service the Service about to be placed on the command line's port
     * @param states the pools as the informer shows them
     * @param onServer the pools as the API server lists them now
     * @return the pool the informer lags behind on, if any
     */
    static Optional<String> notSeenYet(Service service, Map<String, State> states, List<EipPool> onServer) {
        return onServer.stream().filter(p -> !states.containsKey(p.getMetadata().getName()) && p.getSpec() != null
                        && p.getSpec().assignsAutomatically()
                        && (p.getSpec().namespacesOrAll().isEmpty() || p.getSpec().namespacesOrAll().contains(service.getMetadata().getNamespace())))
                .map(p -> p.getMetadata().getName()).sorted().findFirst();
    }

    /** A pool changed: the Services it may concern, which is every one it could be chosen for or hold. */
    static boolean concerns(EipPool pool, Service service) {
        if (pool.getSpec() == null || pool.getSpec().namespaceSelector() != null) {
            return true;
        }
        return pool.getSpec().namespacesOrAll().isEmpty() || pool.getSpec().namespacesOrAll().contains(service.getMetadata().getNamespace())
                || service.getMetadata().getAnnotations() != null
                && pool.getMetadata().getName().equals(service.getMetadata().getAnnotations().get(ANNOTATION));
    }

    /** A router port's networks and router, as the pools' checks need them. */
    private record PortInfo(List<String> networks, String router) {
    }

    /** The networks and router of the ports the pools name (only those rows are decoded: every reconciliation asks). */
    private Map<String, PortInfo> ports(Set<String> names) {
        if (names.isEmpty()) {
            return Map.of();
        }
        return nb.cache().read(() -> {
            Map<UUID, String> ids = new HashMap<>();
            Map<String, List<String>> networks = new HashMap<>();
            for (Row r : nb.cache().table(LogicalRouterPort.TABLE.name()).rows()) {
                if (names.contains(String.valueOf(r.get(LogicalRouterPort.NAME.name())))) {
                    LogicalRouterPort p = LogicalRouterPort.fromRow(r);
                    ids.put(p.uuid().orElseThrow(), p.name());
                    networks.put(p.name(), List.copyOf(p.networks()));
                }
            }
            Map<String, String> routerOf = new HashMap<>();
            for (Row r : nb.cache().table(LogicalRouter.TABLE.name()).rows()) {
                for (Object id : (Set<?>) r.get(LogicalRouter.PORTS.name())) {
                    String port = ids.get(id);
                    if (port != null) {
                        routerOf.put(port, String.valueOf(r.get(LogicalRouter.NAME.name())));
                    }
                }
            }
            Map<String, PortInfo> out = new HashMap<>();
            networks.forEach((port, nets) -> out.put(port, new PortInfo(nets, routerOf.getOrDefault(port, ""))));
            return out;
        });
    }

    private static String age(EipPool pool) {
        return Optional.ofNullable(pool.getMetadata().getCreationTimestamp()).orElse("");
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
