package dev.ovnj.lb.diagnosis;

import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.sb.model.DatapathBinding;
import dev.ovnj.sb.model.LoadBalancer;
import dev.ovnj.sb.model.LogicalDpGroup;
import dev.ovnj.sb.model.PortBinding;
import dev.ovnj.sb.model.ServiceMonitor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What the Southbound database says, as far as load balancers go, read from a client's cache in
 * one consistent pass: datapaths by the Northbound router or switch they stand for, the
 * {@code Load_Balancer} rows northd wrote (their datapaths resolved through {@code datapath_group},
 * {@code ls_datapath_group} and {@code lr_datapath_group}, whichever the release writes),
 * the routers' load-balancer address sets, port bindings, service monitors, every logical flow
 * that load-balances a VIP, indexed by VIP, and the session-affinity flows, indexed by backend.
 * Immutable once read.
 */
public final class SouthboundFacts {
    private static final String[] TABLES = {"Datapath_Binding", "Load_Balancer", "Logical_DP_Group",
        "Port_Binding", "Service_Monitor", "Logical_Flow", "Address_Set", "Chassis", "Chassis_Private"};
    // ovn-northd 23.03 keeps a router's load-balancer VIPs for its ARP/ND responder in these sets.
    private static final String ROUTER_LB_SET = "_rtr_lb_";

    private final Map<UUID, UUID> datapathOf;
    private final Map<UUID, Long> tunnelKeys;
    private final Map<String, Set<String>> routerLbSets;
    private final Map<UUID, SouthboundBalancer> balancersByNbUuid;
    private final boolean routersRecorded;
    private final Map<String, PortBinding> bindings;
    private final Map<String, List<ServiceMonitor>> monitors;
    private final Map<String, List<LbFlow>> flows;
    private final Map<String, List<AffinityFlow>> affinityFlows;
    /** Chassis whose ovn-controller is there: a Chassis row with a Chassis_Private row of its name. */
    private final Set<UUID> liveChassis;

    private SouthboundFacts(Map<UUID, UUID> datapathOf, Map<UUID, Long> tunnelKeys, Map<String, Set<String>> routerLbSets,
                            Map<UUID, SouthboundBalancer> balancersByNbUuid, boolean routersRecorded,
                            Map<String, PortBinding> bindings,
                            Map<String, List<ServiceMonitor>> monitors, Map<String, List<LbFlow>> flows,
                            Map<String, List<AffinityFlow>> affinityFlows, Set<UUID> liveChassis) {
        this.datapathOf = datapathOf;
        this.tunnelKeys = tunnelKeys;
        this.routerLbSets = routerLbSets;
        this.balancersByNbUuid = balancersByNbUuid;
        this.routersRecorded = routersRecorded;
        this.bindings = bindings;
        this.monitors = monitors;
        this.flows = flows;
        this.affinityFlows = affinityFlows;
        this.liveChassis = liveChassis;
    }

    /**
     * The tables a Southbound client must monitor for {@link #read(RowCache)}: of
     * {@code Logical_Flow}, by far the largest table of a Southbound database, only the columns
     * read here (not {@code external_ids}, {@code pipeline}, {@code table_id}, ...); of the other
     * tables every column.
     *
     * @return the monitor request
     */
    public static MonitorRequest monitorRequest() {
        return monitorRequest(List.of());
    }

    /** The same request with more columns of {@code Logical_Flow} (e.g. its {@code external_ids}). */
    static MonitorRequest monitorRequest(List<String> moreFlowColumns) {
        List<String> flowColumns = new ArrayList<>(List.of("match", "actions", "logical_datapath", "logical_dp_group"));
        flowColumns.addAll(moreFlowColumns);
        List<TableMonitor> tables = new ArrayList<>();
        for (String t : TABLES) {
            tables.add(t.equals("Logical_Flow") ? TableMonitor.all(t).columns(flowColumns.toArray(String[]::new)) : TableMonitor.all(t));
        }
        return MonitorRequest.of(tables.toArray(TableMonitor[]::new));
    }

    /**
     * Reads a Southbound client's cache (which must monitor at least {@link #monitorRequest()}).
     *
     * @param cache the cache
     * @return the facts
     * @throws IllegalStateException naming a table the cache does not hold
     */
    public static SouthboundFacts read(RowCache cache) {
        for (String t : TABLES) {
            if (cache.findTable(t).isEmpty()) {
                throw new IllegalStateException("the Southbound cache does not hold table " + t
                        + "; monitor SouthboundFacts.monitorRequest()");
            }
        }
        return cache.read(() -> readNow(cache));
    }

