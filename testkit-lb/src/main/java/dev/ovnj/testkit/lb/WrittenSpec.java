package dev.ovnj.testkit.lb;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LoadBalancerGroup;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.typed.TypedCache;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What the engine wrote for one spec, read from a Northbound client's typed cache in one
 * consistent read: the spec's status, its {@code Load_Balancer} rows (one per protocol), and the
 * routers, switches and load-balancer groups they are attached to (a router or switch counts when
 * it holds a row directly or through a group). An immutable snapshot; read again after a change.
 *
 * <pre>{@code
 * engine.apply("team-a", List.of(web)).get(30, TimeUnit.SECONDS);
 * WrittenSpec written = WrittenSpec.read(engine, northbound, "team-a", "web");
 * written.vips();      // {"10.0.0.10:80" -> "10.1.0.1:8080,10.1.0.2:8080"}
 * written.routers();   // [r1]
 * }</pre>
 *
 * <p>The client must replicate the tables the engine reads (build it with
 * {@link LoadBalancerEngine#monitorRequest()}, or monitor every table); {@link EngineAssertions}
 * asserts on the snapshot.
 *
 * @param owner the spec's owner
 * @param spec the spec's name
 * @param status the engine's status of the spec, empty when nothing is declared under that name
 * @param loadBalancers the spec's rows found in the cache, by name
 * @param routers the names of the routers holding any of the rows
 * @param switches the names of the switches holding any of the rows
 * @param groups the names of the load-balancer groups holding any of the rows
 */
public record WrittenSpec(String owner, String spec, Optional<SpecStatus> status, List<LoadBalancer> loadBalancers,
                          SortedSet<String> routers, SortedSet<String> switches, SortedSet<String> groups) {

    /**
     * Copies the collections.
     *
     * @param owner the spec's owner
     * @param spec the spec's name
     * @param status the engine's status of the spec, if declared
     * @param loadBalancers the spec's rows
     * @param routers routers holding a row
     * @param switches switches holding a row
     * @param groups groups holding a row
     */
    public WrittenSpec {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(status, "status");
        loadBalancers = List.copyOf(loadBalancers);
        routers = Collections.unmodifiableSortedSet(new TreeSet<>(routers));
        switches = Collections.unmodifiableSortedSet(new TreeSet<>(switches));
        groups = Collections.unmodifiableSortedSet(new TreeSet<>(groups));
    }

    /**
     * Reads what the engine wrote for a spec: the rows its status names
     * ({@link SpecStatus#rows()}) and what holds them, from the client's cache.
     *
     * @param engine the engine
     * @param northbound the engine's Northbound client, or another client of the same database
     * @param owner the spec's owner
     * @param spec the spec's name
     * @return the snapshot; without a status for the spec, no rows
     */
    public static WrittenSpec read(LoadBalancerEngine engine, OvsdbClient northbound, String owner, String spec) {
        Optional<SpecStatus> status = Optional.ofNullable(engine.status(owner).get(spec));
        Set<UUID> rows = status.map(SpecStatus::rows).orElse(Set.of());
        TypedCache cache = TypedCache.of(northbound.cache(), OvnNorthboundModel.MODEL);
        return northbound.cache().read(() -> {
            List<LoadBalancer> lbs = new ArrayList<>();
            for (UUID row : rows) {
                cache.table(LoadBalancer.class).get(row).ifPresent(lbs::add);
            }
            lbs.sort(Comparator.comparing(LoadBalancer::name));
            Set<UUID> groupRows = new TreeSet<>();
            SortedSet<String> groups = new TreeSet<>();
            for (LoadBalancerGroup g : cache.table(LoadBalancerGroup.class).rows()) {
                if (!Collections.disjoint(g.loadBalancer(), rows)) {
                    groups.add(g.name());
                    g.uuid().ifPresent(groupRows::add);
                }
            }
            SortedSet<String> routers = new TreeSet<>();
            for (LogicalRouter r : cache.table(LogicalRouter.class).rows()) {
                if (!Collections.disjoint(r.loadBalancer(), rows) || !Collections.disjoint(r.loadBalancerGroup(), groupRows)) {
                    routers.add(r.name());
                }
            }
            SortedSet<String> switches = new TreeSet<>();
            for (LogicalSwitch s : cache.table(LogicalSwitch.class).rows()) {
                if (!Collections.disjoint(s.loadBalancer(), rows) || !Collections.disjoint(s.loadBalancerGroup(), groupRows)) {
                    switches.add(s.name());
                }
            }
            return new WrittenSpec(owner, spec, status, lbs, routers, switches, groups);
        });
    }

    /**
     * The VIPs of all the spec's rows, each with its backends as written
     * ({@code "10.1.0.1:8080,10.1.0.2:8080"}).
     *
     * @return VIP to backends, sorted by VIP
     */
    public Map<String, String> vips() {
        Map<String, String> vips = new TreeMap<>();
        loadBalancers.forEach(lb -> vips.putAll(lb.vips()));
        return Collections.unmodifiableMap(vips);
    }

    /**
     * The names of the spec's rows.
     *
     * @return e.g. {@code [web-tcp, web-udp]}
     */
    public List<String> rowNames() {
        return loadBalancers.stream().map(LoadBalancer::name).toList();
    }

    /**
     * Whether the spec's status names rows the cache does not hold (deleted by another writer,
     * or not replicated by this client).
     *
     * @return true when a row of the status is missing from the cache
     */
    public boolean hasMissingRows() {
        return status.map(s -> s.rows().size() != loadBalancers.size()).orElse(false);
    }
}
