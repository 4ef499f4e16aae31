package dev.ovnj.cli;

import dev.ovnj.nb.eip.RouterNetworks;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LoadBalancerGroup;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
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
        for (Row r : cache.table("Load_Balancer").rows()) {
            LoadBalancer lb = LoadBalancer.fromRow(r);
            String owner = lb.externalIds().get(DesiredRow.OWNER_KEY);
            if (owner == null) {
                continue;
            }
            owned.add(new OwnedLoadBalancer(r.uuid(), lb.name(), owner,
                    lb.externalIds().getOrDefault(DesiredRow.SPEC_KEY, ""),
                    lb.protocol().map(p -> p.wireValue()).orElse("tcp"), lb.vips(), lb.options(),
                    lbRouters.getOrDefault(r.uuid(), Set.of()), lbSwitches.getOrDefault(r.uuid(), Set.of()),
                    lbGroups.getOrDefault(r.uuid(), Set.of())));
        }
        owned.sort(Comparator.comparing(OwnedLoadBalancer::owner).thenComparing(OwnedLoadBalancer::name));
        return new NorthboundSnapshot(owned, RouterNetworks.read(cache), switchNames, groupRouters, groupSwitches);
    }

    /**
     * The owned rows of one owner, or of every owner.
     *
     * @param owner an owner, or null for all
     * @return the rows, by owner then name
     */
    List<OwnedLoadBalancer> ownedBy(String owner) {
        return owned.stream().filter(lb -> owner == null || owner.equals(lb.owner())).toList();
    }

    /**
     * The routers a row's VIPs are served on: those holding it directly or through a group.
     *
     * @param lb the row
     * @return router names
     */
    Set<String> effectiveRouters(OwnedLoadBalancer lb) {
        Set<String> out = new TreeSet<>(lb.routers());
        lb.groups().forEach(g -> out.addAll(groupRouters.getOrDefault(g, Set.of())));
        return out;
    }
}
