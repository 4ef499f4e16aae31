package dev.ovnj.lb.internal;

import dev.ovnj.lb.plan.DesiredPolicy;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Plans the {@code Logical_Router_Policy} rows of specs with source ranges ({@link DesiredPolicy}),
 * inside the planner's cache read: creates what a router lacks, fixes what differs, and removes
 * the owner's policies that no declared spec wants. Only rows whose {@code external_ids:ovnj.owner}
 * is the owner are ever changed, and only in the routers' {@code policies} that hold them.
 */
final class SourceRangePolicies {
    static final String TABLE = "Logical_Router_Policy";
    static final String NOT_MONITORED = "sourceRanges need the Logical_Router_Policy table, which this client does not"
            + " monitor (monitor LoadBalancerEngine.monitorRequest()); nothing is written until it does";

    private final String owner;
    private final TableCache routers;
    private final Optional<TableCache> table;

    SourceRangePolicies(String owner, RowCache cache) {
        this.owner = owner;
        this.routers = cache.table("Logical_Router");
        this.table = cache.findTable(TABLE);
    }

    /** Whether the cache lets the planner see the spec's policies (always, for a spec without ranges). */
    boolean canHold(LoadBalancerSpec spec) {
        return spec.sourceRanges().isEmpty() || table.isPresent();
    }

    /** The changes that make the spec's routers hold exactly its policies. */
    void plan(LoadBalancerSpec spec, List<PlanChange> changes) {
        List<DesiredPolicy> wanted = DesiredPolicy.of(owner, spec);
        Map<List<Object>, Held> have = held(spec.name());
        if (wanted.isEmpty() && have.isEmpty()) {
            return;
        }
        for (String name : spec.routers()) {
            // A missing router makes the spec pending in the planner's attachments.
            for (Row router : routers.lookup(Planner.ROUTER_BY_NAME, name)) {
                for (DesiredPolicy d : wanted) {
                    Held h = have.isEmpty() ? null : have.remove(List.of(router.uuid(), d.key()));
                    if (h == null) {
                        changes.add(new PlanChange.CreatePolicy(name, router.uuid(), spec.name(), d));
                    } else if (!holds(h.row(), d)) {
                        changes.add(new PlanChange.UpdatePolicy(h.row().uuid(), name, spec.name(), d));
                    }
                }
            }
        }
        have.values().forEach(h -> changes.add(delete(h, spec.name())));
    }

    /**
     * Removes the policies of the owner's specs that are not declared: those in {@code scope}
     * (all of the owner's when null) that {@code specs} does not name, except the kept ones.
     */
    void deleteUndeclared(Collection<LoadBalancerSpec> specs, Set<String> keep, Set<String> scope, List<PlanChange> changes) {
        if (table.isEmpty()) {
            return;
        }
        Set<String> declared = new HashSet<>();
        specs.forEach(s -> declared.add(s.name()));
        Collection<String> stale;
        if (scope == null) {
            Set<String> all = new HashSet<>();
            for (Row r : table.get().lookup(Planner.POLICY_BY_OWNER, owner)) {
                all.add(idOf(r, DesiredRow.SPEC_KEY));
            }
            stale = all;
        } else {
            stale = scope;
        }
        for (String spec : stale) {
            if (!declared.contains(spec) && !keep.contains(spec)) {
                held(spec).values().forEach(h -> changes.add(delete(h, spec)));
            }
        }
    }

    /** The owner's policies of one spec by (router, policy key); a policy in two routers counts in each. */
    private Map<List<Object>, Held> held(String spec) {
        if (table.isEmpty()) {
            return Map.of();
        }
        List<Row> rows = table.get().lookup(Planner.POLICY_BY_SPEC, spec);
        if (rows.isEmpty()) {
            return Map.of();
        }
        Map<List<Object>, Held> out = new LinkedHashMap<>();
        List<Held> duplicates = new ArrayList<>();
        for (Row p : rows) {
            if (!DesiredRow.ownedBy(p, owner)) {
                continue;
            }
            String key = idOf(p, DesiredPolicy.POLICY_KEY);
            for (Row router : routers.lookup(Planner.ROUTER_BY_POLICY, p.uuid())) {
                Held h = new Held(p, router);
                if (out.putIfAbsent(List.of(router.uuid(), key), h) != null) {
                    duplicates.add(h);
                }
            }
        }
        // A second copy of a policy on one router (two writers racing) goes too.
        for (int i = 0; i < duplicates.size(); i++) {
            out.put(List.of(duplicates.get(i).router().uuid(), "duplicate", i), duplicates.get(i));
        }
        return out;
    }

    private static PlanChange delete(Held h, String spec) {
        return new PlanChange.DeletePolicy(h.row().uuid(), nameOf(h.router()), h.router().uuid(), spec,
                idOf(h.row(), DesiredPolicy.POLICY_KEY));
    }

    private static boolean holds(Row row, DesiredPolicy d) {
        return row.get("priority") instanceof Number n && n.longValue() == d.priority()
                && row.columnEquals(row.table().columnIndex("match"), d.match())
                && row.columnEquals(row.table().columnIndex("action"), d.action())
                && row.columnEquals(row.table().columnIndex("external_ids"), d.externalIds());
    }

    private static String idOf(Row row, String key) {
        return row.get("external_ids") instanceof Map<?, ?> ids && ids.get(key) instanceof String s ? s : "";
    }

    private static String nameOf(Row router) {
        return router.get("name") instanceof String s ? s : "";
    }

    /** An owned policy row and a router that holds it. */
    private record Held(Row row, Row router) {
    }
}
