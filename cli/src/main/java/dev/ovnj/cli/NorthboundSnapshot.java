package dev.ovnj.cli;

import dev.ovnj.nb.eip.RouterNetworks;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LoadBalancerGroup;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.typed.Column;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What the client's cache says about load balancers, read in one consistent pass: the owned
 * rows with their attachments, which routers, switches and groups exist, and each router's
 * networks.
 *
 * @param owned every owned row, by owner then name
 * @param routerNetworks router name to the networks of its ports, e.g. {@code 168.119.17.51/28}
 * @param switchNames names of existing switches
 * @param groupRouters group name to the routers holding it
 * @param groupSwitches group name to the switches holding it
 */
record NorthboundSnapshot(List<OwnedLoadBalancer> owned, RouterNetworks routerNetworks, Set<String> switchNames,
                          Map<String, Set<String>> groupRouters, Map<String, Set<String>> groupSwitches) {

    private static final Comparator<OwnedLoadBalancer> BY_OWNER_THEN_NAME = (a, b) -> {
        int byOwner = a.owner().compareTo(b.owner());
        return byOwner != 0 ? byOwner : a.name().compareTo(b.name());
    };

    /** Copies the collections. */
    NorthboundSnapshot {
        owned = List.copyOf(owned);
        switchNames = Set.copyOf(switchNames);
        groupRouters = Map.copyOf(groupRouters);
        groupSwitches = Map.copyOf(groupSwitches);
    }

    /**
     * Reads the cache of a client that monitors {@code LoadBalancerEngine.monitorRequest()}.
     *
     * @param cache the cache
     * @return the snapshot
     */
    static NorthboundSnapshot of(RowCache cache) {
        return cache.read(() -> read(cache));
    }

    private static NorthboundSnapshot read(RowCache cache) {
        Map<UUID, Set<String>> lbRouters = new HashMap<>();
        Map<UUID, Set<String>> lbSwitches = new HashMap<>();
        Map<UUID, Set<String>> lbGroups = new HashMap<>();
        Map<UUID, String> groupNames = new HashMap<>();
        Map<String, Set<String>> groupRouters = new TreeMap<>();
        Map<String, Set<String>> groupSwitches = new TreeMap<>();
        for (Row r : cache.table("Load_Balancer_Group").rows()) {
            LoadBalancerGroup g = LoadBalancerGroup.fromRow(r);
            groupNames.put(r.uuid(), g.name());
            groupRouters.put(g.name(), new TreeSet<>());
            groupSwitches.put(g.name(), new TreeSet<>());
            g.loadBalancer().forEach(lb -> lbGroups.computeIfAbsent(lb, k -> new TreeSet<>()).add(g.name()));
        }
        for (Row r : cache.table("Logical_Router").rows()) {
            LogicalRouter lr = LogicalRouter.fromRow(r);
            lr.loadBalancer().forEach(lb -> lbRouters.computeIfAbsent(lb, k -> new TreeSet<>()).add(lr.name()));
            lr.loadBalancerGroup().forEach(g -> groupRouters.computeIfAbsent(groupNames.getOrDefault(g, g.toString()),
                    k -> new TreeSet<>()).add(lr.name()));
        }
        Set<String> switchNames = new TreeSet<>();
        for (Row r : cache.table("Logical_Switch").rows()) {
            LogicalSwitch ls = LogicalSwitch.fromRow(r);
            switchNames.add(ls.name());
            ls.loadBalancer().forEach(lb -> lbSwitches.computeIfAbsent(lb, k -> new TreeSet<>()).add(ls.name()));
            ls.loadBalancerGroup().forEach(g -> groupSwitches.computeIfAbsent(groupNames.getOrDefault(g, g.toString()),
                    k -> new TreeSet<>()).add(ls.name()));
        }
        List<OwnedLoadBalancer> owned = new ArrayList<>();
        TableCache balancers = cache.table("Load_Balancer");
        BalancerColumns columns = new BalancerColumns(balancers.schema());
        for (Row r : balancers.rows()) {
            Map<String, String> externalIds = columns.map(r, columns.externalIds);
            String owner = externalIds.get(DesiredRow.OWNER_KEY);
            if (owner == null) {
                continue;
            }
            UUID uuid = r.uuid();
            owned.add(new OwnedLoadBalancer(uuid, columns.name(r), owner, externalIds.getOrDefault(DesiredRow.SPEC_KEY, ""),
                    columns.protocol(r), columns.map(r, columns.vips), columns.map(r, columns.options),
                    lbRouters.getOrDefault(uuid, Set.of()), lbSwitches.getOrDefault(uuid, Set.of()), lbGroups.getOrDefault(uuid, Set.of())));
        }
        owned.sort(BY_OWNER_THEN_NAME);
        return new NorthboundSnapshot(owned, RouterNetworks.read(cache), switchNames, groupRouters, groupSwitches);
    }

    /**
     * The owned rows of one owner, or of every owner.
     *
     * @param owner an owner, or null for all
     * @return the rows, by owner then name
     */
    List<OwnedLoadBalancer> ownedBy(String owner) {
        return owner == null ? owned : owned.stream().filter(lb -> owner.equals(lb.owner())).toList();
    }

    /**
     * The routers a row's VIPs are served on: those holding it directly or through a group.
     *
     * @param lb the row
     * @return router names
     */
    Set<String> effectiveRouters(OwnedLoadBalancer lb) {
        if (lb.groups().isEmpty() && lb.routers().size() <= 1) {
            return lb.routers(); // already in order; most rows, and no set to build
        }
        Set<String> out = new TreeSet<>(lb.routers());
        lb.groups().forEach(g -> out.addAll(groupRouters.getOrDefault(g, Set.of())));
        return out;
    }

    /**
     * The {@code Load_Balancer} columns the snapshot reads, read as {@link LoadBalancer#fromRow}
     * reads them (a column the server lacks or types otherwise reads as its default) but checked
     * against the server's schema once per table instead of once per row, and without building
     * the typed row: at 10,000 load balancers {@code fromRow} (every column decoded, each map copied
     * twice) was most of the snapshot's time. Only the maps' strings are read: {@code external_ids}
     * is asked for two keys, which the cache's maps find without decoding the others.
     */
    private static final class BalancerColumns {
        final String name;
        final String protocolColumn;
        final String vips;
        final String options;
        final String externalIds;

        BalancerColumns(TableSchema table) {
            name = usable(table, LoadBalancer.NAME);
            protocolColumn = usable(table, LoadBalancer.PROTOCOL);
            vips = usable(table, LoadBalancer.VIPS);
            options = usable(table, LoadBalancer.OPTIONS);
            externalIds = usable(table, LoadBalancer.EXTERNAL_IDS);
        }

        /** The column's name, or null when the server's schema lacks it or types it otherwise. */
        private static String usable(TableSchema table, Column<?> column) {
            return table.findColumn(column.name()).filter(c -> column.accepts(c.type())).isPresent() ? column.name() : null;
        }

        String name(Row r) {
            return name != null && r.has(name) ? (String) r.get(name) : "";
        }

        /** The protocol's wire value; OVN's default, tcp, when unset. */
        String protocol(Row r) {
            if (protocolColumn == null || !r.has(protocolColumn)) {
                return "tcp";
            }
            Set<?> atoms = (Set<?>) r.get(protocolColumn);
            return atoms.isEmpty() ? "tcp" : (String) atoms.iterator().next();
        }

        /** A string-to-string map column: its type was checked against the schema. */
        @SuppressWarnings("unchecked")
        Map<String, String> map(Row r, String column) {
            return column != null && r.has(column) ? (Map<String, String>) r.get(column) : Map.of();
        }
    }
}
