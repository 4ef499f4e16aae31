package dev.ovnj.lb.diagnosis;

import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.sb.model.DatapathBinding;
import dev.ovnj.sb.model.LoadBalancer;
import dev.ovnj.sb.model.LogicalDpGroup;
import dev.ovnj.sb.model.PortBinding;
import dev.ovnj.sb.model.ServiceMonitor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What the Southbound database says, as far as load balancers go, read from a client's cache in
 * one consistent pass: datapaths by the Northbound router or switch they stand for, the
 * {@code Load_Balancer} rows northd wrote (their datapaths resolved through {@code datapath_group}),
 * port bindings, service monitors, and every logical flow that load-balances a VIP, indexed by
 * VIP. Immutable once read.
 */
public final class SouthboundFacts {
    private static final String[] TABLES = {"Datapath_Binding", "Load_Balancer", "Logical_DP_Group",
        "Port_Binding", "Service_Monitor", "Logical_Flow", "Chassis"};

    private final Map<UUID, UUID> datapathOf;
    private final Map<UUID, SouthboundBalancer> balancersByNbUuid;
    private final Map<String, PortBinding> bindings;
    private final Map<UUID, String> chassisNames;
    private final Map<String, List<ServiceMonitor>> monitors;
    private final Map<String, List<LbFlow>> flows;

    private SouthboundFacts(Map<UUID, UUID> datapathOf, Map<UUID, SouthboundBalancer> balancersByNbUuid,
                            Map<String, PortBinding> bindings, Map<UUID, String> chassisNames,
                            Map<String, List<ServiceMonitor>> monitors, Map<String, List<LbFlow>> flows) {
        this.datapathOf = datapathOf;
        this.balancersByNbUuid = balancersByNbUuid;
        this.bindings = bindings;
        this.chassisNames = chassisNames;
        this.monitors = monitors;
        this.flows = flows;
    }

    /**
     * The tables a Southbound client must monitor for {@link #read(RowCache)}.
     *
     * @return the monitor request
     */
    public static MonitorRequest monitorRequest() {
        return MonitorRequest.tables(TABLES);
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
        for (Row r : cache.table("Datapath_Binding").rows()) {
            Map<String, String> ids = DatapathBinding.fromRow(r).externalIds();
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
        Map<UUID, SouthboundBalancer> balancers = new HashMap<>();
        for (Row r : cache.table("Load_Balancer").rows()) {
            LoadBalancer lb = LoadBalancer.fromRow(r);
            String id = lb.externalIds().get("lb_id");
            if (id == null) {
                continue;
            }
            Set<UUID> dps = new LinkedHashSet<>(lb.datapaths());
            lb.datapathGroup().ifPresent(g -> dps.addAll(groups.getOrDefault(g, Set.of())));
            Map<String, List<String>> vips = new HashMap<>();
            lb.vips().forEach((k, v) -> vips.put(Endpoints.canonical(k), Endpoints.backends(v)));
            try {
                balancers.put(UUID.fromString(id), new SouthboundBalancer(r.uuid(), lb.name(),
                        lb.protocol().map(p -> p.wireValue()).orElse("tcp"), vips, dps));
            } catch (IllegalArgumentException malformed) {
                // an lb_id northd did not write
            }
        }
        Map<String, PortBinding> bindings = new HashMap<>();
        for (Row r : cache.table("Port_Binding").rows()) {
            PortBinding pb = PortBinding.fromRow(r);
            bindings.put(pb.logicalPort(), pb);
        }
        Map<UUID, String> chassis = new HashMap<>();
        for (Row r : cache.table("Chassis").rows()) {
            chassis.put(r.uuid(), (String) r.get("name"));
        }
        Map<String, List<ServiceMonitor>> monitors = new HashMap<>();
        for (Row r : cache.table("Service_Monitor").rows()) {
            ServiceMonitor m = ServiceMonitor.fromRow(r);
            String key = monitorKey(m.ip(), m.port(), m.protocol().map(p -> p.wireValue()).orElse("tcp"));
            monitors.computeIfAbsent(key, k -> new ArrayList<>(1)).add(m);
        }
        Map<String, List<LbFlow>> flows = new HashMap<>();
        for (Row r : cache.table("Logical_Flow").rows()) {
            String actions = (String) r.get("actions");
            // Most flows do not load-balance; skip them before parsing anything.
            if (actions.indexOf("backends=") < 0) {
                continue;
            }
            Optional<LbFlow.Parsed> parsed = LbFlow.parse((String) r.get("match"), actions);
            if (parsed.isEmpty()) {
                continue;
            }
            Set<UUID> dps = new LinkedHashSet<>();
            uuids(r.get("logical_datapath")).forEach(dps::add);
            uuids(r.get("logical_dp_group")).forEach(g -> dps.addAll(groups.getOrDefault(g, Set.of())));
            flows.computeIfAbsent(parsed.get().key(), k -> new ArrayList<>(2))
                    .add(new LbFlow(dps, parsed.get().key(), parsed.get().backends()));
        }
        return new SouthboundFacts(datapathOf, balancers, bindings, chassis, monitors, flows);
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

    /** The Southbound Load_Balancer row northd wrote for a Northbound one ({@code external_ids:lb_id}). */
    Optional<SouthboundBalancer> balancerFor(UUID nbLoadBalancer) {
        return Optional.ofNullable(balancersByNbUuid.get(nbLoadBalancer));
    }

    /** The Port_Binding of a logical port. */
    Optional<PortBinding> binding(String logicalPort) {
        return Optional.ofNullable(bindings.get(logicalPort));
    }

    /** A chassis' name. */
    String chassisName(UUID chassis) {
        return chassisNames.getOrDefault(chassis, chassis.toString());
    }

    /** The monitors of a backend. */
    List<ServiceMonitor> monitors(String host, int port, String protocol) {
        return monitors.getOrDefault(monitorKey(host, port, protocol), List.of());
    }

    /** The load-balancing flows of a VIP key (see {@link LbFlow#lookupKey}). */
    List<LbFlow> flows(String key) {
        return flows.getOrDefault(key, List.of());
    }

    /**
     * A Southbound Load_Balancer row.
     *
     * @param uuid the row
     * @param name its name
     * @param protocol its protocol
     * @param vips canonical VIP to canonical backends
     * @param datapaths its datapaths, including its datapath group's
     */
    record SouthboundBalancer(UUID uuid, String name, String protocol, Map<String, List<String>> vips,
                              Set<UUID> datapaths) {
        SouthboundBalancer {
            vips = Map.copyOf(vips);
            datapaths = Set.copyOf(datapaths);
        }
    }
}
