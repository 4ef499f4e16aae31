package dev.ovnj.lb;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.internal.HealthChecks;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecValidator;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Works out one spec: admission, then a plan of just that spec's rows, in one hold of the cache's
 * read lock per spec (admission and plan see the same rows; the client's update thread waits for a
 * single spec at most, never for a whole owner). Pure apart from the cache reads; the engine
 * thread and {@code plan()} both use it.
 */
final class Reconciler {
    /** The specs a dry-run plan reads per cache read, for stale rows. */
    private static final int STALE_CHUNK = 64;

    /** What one spec needs. */
    sealed interface Result {
        /**
         * The spec's health checks as resolved while judging it: the sources the status shows and
         * the addresses a port event must re-plan it for.
         *
         * @return the resolution, NONE when nothing was resolved
         */
        default HealthChecks.Resolution health() {
            return HealthChecks.Resolution.NONE;
        }
    }

    /**
     * Nothing to write; the verdict.
     *
     * @param state APPLIED, WAITING, INVALID or CONFLICT
     * @param reasons why, in words
     * @param warnings problems that do not stop it
     * @param rows its rows' UUIDs
     * @param conflicts what it collides with
     * @param health its health checks as resolved
     */
    record Settled(SpecStatus.State state, List<String> reasons, List<String> warnings, Set<UUID> rows,
                   List<ConflictingRow> conflicts, HealthChecks.Resolution health) implements Result {
        Settled(SpecStatus.State state, List<String> reasons, List<String> warnings, Set<UUID> rows, List<ConflictingRow> conflicts) {
            this(state, reasons, warnings, rows, conflicts, HealthChecks.Resolution.NONE);
        }
    }

    /**
     * Changes to write.
     *
     * @param plan the plan of this spec's rows
     * @param warnings problems that do not stop it
     * @param health its health checks as resolved
     */
    record Write(LoadBalancerPlan plan, List<String> warnings, HealthChecks.Resolution health) implements Result {
        Write(LoadBalancerPlan plan, List<String> warnings) {
            this(plan, warnings, HealthChecks.Resolution.NONE);
        }
    }

    /** The spec was removed and its rows are gone. */
    record Gone() implements Result {
    }

    private final RowCache cache;
    private final Admission admission;
    private final EngineCounters counters;
    private final EipCheck.Memo eipChecks;

    Reconciler(RowCache cache, Admission admission, EngineCounters counters) {
        this.cache = cache;
        this.admission = admission;
        this.counters = counters;
        this.eipChecks = new EipCheck.Memo(cache);
    }

    /** The routers' networks as the cache holds them now (re-read only after a router or router port changed). */
    EipCheck eipCheck() {
        return eipChecks.current();
    }

    /**
     * Reconciles one key against the cache.
     *
     * @param key the key
     * @param d its desired version (removed: delete its rows)
     * @param eip the routers' networks, read once per pass
     * @param activeClaim whether another spec's VIP claim still counts
     * @return the result
     */
    Result reconcile(SpecKey key, Desired d, EipCheck eip, Predicate<SpecKey> activeClaim) {
        if (d.invalid()) {
            return invalid(d);
        }
        // One read for the spec: the reads of admission, plan and rows below re-enter it.
        return cache.read(() -> {
            long t0 = EngineCounters.now();
            try {
                return reconcileRead(key, d, eip, activeClaim);
            } finally {
                counters.cacheRead(t0);
            }
        });
    }

    private static Result invalid(Desired d) {
        return new Settled(SpecStatus.State.INVALID, d.errors().stream().map(e -> e.field() + ": " + e.message()).toList(),
                List.of(), Set.of(), List.of());
    }