    private static SouthboundFacts readNow(RowCache cache) {
        Map<UUID, UUID> datapathOf = new HashMap<>();
        Map<UUID, Long> tunnelKeys = new HashMap<>();
        for (Row r : cache.table("Datapath_Binding").rows()) {
            DatapathBinding binding = DatapathBinding.fromRow(r);
            tunnelKeys.put(r.uuid(), binding.tunnelKey());
            Map<String, String> ids = binding.externalIds();
            String nb = ids.getOrDefault("logical-router", ids.get("logical-switch"));
            if (nb != null) {
                try {
                    datapathOf.put(UUID.fromString(nb), r.uuid());
                } catch (IllegalArgumentException malformed) {
                    // not written by northd; no Northbound row to map it to
                }
            }
        }
        Map<UUID, Set<UUID>> groups = new HashMap<>();
        for (Row r : cache.table("Logical_DP_Group").rows()) {
            groups.put(r.uuid(), LogicalDpGroup.fromRow(r).datapaths());
        }
        // OVN 23.03 records only switch datapaths (datapath_group); from 25.03 on northd writes a row
        // for router load balancers too, with the routers in lr_datapath_group.
        boolean routersRecorded = cache.table("Load_Balancer").schema().findColumn("lr_datapath_group").isPresent();
        Map<UUID, SouthboundBalancer> balancers = new HashMap<>();
        for (Row r : cache.table("Load_Balancer").rows()) {
            LoadBalancer lb = LoadBalancer.fromRow(r);
            Optional<UUID> nbUuid = northboundUuid(r.uuid(), lb.externalIds().get("lb_id"));
            if (nbUuid.isEmpty()) {
                continue;
            }
            Set<UUID> switchDps = new LinkedHashSet<>(lb.datapaths());
            lb.datapathGroup().ifPresent(g -> switchDps.addAll(groups.getOrDefault(g, Set.of())));
            lb.lsDatapathGroup().ifPresent(g -> switchDps.addAll(groups.getOrDefault(g, Set.of())));
            Set<UUID> routerDps = new LinkedHashSet<>();
            lb.lrDatapathGroup().ifPresent(g -> routerDps.addAll(groups.getOrDefault(g, Set.of())));
            Map<String, List<String>> vips = new HashMap<>();
            lb.vips().forEach((k, v) -> vips.put(Endpoints.canonical(k), Endpoints.backends(v)));
            balancers.put(nbUuid.get(), new SouthboundBalancer(r.uuid(), lb.name(),
                    lb.protocol().map(p -> p.wireValue()).orElse("tcp"), vips, switchDps, routerDps));
        }
        Map<String, PortBinding> bindings = new HashMap<>();
        for (Row r : cache.table("Port_Binding").rows()) {
            PortBinding pb = PortBinding.fromRow(r);
            bindings.put(pb.logicalPort(), pb);
        }
        Map<String, List<ServiceMonitor>> monitors = new HashMap<>();
        for (Row r : cache.table("Service_Monitor").rows()) {
            ServiceMonitor m = ServiceMonitor.fromRow(r);
            String key = monitorKey(m.ip(), m.port(), m.protocol().map(p -> p.wireValue()).orElse("tcp"));
            monitors.computeIfAbsent(key, k -> new ArrayList<>(1)).add(m);
        }
        Map<String, List<LbFlow>> flows = new HashMap<>();
        Map<String, List<AffinityFlow>> affinityFlows = new HashMap<>();
        for (Row r : cache.table("Logical_Flow").rows()) {
            String actions = (String) r.get("actions");
            // Most flows do not load-balance; skip them before parsing anything.
            if (actions.indexOf("backends=") < 0) {
                continue;
            }
            String match = (String) r.get("match");
            Optional<LbFlow.Parsed> parsed = LbFlow.parse(match, actions);
            Optional<AffinityFlow.Parsed> affinity = AffinityFlow.parse(match, actions);
            if (parsed.isEmpty() && affinity.isEmpty()) {
                continue;
            }
            Set<UUID> dps = new LinkedHashSet<>();
            uuids(r.get("logical_datapath")).forEach(dps::add);
            uuids(r.get("logical_dp_group")).forEach(g -> dps.addAll(groups.getOrDefault(g, Set.of())));
            affinity.ifPresent(a -> affinityFlows.computeIfAbsent(a.backend(), k -> new ArrayList<>(2))
                    .add(new AffinityFlow(dps, a.backend(), a.registers())));
            if (parsed.isEmpty()) {
                continue;
            }
            flows.computeIfAbsent(parsed.get().key(), k -> new ArrayList<>(2))
                    .add(new LbFlow(dps, parsed.get().key(), parsed.get().backends()));
        }
        Map<String, Set<String>> routerLbSets = new HashMap<>();
        for (Row r : cache.table("Address_Set").rows()) {
            String name = (String) r.get("name");
            if (name.startsWith(ROUTER_LB_SET)) {
                Set<String> ips = new HashSet<>();
                ((Set<?>) r.get("addresses")).forEach(a -> ips.add(Endpoints.host((String) a)));
                routerLbSets.put(name, ips);
            }
        }
        Set<String> privates = new HashSet<>();
        cache.table("Chassis_Private").rows().forEach(r -> privates.add((String) r.get("name")));
        Set<UUID> live = new HashSet<>();
        cache.table("Chassis").rows().forEach(r -> {
            if (privates.contains((String) r.get("name"))) {
                live.add(r.uuid());
            }
        });
        return new SouthboundFacts(datapathOf, tunnelKeys, routerLbSets, balancers, routersRecorded, bindings, monitors, flows,
                affinityFlows, live);
    }

