package dev.ovnj.lb.internal;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.plan.Target;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.eip.EipClaim;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Diffs one owner's desired rows against the cache. Reads happen inside one consistent cache read;
 * the plan touches only rows whose {@code external_ids:ovnj.owner} is the owner (and the foreign
 * rows admission let it adopt, which it makes the owner's first), and only the owner's own
 * references in routers, switches and groups.
 */
public final class Planner {
    /** Owned load balancers, by owner. */
    public static final IndexSpec LB_BY_OWNER = IndexSpec.mapKey("Load_Balancer", "external_ids", DesiredRow.OWNER_KEY);
    /** Engine-managed load balancers by spec name, so planning one spec reads only its rows. */
    public static final IndexSpec LB_BY_SPEC = IndexSpec.mapKey("Load_Balancer", "external_ids", DesiredRow.SPEC_KEY);
    /** Load balancers by name, to spot foreign rows with an owned row's name. */
    public static final IndexSpec LB_BY_NAME = IndexSpec.of("Load_Balancer", "name");
    static final IndexSpec ROUTER_BY_NAME = IndexSpec.of("Logical_Router", "name");
    static final IndexSpec SWITCH_BY_NAME = IndexSpec.of("Logical_Switch", "name");
    static final IndexSpec GROUP_BY_NAME = IndexSpec.of("Load_Balancer_Group", "name");
    static final IndexSpec ROUTER_BY_LB = IndexSpec.of("Logical_Router", "load_balancer");
    static final IndexSpec SWITCH_BY_LB = IndexSpec.of("Logical_Switch", "load_balancer");
    static final IndexSpec GROUP_BY_LB = IndexSpec.of("Load_Balancer_Group", "load_balancer");
    /** Engine-managed source-range policies by owner, so specs left with only policies are found too. */
    public static final IndexSpec POLICY_BY_OWNER = IndexSpec.mapKey(SourceRangePolicies.TABLE, "external_ids", DesiredRow.OWNER_KEY);
    /** Source-range policies by spec name, and the routers that hold them. */
    static final IndexSpec POLICY_BY_SPEC = IndexSpec.mapKey(SourceRangePolicies.TABLE, "external_ids", DesiredRow.SPEC_KEY);
    static final IndexSpec ROUTER_BY_POLICY = IndexSpec.of("Logical_Router", "policies");

    /** Columns of an owned row that the engine sets and guards. */
    static final List<String> GUARDED = List.of("name", "vips", "protocol", "options", "selection_fields", "external_ids");

    private Planner() {
    }

    /**
     * The indexes the planner reads through; add them to the cache once.
     *
     * @return index specs
     */
    public static List<IndexSpec> indexes() {
        List<IndexSpec> out = new ArrayList<>(List.of(LB_BY_OWNER, LB_BY_SPEC, LB_BY_NAME, ROUTER_BY_NAME, SWITCH_BY_NAME, GROUP_BY_NAME,
                ROUTER_BY_LB, SWITCH_BY_LB, GROUP_BY_LB, POLICY_BY_SPEC, POLICY_BY_OWNER, ROUTER_BY_POLICY));
        out.addAll(HealthChecks.indexes());
        return out;
    }

    /**
     * Plans one owner.
     *
     * @param owner the owner
     * @param specs the owner's valid specs (invalid ones are left out by the caller)
     * @param cache the replicated NB cache (Load_Balancer, Logical_Router, Logical_Switch and
     *     Load_Balancer_Group monitored, indexes added)
     * @return the plan
     */
    public static LoadBalancerPlan plan(String owner, Collection<LoadBalancerSpec> specs, RowCache cache) {
        return plan(owner, specs, cache, Set.of());
    }

    /**
     * Plans one owner, leaving the rows of some specs exactly as they are (specs held back, e.g.
     * rejected by a policy, must not lose what is already written).
     *
     * @param owner the owner
     * @param specs the owner's specs to realize
     * @param cache the replicated NB cache
     * @param keep names of specs whose existing rows are neither changed nor deleted
     * @return the plan
     */
    public static LoadBalancerPlan plan(String owner, Collection<LoadBalancerSpec> specs, RowCache cache, Set<String> keep) {
        return plan(owner, specs, cache, keep, null);
    }

    /**
     * Plans part of one owner: only the named specs, and only their rows (a change to one spec
     * then costs one spec's work, not the owner's whole set).
     *
     * @param owner the owner
     * @param specs the desired versions of the specs in {@code scope} (a spec in scope but not here is gone)
     * @param cache the replicated NB cache
     * @param keep names of specs whose existing rows are neither changed nor deleted
     * @param scope names of the specs to plan, or null for all of the owner's rows
     * @return the plan for that part
     */
    public static LoadBalancerPlan plan(String owner, Collection<LoadBalancerSpec> specs, RowCache cache, Set<String> keep,
                                        Set<String> scope) {
        return cache.read(() -> new Run(owner, cache, Map.of(), Optional.empty())
                .plan(specs, s -> DesiredRow.of(owner, s), keep, scope));
    }

    /**
     * Plans part of one owner from rows the caller already derived (an engine keeps each spec's
     * {@link DesiredRow#of} from its declaration instead of deriving it on every pass).
     *
     * @param owner the owner
     * @param specs the desired versions of the specs in {@code scope}
     * @param rows a spec's rows, as {@link DesiredRow#of} gives them for this owner
     * @param cache the replicated NB cache
     * @param scope names of the specs to plan
     * @param adopt foreign rows the specs take over in place: a spec's row name to the foreign row's
     *     UUID (decided by admission); a row name the owner already has a row of adopts nothing
     * @param claimOwner the claim owner the adopted VIPs' address claims move to, empty to leave them
     * @return the plan for that part
     */
    public static LoadBalancerPlan plan(String owner, Collection<LoadBalancerSpec> specs,
                                        Function<LoadBalancerSpec, List<DesiredRow>> rows, RowCache cache, Set<String> scope,
                                        Map<String, UUID> adopt, Optional<String> claimOwner) {
        return cache.read(() -> new Run(owner, cache, adopt, claimOwner).plan(specs, rows, Set.of(), scope));
    }

    /** One planning pass; lives for the duration of a cache read. */
    private static final class Run {
        private final String owner;
        private final RowCache cache;
        private final TableCache lbs;
        private final TableCache routers;
        private final TableCache switches;
        private final TableCache groups;
        private final SourceRangePolicies policies;
        private final Map<String, UUID> adopt;
        private final Optional<String> claimOwner;
        // The engine plans one spec per run, twice per converge (to write it, then to see it
        // applied), so a run makes its collections only once it has something to put in them.
        private final List<PlanChange> changes = new ArrayList<>();
        private Map<UUID, Map<String, Object>> guards = Map.of();
        private Map<String, List<String>> pending = Map.of();
        private final List<String> conflicts = new ArrayList<>();
        private Map<String, Set<UUID>> applied = Map.of();
        // (target row, group) pairs already planned: many specs share one group.
        private Set<List<UUID>> plannedGroupAttachments = Set.of();

        Run(String owner, RowCache cache, Map<String, UUID> adopt, Optional<String> claimOwner) {
            this.owner = owner;
            this.adopt = adopt;
            this.claimOwner = claimOwner;
            this.cache = cache;
            this.lbs = cache.table("Load_Balancer");
            this.routers = cache.table("Logical_Router");
            this.switches = cache.table("Logical_Switch");
            this.groups = cache.table("Load_Balancer_Group");
            this.policies = new SourceRangePolicies(owner, cache);
        }

        LoadBalancerPlan plan(Collection<LoadBalancerSpec> specs, Function<LoadBalancerSpec, List<DesiredRow>> rowsOf,
                              Set<String> keep, Set<String> scope) {
            List<Row> ownedRows = ownedRows(scope);
            Map<String, Row> owned;
            List<Row> duplicates = List.of();
            if (ownedRows.size() <= 1) {
                // A run plans one spec, nearly always of one row: no hash map for it.
                owned = ownedRows.isEmpty() ? Map.of() : Map.of(LoadBalancer.NAME.read(ownedRows.get(0)).orElse(""), ownedRows.get(0));
            } else {
                owned = new HashMap<>();
                duplicates = new ArrayList<>();
                for (Row r : ownedRows) {
                    Row prev = owned.putIfAbsent(LoadBalancer.NAME.read(r).orElse(""), r);
                    if (prev != null) {
                        duplicates.add(r);
                    }
                }
            }
            Set<String> missingGroups = Set.of();
            for (LoadBalancerSpec spec : specs) {
                Optional<String> group = spec.group();
                if (group.isPresent() && groups.lookup(GROUP_BY_NAME, group.get()).isEmpty()) {
                    if (missingGroups.isEmpty()) {
                        missingGroups = new TreeSet<>();
                    }
                    missingGroups.add(group.get());
                }
            }
            if (!missingGroups.isEmpty()) {
                // Named-uuid references cannot span transactions, so new groups go first, alone.
                missingGroups.forEach(g -> changes.add(new PlanChange.CreateGroup(g)));
                for (LoadBalancerSpec spec : specs) {
                    Optional<String> group = spec.group();
                    if (group.isPresent() && missingGroups.contains(group.get())) {
                        pending().computeIfAbsent(spec.name(), k -> new ArrayList<>()).add("creating group " + group.get());
                    }
                }
            }
            // The names only matter when some owned row may be unwanted.
            // A list while it is short (one spec's row or two): a hash set per run was garbage.
            Collection<String> wanted = owned.isEmpty() ? null : new ArrayList<>(2);
            for (LoadBalancerSpec spec : specs) {
                List<DesiredRow> rows = rowsOf.apply(spec);
                if (wanted != null) {
                    for (DesiredRow d : rows) {
                        wanted.add(d.rowName());
                    }
                    if (wanted.size() > 8 && wanted instanceof List<String>) {
                        wanted = new HashSet<>(wanted);
                    }
                }
                Optional<String> group = spec.group();
                if (group.isPresent() && missingGroups.contains(group.get())) {
                    continue;
                }
                int before = changes.size();
                if (!policies.canHold(spec)) {
                    // Without its policies the VIP would serve every source: nothing is written.
                    pendingFor(spec, SourceRangePolicies.NOT_MONITORED);
                    continue;
                }
                Set<UUID> uuids = Set.of();
                for (DesiredRow plain : rows) {
                    HealthChecks.Resolution hc = HealthChecks.resolve(spec, plain.protocol(), cache);
                    hc.waiting().forEach(w -> pendingFor(spec, w));
                    DesiredRow d = plain.withHealthChecks(hc.checks(), hc.mappings());
                    Row existing = owned.get(d.rowName());
                    Row adopted = existing == null ? adopted(d) : null;
                    reportForeignNamesakes(d, adopted);
                    Set<String> shared = adopted == null ? Set.of() : splitKeys(adopted, d);
                    if (adopted != null && shared.isEmpty()) {
                        changes.add(new PlanChange.Adopt(adopted.uuid(), d.rowName(), nameOf(adopted),
                                Optional.ofNullable(idOf(adopted, DesiredRow.OWNER_KEY)), d.externalIds()));
                        claimOwner.ifPresent(to -> moveClaims(adopted, d, to));
                        existing = adopted;
                    }
                    if (!shared.isEmpty()) {
                        // A shared row (it serves VIPs of others too): the spec's VIPs leave it in
                        // the transaction that creates the spec's own row with them.
                        changes.add(new PlanChange.CreateRow(d));
                        changes.add(new PlanChange.Split(adopted.uuid(), nameOf(adopted), d.rowName(), shared));
                        guardAsRead(adopted);
                        attachments(spec, d, null);
                    } else if (existing == null) {
                        changes.add(new PlanChange.CreateRow(d));
                        attachments(spec, d, null);
                    } else {
                        // One row per spec and protocol: an immutable set of one, as statuses keep it.
                        if (uuids.isEmpty()) {
                            uuids = Set.of(existing.uuid());
                        } else {
                            uuids = new HashSet<>(uuids);
                            uuids.add(existing.uuid());
                        }
                        diffColumns(d, existing, adopted != null);
                        attachments(spec, d, existing.uuid());
                    }
                }
                policies.plan(spec, changes);
                if (changes.size() == before && !pending.containsKey(spec.name())) {
                    // One spec (the engine's run): a map of one, which the plan keeps as it is.
                    if (applied.isEmpty()) {
                        applied = Map.of(spec.name(), uuids);
                    } else {
                        if (applied.size() == 1 && !(applied instanceof LinkedHashMap)) {
                            applied = new LinkedHashMap<>(applied);
                        }
                        applied.put(spec.name(), uuids);
                    }
                }
            }
            for (Map.Entry<String, Row> e : owned.entrySet()) {
                if (!wanted.contains(e.getKey()) && !keep.contains(specOf(e.getValue()))) {
                    changes.add(new PlanChange.DeleteRow(e.getValue().uuid(), e.getKey()));
                }
            }
            duplicates.forEach(r -> changes.add(new PlanChange.DeleteRow(r.uuid(), LoadBalancer.NAME.read(r).orElse(""))));
            policies.deleteUndeclared(specs, keep, scope, changes);
            return new LoadBalancerPlan(owner, changes, guards, pending, conflicts, applied, Map.of());
        }

        /** The owner's rows, or only those of the specs in scope (through the spec index: O(scope), not O(owner)). */
        private List<Row> ownedRows(Set<String> scope) {
            if (scope == null) {
                return lbs.lookup(LB_BY_OWNER, owner);
            }
            if (scope.size() == 1) {
                // The engine's case, one spec: the index's answer itself when every row is the owner's.
                List<Row> found = lbs.lookup(LB_BY_SPEC, scope.iterator().next());
                boolean all = true;
                for (Row r : found) {
                    all &= DesiredRow.ownedBy(r, owner);
                }
                if (all) {
                    return found;
                }
            }
            List<Row> out = new ArrayList<>();
            for (String spec : scope) {
                for (Row r : lbs.lookup(LB_BY_SPEC, spec)) {
                    if (DesiredRow.ownedBy(r, owner)) {
                        out.add(r);
                    }
                }
            }
            return out;
        }

        private static String specOf(Row row) {
            String spec = idOf(row, DesiredRow.SPEC_KEY);
            return spec == null ? "" : spec;
        }

        private static String idOf(Row row, String key) {
            return row.get("external_ids") instanceof Map<?, ?> ids && ids.get(key) instanceof String s ? s : null;
        }

        /**
         * Moves to {@code to} the claims of the adopted row's VIP addresses (only those: an address
         * the spec adds is not the former owner's to give) held by another claim owner on the ports
         * of the spec's routers: the claims move with the row.
         */
        private void moveClaims(Row adopted, DesiredRow d, String to) {
            Optional<TableCache> ports = cache.findTable("Logical_Router_Port");
            if (ports.isEmpty() || !(adopted.get("vips") instanceof Map<?, ?> vips)) {
                return;
            }
            Set<String> keys = new TreeSet<>();
            for (Object vip : vips.keySet()) {
                try {
                    keys.add(EipClaim.key(Endpoint.parse(String.valueOf(vip)).address()));
                } catch (IllegalArgumentException notIpPort) {
                    try {
                        keys.add(EipClaim.key(IpAddresses.parse(String.valueOf(vip))));
                    } catch (IllegalArgumentException malformed) {
                        // Another tool's malformed VIP has no address to claim.
                    }
                }
            }
            for (String router : d.routers()) {
                for (Row r : routers.lookup(ROUTER_BY_NAME, router)) {
                    if (!(r.get("ports") instanceof Set<?> refs)) {
                        continue;
                    }
                    for (Object ref : refs) {
                        Row port = ports.get().get((UUID) ref).orElse(null);
                        for (String key : keys) {
                            String from = port == null ? null : idOf(port, key);
                            if (from != null && !from.equals(to)) {
                                changes.add(new PlanChange.MoveClaim(port.uuid(), nameOf(port), d.rowName(), key, from, to));
                            }
                        }
                    }
                }
            }
        }

        /**
         * The keys a shared foreign row gives up to {@code d} (as the row spells them), or none when
         * the row serves only VIPs of {@code d}, which is then adopted whole.
         */
        private static Set<String> splitKeys(Row row, DesiredRow d) {
            if (!(row.get("vips") instanceof Map<?, ?> vips)) {
                return Set.of();
            }
            Set<String> mine = new HashSet<>();
            d.vips().keySet().forEach(k -> mine.add(normalized(k)));
            Set<String> take = new TreeSet<>();
            boolean others = false;
            for (Object key : vips.keySet()) {
                if (mine.contains(normalized(String.valueOf(key)))) {
                    take.add(String.valueOf(key));
                } else {
                    others = true;
                }
            }
            return others ? take : Set.of();
        }

        private static String normalized(String vip) {
            try {
                return Endpoint.normalize(vip);
            } catch (IllegalArgumentException e) {
                return vip;
            }
        }

        /** Guards a row on its columns as this plan read them. */
        private void guardAsRead(Row row) {
            Map<String, Object> guard = new LinkedHashMap<>();
            for (String c : GUARDED) {
                guard.put(c, row.get(c));
            }
            if (guards.isEmpty()) {
                guards = new LinkedHashMap<>();
            }
            guards.put(row.uuid(), guard);
        }

        /** The foreign row admission let this desired row adopt, if it is still there. */
        private Row adopted(DesiredRow d) {
            UUID uuid = adopt.get(d.rowName());
            return uuid == null ? null : lbs.get(uuid).orElse(null);
        }

        private static String nameOf(Row row) {
            return row.get("name") instanceof String n ? n : "";
        }

        private void reportForeignNamesakes(DesiredRow d, Row adopted) {
            for (Row r : lbs.lookup(LB_BY_NAME, d.rowName())) {
                // Compared in place: the owner's own row (the usual answer) decodes nothing.
                if (DesiredRow.ownedBy(r, owner) || r == adopted) {
                    continue;
                }
                String rowOwner = idOf(r, DesiredRow.OWNER_KEY);
                conflicts.add("load balancer " + r.uuid() + " named " + d.rowName() + " belongs to "
                        + (rowOwner == null ? "another client (no ovnj.owner)" : "owner " + rowOwner) + "; it is left alone");
            }
        }

        /** Changes that make {@code existing} the desired row; an adopted row gets its name and ownership from {@link PlanChange.Adopt}. */
        private void diffColumns(DesiredRow d, Row existing, boolean adopting) {
            TableSchema table = existing.table();
            // Made on first use: a row that is already right (every row a converge verifies)
            // needs none of them.
            Set<String> delete = Set.of();
            Map<String, String> insert = Map.of();
            // Each column is compared in place (Row.columnEquals decodes nothing), so a row that is
            // already right skips the walks below, which decode every backend list they read.
            if (!existing.columnEquals(table.columnIndex("vips"), d.vips())) {
                // The cached row's own map (string keys and values), not a typed copy of it.
                @SuppressWarnings("unchecked")
                Map<String, String> have = existing.get("vips") instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
                for (Map.Entry<String, String> e : have.entrySet()) {
                    String want = d.vips().get(e.getKey());
                    if (!e.getValue().equals(want)) {
                        if (delete.isEmpty()) {
                            delete = new TreeSet<>();
                        }
                        delete.add(e.getKey());
                    }
                }
                for (Map.Entry<String, String> e : d.vips().entrySet()) {
                    if (!e.getValue().equals(have.get(e.getKey()))) {
                        if (insert.isEmpty()) {
                            insert = new LinkedHashMap<>();
                        }
                        insert.put(e.getKey(), e.getValue());
                    }
                }
            }
            Map<String, Object> set = Map.of();
            Set<String> protocol = Set.of(d.protocol().wireValue());
            if (!existing.columnEquals(table.columnIndex("protocol"), protocol)) {
                set = with(set, "protocol", protocol);
            }
            if (!existing.columnEquals(table.columnIndex("options"), d.options())) {
                set = with(set, "options", d.options());
            }
            if (!existing.columnEquals(table.columnIndex("selection_fields"), d.selectionFields())) {
                set = with(set, "selection_fields", d.selectionFields());
            }
            if (!adopting && !existing.columnEquals(table.columnIndex("external_ids"), d.externalIds())) {
                set = with(set, "external_ids", d.externalIds());
            }
            if (!delete.isEmpty() || !insert.isEmpty()) {
                changes.add(new PlanChange.UpdateVips(existing.uuid(), d.rowName(), delete, insert));
            }
            int before = changes.size();
            boolean checks = existing.table().findColumn("health_check").isPresent();
            if (checks) {
                if (!Objects.equals(existing.get("ip_port_mappings"), d.ipPortMappings())) {
                    set = with(set, "ip_port_mappings", d.ipPortMappings());
                }
                healthChecks(d, existing);
            }
            if (adopting || !delete.isEmpty() || !insert.isEmpty() || !set.isEmpty() || changes.size() > before) {
                Map<String, Object> guard = new LinkedHashMap<>();
                for (String c : GUARDED) {
                    guard.put(c, existing.get(c));
                }
                if (checks) {
                    guard.put("health_check", existing.get("health_check"));
                    guard.put("ip_port_mappings", existing.get("ip_port_mappings"));
                }
                if (guards.isEmpty()) {
                    guards = new LinkedHashMap<>();
                }
                guards.put(existing.uuid(), guard);
            }
            if (!set.isEmpty()) {
                changes.add(new PlanChange.SetColumns(existing.uuid(), d.rowName(), set));
            }
        }

        /** {@code map} with one more entry, made writable on first use. */
        private static Map<String, Object> with(Map<String, Object> map, String column, Object value) {
            Map<String, Object> out = map.isEmpty() ? new LinkedHashMap<>() : map;
            out.put(column, value);
            return out;
        }

        /** One health check row per checked VIP: create what is missing, fix what differs, drop the rest. */
        private void healthChecks(DesiredRow d, Row existing) {
            Optional<TableCache> table = cache.findTable("Load_Balancer_Health_Check");
            Map<String, Row> have = new HashMap<>();
            List<Row> extra = new ArrayList<>();
            if (existing.get("health_check") instanceof Set<?> refs) {
                for (Object ref : refs) {
                    Row hc = table.flatMap(t -> t.get((UUID) ref)).orElse(null);
                    if (hc == null) {
                        continue;
                    }
                    String vip = hc.get("vip") instanceof String v ? v : "";
                    if (!d.healthChecks().containsKey(vip) || have.putIfAbsent(vip, hc) != null) {
                        extra.add(hc);
                    }
                }
            }
            Map<String, String> ids = d.healthCheckIds();
            d.healthChecks().forEach((vip, options) -> {
                Row hc = have.get(vip);
                if (hc == null) {
                    changes.add(new PlanChange.CreateHealthCheck(existing.uuid(), d.rowName(), vip, options, ids));
                } else if (!Objects.equals(hc.get("options"), options) || !Objects.equals(hc.get("external_ids"), ids)) {
                    changes.add(new PlanChange.UpdateHealthCheck(hc.uuid(), d.rowName(), vip, options, ids));
                }
            });
            extra.forEach(hc -> changes.add(new PlanChange.RemoveHealthCheck(existing.uuid(), hc.uuid(), d.rowName(),
                    hc.get("vip") instanceof String v ? v : "")));
        }

        private void attachments(LoadBalancerSpec spec, DesiredRow d, UUID lb) {
            Optional<String> group = d.group();
            if (group.isPresent()) {
                Row g = groups.lookup(GROUP_BY_NAME, group.get()).get(0);
                if (lb == null || !contains(g, "load_balancer", lb)) {
                    changes.add(new PlanChange.Attach(Target.GROUP, group.get(), g.uuid(), lb, d.rowName()));
                }
                groupTargets(spec, Target.ROUTER, routers, ROUTER_BY_NAME, d.routers(), group.get(), g.uuid());
                groupTargets(spec, Target.SWITCH, switches, SWITCH_BY_NAME, d.switches(), group.get(), g.uuid());
                if (lb != null) {
                    detachOthers(Target.GROUP, groups, GROUP_BY_LB, lb, d.rowName(), Set.of(group.get()));
                    detachOthers(Target.ROUTER, routers, ROUTER_BY_LB, lb, d.rowName(), Set.of());
                    detachOthers(Target.SWITCH, switches, SWITCH_BY_LB, lb, d.rowName(), Set.of());
                }
                return;
            }
            direct(spec, Target.ROUTER, routers, ROUTER_BY_NAME, d.routers(), d, lb);
            direct(spec, Target.SWITCH, switches, SWITCH_BY_NAME, d.switches(), d, lb);
            if (lb != null) {
                detachOthers(Target.ROUTER, routers, ROUTER_BY_LB, lb, d.rowName(), d.routers());
                detachOthers(Target.SWITCH, switches, SWITCH_BY_LB, lb, d.rowName(), d.switches());
                detachOthers(Target.GROUP, groups, GROUP_BY_LB, lb, d.rowName(), Set.of());
            }
        }

        private void direct(LoadBalancerSpec spec, Target target, TableCache table, IndexSpec byName, Set<String> names,
                            DesiredRow d, UUID lb) {
            eachTarget(spec, target, table, byName, names, (name, t) -> {
                if (lb == null || !contains(t, "load_balancer", lb)) {
                    changes.add(new PlanChange.Attach(target, name, t.uuid(), lb, d.rowName()));
                }
            });
        }

        private void groupTargets(LoadBalancerSpec spec, Target target, TableCache table, IndexSpec byName, Set<String> names,
                                  String group, UUID groupUuid) {
            eachTarget(spec, target, table, byName, names, (name, t) -> {
                boolean attached = contains(t, "load_balancer_group", groupUuid);
                if (!attached && plannedGroupAttachments.isEmpty()) {
                    plannedGroupAttachments = new HashSet<>();
                }
                if (!attached && plannedGroupAttachments.add(List.of(t.uuid(), groupUuid))) {
                    changes.add(new PlanChange.AttachGroup(target, name, t.uuid(), group, groupUuid));
                }
            });
        }

        /** Each row named by the spec in a target table; a name with no row yet makes the spec pending. */
        private void eachTarget(LoadBalancerSpec spec, Target target, TableCache table, IndexSpec byName, Set<String> names,
                                BiConsumer<String, Row> each) {
            for (String name : names) {
                List<Row> found = table.lookup(byName, name);
                if (found.isEmpty()) {
                    pendingFor(spec, target.word() + " " + name + " does not exist yet");
                    continue;
                }
                for (Row t : found) {
                    each.accept(name, t);
                }
            }
        }

        private void detachOthers(Target target, TableCache table, IndexSpec byLb, UUID lb, String rowName, Set<String> keep) {
            for (Row t : table.lookup(byLb, lb)) {
                if (!named(t, keep)) {
                    changes.add(new PlanChange.Detach(target, (String) t.get("name"), t.uuid(), lb, rowName));
                }
            }
        }

        /** Whether a row's name is one of {@code names}: {@code names.contains(row.get("name"))}, compared in place. */
        private static boolean named(Row row, Set<String> names) {
            if (names.isEmpty()) {
                return false;
            }
            int name = row.table().columnIndex("name");
            for (String n : names) {
                if (row.columnEquals(name, n)) {
                    return true;
                }
            }
            return false;
        }

        private void pendingFor(LoadBalancerSpec spec, String reason) {
            List<String> reasons = pending().computeIfAbsent(spec.name(), k -> new ArrayList<>());
            if (!reasons.contains(reason)) {
                reasons.add(reason);
            }
        }

        /** The pending reasons, made writable on first use. */
        private Map<String, List<String>> pending() {
            if (pending.isEmpty()) {
                pending = new LinkedHashMap<>();
            }
            return pending;
        }

        private static boolean contains(Row row, String column, UUID uuid) {
            // In place: a router's inline set of groups is not decoded to find one UUID.
            return row.columnContains(row.table().columnIndex(column), uuid);
        }
    }
}