    /** {@link #reconcile}, inside the spec's cache read. */
    private Result reconcileRead(SpecKey key, Desired d, EipCheck eip, Predicate<SpecKey> activeClaim) {
        if (d.isHeld()) {
            Set<UUID> rows = ownRows(key);
            return rows.isEmpty() ? new Gone() : new Settled(SpecStatus.State.HELD, List.of(d.held()), List.of(), rows, List.of());
        }
        if (d.removed()) {
            LoadBalancerPlan plan = planRead(key.owner(), List.of(), null, Set.of(key.spec()), Map.of(), Optional.empty());
            return plan.isEmpty() ? new Gone() : new Write(plan, List.of());
        }
        SpecFacts facts = d.facts() != null ? d.facts() : SpecFacts.of(key.owner(), d.spec());
        Admission.Verdict v = admission.admit(key.owner(), d.spec(), facts, d.seq(), cache, eip, activeClaim, d.adoption());
        if (!v.admitted()) {
            return new Settled(v.state(), v.reasons(), v.warnings(), Set.of(), v.conflicts(), v.health());
        }
        LoadBalancerPlan plan = planRead(key.owner(), List.of(d.spec()), facts.rows(), Set.of(key.spec()), v.adoptions(),
                claimOwner(d.adoption()));
        List<String> warnings = v.warnings();
        if (!plan.conflicts().isEmpty()) {
            warnings = new ArrayList<>(warnings);
            warnings.addAll(plan.conflicts());
        }
        if (!plan.isEmpty()) {
            return new Write(plan, warnings, v.health());
        }
        List<String> waiting = plan.pending().getOrDefault(key.spec(), List.of());
        Set<UUID> rows = plan.applied().containsKey(key.spec()) ? plan.applied().get(key.spec()) : ownRows(key);
        return waiting.isEmpty()
                ? new Settled(SpecStatus.State.APPLIED, List.of(), warnings, rows, List.of(), v.health())
                : new Settled(SpecStatus.State.WAITING, waiting, warnings, ownRows(key), List.of(), v.health());
    }