    /**
     * The Northbound Load_Balancer a Southbound row stands for: {@code external_ids:lb_id} where
     * northd writes it (OVN 23.03), else the row's own UUID, which newer northd (25.03 on) copies
     * from the Northbound row.
     */
    private static Optional<UUID> northboundUuid(UUID sbRow, String lbId) {
        if (lbId == null) {
            return Optional.of(sbRow);
        }
        try {
            return Optional.of(UUID.fromString(lbId));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    private static List<UUID> uuids(Object value) {
        List<UUID> out = new ArrayList<>(1);
        if (value instanceof UUID u) {
            out.add(u);
        } else if (value instanceof Set<?> set) {
            set.forEach(v -> out.add((UUID) v));
        } else if (value instanceof Optional<?> opt) {
            opt.ifPresent(v -> out.add((UUID) v));
        }
        return out;
    }

    static String monitorKey(String ip, long port, String protocol) {
        return Endpoints.host(ip) + "/" + port + "/" + protocol;
    }

    /** The Southbound datapath of a Northbound router or switch. */
    Optional<UUID> datapathOf(UUID nbRouterOrSwitch) {
        return Optional.ofNullable(datapathOf.get(nbRouterOrSwitch));
    }

    /**
     * The name of the address set holding a router datapath's load-balancer VIPs of one family.
     */
    String routerLbSetName(UUID datapath, boolean ipv6) {
        return ROUTER_LB_SET + tunnelKeys.getOrDefault(datapath, -1L) + (ipv6 ? "_ip6" : "_ip4");
    }

    /** That address set's canonical addresses, or empty when northd wrote no such set. */
    Optional<Set<String>> routerLbAddresses(UUID datapath, boolean ipv6) {
        return Optional.ofNullable(routerLbSets.get(routerLbSetName(datapath, ipv6)));
    }

    /**
     * The Southbound Load_Balancer row northd wrote for a Northbound one (by {@code external_ids:lb_id}
     * or, on newer OVN, by the shared UUID).
     */
    Optional<SouthboundBalancer> balancerFor(UUID nbLoadBalancer) {
        return Optional.ofNullable(balancersByNbUuid.get(nbLoadBalancer));
    }

    /**
     * Whether this Southbound database records router load balancers in Load_Balancer rows
     * ({@code lr_datapath_group}, OVN 25.03 on); with OVN 23.03 only switch load balancers have a row.
     */
    boolean routersRecorded() {
        return routersRecorded;
    }

    /** The Port_Binding of a logical port. */
    Optional<PortBinding> binding(String logicalPort) {
        return Optional.ofNullable(bindings.get(logicalPort));
    }

    /**
     * Whether the ovn-controller that updates a monitor is gone, so that its status is stale: its
     * port has no binding, the binding no chassis, or the chassis no Chassis_Private row (as
     * {@link dev.ovnj.lb.BackendHealthView} judges it).
     */
    boolean reporterGone(ServiceMonitor m) {
        return binding(m.logicalPort()).flatMap(PortBinding::chassis).filter(liveChassis::contains).isEmpty();
    }

    /** The monitors of a backend. */
    List<ServiceMonitor> monitors(String host, int port, String protocol) {
        return monitors.getOrDefault(monitorKey(host, port, protocol), List.of());
    }

    /** The load-balancing flows of a VIP key (see {@link LbFlow#lookupKey}). */
    List<LbFlow> flows(String key) {
        return flows.getOrDefault(key, List.of());
    }

    /** The session-affinity flows that send a client with a learned backend to this one ({@code IP:PORT}, canonical). */
    List<AffinityFlow> affinityFlows(String backend) {
        return affinityFlows.getOrDefault(backend, List.of());
    }

    /**
     * A Southbound Load_Balancer row.
     *
     * @param uuid the row
     * @param name its name
     * @param protocol its protocol
     * @param vips canonical VIP to canonical backends
     * @param switchDatapaths its switch datapaths ({@code datapaths}, {@code datapath_group},
     *        {@code ls_datapath_group})
     * @param routerDatapaths its router datapaths ({@code lr_datapath_group}; empty before OVN 25.03)
     */
    record SouthboundBalancer(UUID uuid, String name, String protocol, Map<String, List<String>> vips,
                              Set<UUID> switchDatapaths, Set<UUID> routerDatapaths) {
        SouthboundBalancer {
            vips = Map.copyOf(vips);
            switchDatapaths = Set.copyOf(switchDatapaths);
            routerDatapaths = Set.copyOf(routerDatapaths);
        }
    }
}