    /** Plans some of an owner's specs in one cache read, timing how long it held the lock. */
    LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs, Set<String> scope) {
        return plan(owner, specs, scope, Map.of(), Optional.empty());
    }

    private static Optional<String> claimOwner(Adoption adoption) {
        return adoption == null ? Optional.empty() : adoption.claimOwner();
    }

    /** The same, adopting foreign rows (a spec's row name to the row, as admission allowed). */
    private LoadBalancerPlan plan(String owner, List<LoadBalancerSpec> specs, Set<String> scope, Map<String, UUID> adopt,
                                  Optional<String> claimOwner) {
        return cache.read(() -> {
            long t0 = EngineCounters.now();
            try {
                return planRead(owner, specs, null, scope, adopt, claimOwner);
            } finally {
                counters.cacheRead(t0);
            }
        });
    }

    /** A plan, inside a cache read the caller holds and times ({@code rows} null: derive them). */
    private LoadBalancerPlan planRead(String owner, List<LoadBalancerSpec> specs, List<DesiredRow> rows, Set<String> scope,
                                      Map<String, UUID> adopt, Optional<String> claimOwner) {
        counters.specPlans.addAndGet(scope.size());
        return Planner.plan(owner, specs, rows == null ? s -> DesiredRow.of(owner, s) : s -> rows, cache, scope, adopt, claimOwner);
    }

    private Set<UUID> ownRows(SpecKey key) {
        return cache.read(() -> {
            Set<UUID> out = new HashSet<>();
            for (Row r : cache.table("Load_Balancer").lookup(Planner.LB_BY_SPEC, key.spec())) {
                if (DesiredRow.ownedBy(r, key.owner())) {
                    out.add(r.uuid());
                }
            }
            return out;
        });
    }

    /**
     * What {@code apply(owner, specs)} would write now, through the same admission and planning
     * as the engine: invalid, EIP-rejected and conflicting specs keep their rows and are listed.
     */
    LoadBalancerPlan dryRun(String owner, List<LoadBalancerSpec> specs, Predicate<SpecKey> activeClaim, DeletionBudget budget,
                            Adoption adoption) {
        Map<String, List<SpecError>> checked = SpecValidator.validate(owner, specs);
        EipCheck eip = eipChecks.current();
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        List<LoadBalancerPlan> parts = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        Set<String> declared = new HashSet<>();
        for (LoadBalancerSpec s : specs) {
            declared.add(s.name());
            List<SpecError> errors = checked.get(s.name());
            if (errors != null && !errors.isEmpty()) {
                invalid.put(s.name(), errors.stream().map(e -> e.field() + ": " + e.message()).toList());
                continue;
            }
            if (!invalid.containsKey(s.name())) {
                Admission.Verdict v = admission.admit(owner, s, SpecFacts.of(owner, s), Long.MAX_VALUE, cache, eip, activeClaim, adoption);
                if (v.state() == SpecStatus.State.INVALID) {
                    invalid.put(s.name(), v.reasons());
                } else if (v.state() == SpecStatus.State.CONFLICT) {
                    v.reasons().forEach(r -> conflicts.add("spec " + s.name() + ": " + r + "; it is left alone"));
                } else {
                    parts.add(plan(owner, List.of(s), Set.of(s.name()), v.adoptions(), claimOwner(adoption)));
                }
            }
        }
        Map<String, Integer> rows = rowsBySpec(owner);
        List<String> stale = new ArrayList<>(stale(rows, declared));
        int owned = rows.values().stream().mapToInt(Integer::intValue).sum();
        int deleting = stale.stream().mapToInt(rows::get).sum();
        Map<String, String> held = new LinkedHashMap<>();
        if (budget.exceededBy(deleting, owned)) {
            String why = heldReason(deleting, owned, budget);
            stale.forEach(n -> held.put(n, why));
            stale.clear();
        }
        for (int i = 0; i < stale.size(); i += STALE_CHUNK) {
            parts.add(plan(owner, List.of(), new LinkedHashSet<>(stale.subList(i, Math.min(stale.size(), i + STALE_CHUNK)))));
        }
        LoadBalancerPlan merged = merge(owner, parts);
        List<String> allConflicts = new ArrayList<>(conflicts);
        allConflicts.addAll(merged.conflicts());
        return new LoadBalancerPlan(owner, merged.changes(), merged.guards(), merged.pending(), allConflicts, merged.applied(), invalid,
                held);
    }

    /** Why deletions are held, for a spec's status and a plan: the numbers and how to release them. */
    static String heldReason(int deleting, int owned, DeletionBudget budget) {
        return "deletion held: this would delete " + deleting + " of the owner's " + owned + " load balancer rows (budget: "
                + budget.describe() + "); the rows stay until the desired set names them again, the deletions"
                + " are within the budget, or they are released (releaseHeldDeletions, apply with ALLOW_MASS_DELETE,"
                + " ovnj reconcile --allow-mass-delete)";
    }

    /** Specs of the owner that have rows in the database but are not declared. */
    Set<String> staleSpecs(String owner, Set<String> declared) {
        return stale(rowsBySpec(owner), declared);
    }

    /** The specs of {@code rows} (per spec, as {@link #rowsBySpec} counts them) that are not declared. */
    static Set<String> stale(Map<String, Integer> rows, Set<String> declared) {
        Set<String> out = new LinkedHashSet<>(rows.keySet());
        out.removeAll(declared);
        return out;
    }

    /**
     * How many Load_Balancer rows the owner has per spec (a spec has one row per protocol; one left
     * with source-range policies only has zero); none before the first sync (the sync then checks
     * every owner again).
     */
    Map<String, Integer> rowsBySpec(String owner) {
        return cache.read(() -> {
            Map<String, Integer> out = new LinkedHashMap<>();
            Optional<dev.ovnj.ovsdb.cache.TableCache> lbs = cache.findTable("Load_Balancer");
            if (lbs.isEmpty()) {
                return out;
            }
            for (Row r : lbs.get().lookup(Planner.LB_BY_OWNER, owner)) {
                out.merge(specOf(r), 1, Integer::sum);
            }
            // A spec whose load balancers are gone but whose source-range policies are left counts
            // no row against the deletion budget, and is stale all the same.
            cache.findTable("Logical_Router_Policy").ifPresent(policies -> {
                for (Row r : policies.lookup(Planner.POLICY_BY_OWNER, owner)) {
                    out.putIfAbsent(specOf(r), 0);
                }
            });
            return out;
        });
    }

    private static String specOf(Row r) {
        return r.get("external_ids") instanceof Map<?, ?> ids && ids.get(DesiredRow.SPEC_KEY) instanceof String s ? s : "";
    }

    /** Joins plans of one owner; a group that several specs need is created once. */
    static LoadBalancerPlan merge(String owner, List<LoadBalancerPlan> parts) {
        List<PlanChange> changes = new ArrayList<>();
        Map<UUID, Map<String, Object>> guards = new LinkedHashMap<>();
        Map<String, List<String>> pending = new LinkedHashMap<>();
        List<String> conflicts = new ArrayList<>();
        Map<String, Set<UUID>> applied = new LinkedHashMap<>();
        Set<String> groups = new HashSet<>();
        for (LoadBalancerPlan p : parts) {
            for (PlanChange c : p.changes()) {
                if (!(c instanceof PlanChange.CreateGroup g) || groups.add(g.name())) {
                    changes.add(c);
                }
            }
            guards.putAll(p.guards());
            pending.putAll(p.pending());
            conflicts.addAll(p.conflicts());
            applied.putAll(p.applied());
        }
        return new LoadBalancerPlan(owner, changes, guards, pending, conflicts, applied, Map.of());
    }
}
