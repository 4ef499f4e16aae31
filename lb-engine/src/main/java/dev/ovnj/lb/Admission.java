package dev.ovnj.lb;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.internal.HealthChecks;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.plan.Target;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Decides whether a (statically valid) spec may be written, the one code path behind
 * {@code plan()}, {@code upsert()} and {@code apply()}: the EIP policy, {@code skipSnat} on a
 * distributed router ({@link SkipSnatRouters}), and conflicts with rows
 * the owner does not own. A conflict is a load balancer of another owner or client serving the
 * same VIP and protocol on a router or switch the spec also uses (directly or through a group),
 * another owner's spec that declared that VIP there first, or a foreign row with the name the
 * spec's row must have. Foreign rows are never touched, except those an explicit {@link Adoption}
 * of the declaration covers and the spec may take over in place; a spec that was there first keeps
 * its VIP.
 */
final class Admission {
    static final IndexSpec ROUTER_BY_LB = IndexSpec.of("Logical_Router", "load_balancer");
    static final IndexSpec SWITCH_BY_LB = IndexSpec.of("Logical_Switch", "load_balancer");
    static final IndexSpec GROUP_BY_LB = IndexSpec.of("Load_Balancer_Group", "load_balancer");
    static final IndexSpec ROUTER_BY_GROUP = IndexSpec.of("Logical_Router", "load_balancer_group");
    static final IndexSpec SWITCH_BY_GROUP = IndexSpec.of("Logical_Switch", "load_balancer_group");
    static final IndexSpec ROUTER_BY_PORT = IndexSpec.of("Logical_Router", "ports");

    /** Indexes admission and the event mapper read through, besides the planner's. */
    static List<IndexSpec> indexes() {
        return List.of(ROUTER_BY_LB, SWITCH_BY_LB, GROUP_BY_LB, ROUTER_BY_GROUP, SWITCH_BY_GROUP, ROUTER_BY_PORT);
    }

    /**
     * The verdict on one spec.
     *
     * @param state null when admitted, else INVALID or CONFLICT
     * @param reasons why not admitted
     * @param warnings problems that do not stop it
     * @param conflicts what it collides with
     * @param adoptions foreign rows the spec takes over (its row name to the foreign row), by its {@link Adoption}
     * @param health its health checks as the topology resolves them (sources and what they watch), or NONE
     */
    record Verdict(SpecStatus.State state, List<String> reasons, List<String> warnings, List<ConflictingRow> conflicts,
                   Map<String, UUID> adoptions, HealthChecks.Resolution health) {
        Verdict(SpecStatus.State state, List<String> reasons, List<String> warnings, List<ConflictingRow> conflicts) {
            this(state, reasons, warnings, conflicts, Map.of(), HealthChecks.Resolution.NONE);
        }

        boolean admitted() {
            return state == null;
        }
    }

    /** The OVN release read from a given NB_Global row (null: none, or several). */
    private record KnownRelease(Row global, Object schema, Optional<String[]> release) {
    }

    private final EipPolicy eipPolicy;
    // Every spec of a pass asks; the answer changes only with the NB_Global row or the schema.
    private volatile KnownRelease knownRelease;
    private final VipIndex vipIndex;
    private final DesiredStore.VipClaims claims;

    Admission(EipPolicy eipPolicy, VipIndex vipIndex, DesiredStore.VipClaims claims) {
        this.eipPolicy = eipPolicy;
        this.vipIndex = vipIndex;
        this.claims = claims;
    }

    /**
     * Judges one spec.
     *
     * @param owner the owner
     * @param spec the spec, already statically valid
     * @param facts what the engine derived from the spec
     * @param seq its declaration order (Long.MAX_VALUE for a dry run: as if declared now)
     * @param cache the client's cache
     * @param eip the routers' networks
     * @param activeClaim whether another spec's claim still counts (not itself in conflict or invalid)
     * @param adoption the foreign rows the spec may take over, null for none
     * @return the verdict
     */
    Verdict admit(String owner, LoadBalancerSpec spec, SpecFacts facts, long seq, RowCache cache, EipCheck eip,
                  Predicate<SpecKey> activeClaim, Adoption adoption) {
        List<String> unsupported = OvnFeatures.missing(spec, release(cache));
        HealthChecks.Resolution health = HealthChecks.Resolution.NONE;
        if (facts.checked()) {
            health = cache.read(() -> HealthChecks.resolveAll(spec, cache));
            unsupported = new ArrayList<>(unsupported);
            unsupported.addAll(health.invalid());
        }
        if (!unsupported.isEmpty()) {
            return new Verdict(SpecStatus.State.INVALID, unsupported, List.of(), List.of(), Map.of(), health);
        }
        List<String> eipProblems = eip.problems(spec);
        if (!eipProblems.isEmpty() && eipPolicy == EipPolicy.REJECT) {
            return new Verdict(SpecStatus.State.INVALID, eipProblems, List.of(), List.of());
        }
        Optional<String> skipSnat = cache.read(() -> SkipSnatRouters.problem(spec, cache));
        if (skipSnat.isPresent()) {
            return new Verdict(SpecStatus.State.INVALID, List.of(skipSnat.get()), List.of(), List.of());
        }
        List<String> warnings = new ArrayList<>(eipProblems);
        List<ConflictingRow> conflicts = new ArrayList<>();
        Map<UUID, String> notAdopted = new java.util.HashMap<>();
        Map<String, UUID> adoptions = cache.read(() -> {
            foreignNamesakes(owner, facts, cache, conflicts);
            foreignVips(owner, spec, facts, cache, conflicts, warnings);
            return adoption == null || conflicts.isEmpty() ? Map.<String, UUID>of()
                    : adoptable(owner, facts, adoption, cache, conflicts, notAdopted);
        });
        earlierClaims(owner, facts, seq, activeClaim, conflicts);
        if (!conflicts.isEmpty()) {
            // A row the adoption covers but may not take says why with its conflict, the spec's reason.
            List<String> reasons = conflicts.stream().map(c -> c.describe() + c.uuid().map(notAdopted::get)
                    .map(why -> "; not adopted: " + why).orElse("")).toList();
            return new Verdict(SpecStatus.State.CONFLICT, reasons, warnings, conflicts);
        }
        return new Verdict(null, List.of(), warnings, List.of(), adoptions, health);
    }

    /**
     * Takes out of {@code conflicts} the foreign rows the adoption covers and the spec may take
     * over in place (whole, or, when the row also serves VIPs the spec does not declare, only the
     * spec's VIPs out of it: a split): of the protocol of one of the spec's rows, which the owner
     * does not have yet, one foreign row per spec row. A covered row that fails one of these
     * stays a conflict, and {@code notAdopted} says why.
     *
     * @return the spec's row name to the row it adopts
     */
    private static Map<String, UUID> adoptable(String owner, SpecFacts facts, Adoption adoption, RowCache cache,
                                               List<ConflictingRow> conflicts, Map<UUID, String> notAdopted) {
        TableCache lbs = cache.table("Load_Balancer");
        Map<String, UUID> out = new java.util.LinkedHashMap<>();
        for (ConflictingRow c : conflicts) {
            Row row = c.uuid().flatMap(lbs::get).orElse(null);
            if (row == null || out.containsValue(row.uuid()) || notAdopted.containsKey(row.uuid()) || !adoption.covers(row)) {
                continue;
            }
            String why = null;
            DesiredRow mine = rowOf(facts, VipIndex.protocol(row));
            if (mine == null) {
                why = "its protocol is not one the spec uses";
            } else if (lbs.lookup(Planner.LB_BY_NAME, mine.rowName()).stream().anyMatch(r -> DesiredRow.ownedBy(r, owner))) {
                why = "the spec already has its row " + mine.rowName();
            } else if (out.containsKey(mine.rowName())) {
                why = "the spec's row " + mine.rowName() + " adopts " + out.get(mine.rowName()) + " already (one row each)";
            }
            // A row that also serves VIPs the spec does not declare (a shared row, such as Kube-OVN's
            // per-VPC vpc-NAME-tcp-load) is split rather than adopted: the planner moves only the
            // spec's VIPs out of it into the spec's own row, in one transaction.
            if (why == null) {
                out.put(mine.rowName(), row.uuid());
            } else {
                notAdopted.put(row.uuid(), why);
            }
        }
        conflicts.removeIf(c -> c.uuid().filter(out::containsValue).isPresent());
        return out;
    }

    private static DesiredRow rowOf(SpecFacts facts, dev.ovnj.lb.spec.Protocol protocol) {
        for (DesiredRow r : facts.rows()) {
            if (r.protocol() == protocol) {
                return r;
            }
        }
        return null;
    }

    private Optional<String[]> release(RowCache cache) {
        // Every spec asks, nearly always of the one NB_Global row already read: that is checked
        // without copying the table's rows (a single-row read never blocks).
        KnownRelease seen = knownRelease;
        if (seen != null && seen.global() != null && seen.schema() == cache.schema()) {
            Optional<TableCache> table = cache.findTable("NB_Global");
            if (table.isPresent() && table.get().size() == 1 && table.get().get(seen.global().uuid()).orElse(null) == seen.global()) {
                return seen.release();
            }
        }
        return cache.read(() -> {
            List<Row> globals = cache.findTable("NB_Global").map(TableCache::rows).orElse(List.of());
            Row global = globals.size() == 1 ? globals.get(0) : null;
            KnownRelease known = knownRelease;
            if (known != null && global != null && known.global() == global && known.schema() == cache.schema()) {
                return known.release();
            }
            Optional<String[]> rel = OvnFeatures.release(cache);
            knownRelease = new KnownRelease(global, cache.schema(), rel);
            return rel;
        });
    }

    private static void foreignNamesakes(String owner, SpecFacts facts, RowCache cache, List<ConflictingRow> out) {
        TableCache lbs = cache.table("Load_Balancer");
        for (String rowName : facts.rowNames()) {
            for (Row r : lbs.lookup(Planner.LB_BY_NAME, rowName)) {
                if (!DesiredRow.ownedBy(r, owner)) {
                    out.add(new ConflictingRow("Load_Balancer", rowName, Optional.of(r.uuid()), ownerOf(r), "", ""));
                }
            }
        }
    }

    private void foreignVips(String owner, LoadBalancerSpec spec, SpecFacts facts, RowCache cache, List<ConflictingRow> out,
                             List<String> warnings) {
        TableCache lbs = cache.table("Load_Balancer");
        Set<Attachment> mine = facts.targets();
        for (int i = 0; i < spec.vips().size(); i++) {
            VipSpec v = spec.vips().get(i);
            VipKey key = facts.vipKeys().get(i);
            String rowName = facts.rowName(v.protocol());
            for (UUID uuid : vipIndex.rows(key)) {
                Optional<Row> row = lbs.get(uuid);
                if (row.isEmpty() || DesiredRow.ownedBy(row.get(), owner) || !VipIndex.serves(row.get(), key)) {
                    continue;
                }
                Set<Attachment> shared = new LinkedHashSet<>(targetsOf(cache, uuid));
                shared.retainAll(mine);
                if (shared.isEmpty()) {
                    continue;
                }
                ConflictingRow c = new ConflictingRow("Load_Balancer", nameOf(row.get()), Optional.of(uuid), ownerOf(row.get()),
                        key.toString(), shared.iterator().next().toString());
                if (alreadyServes(owner, rowName, key, shared, cache)) {
                    // First writer keeps it: our row had this VIP there before the other one came.
                    warnings.add(c.describe() + " too; ours was there first and stays");
                } else {
                    out.add(c);
                }
            }
        }
    }

    /** Whether the owner's own row already serves the VIP on one of the shared targets. */
    private static boolean alreadyServes(String owner, String rowName, VipKey key, Set<Attachment> shared, RowCache cache) {
        for (Row r : cache.table("Load_Balancer").lookup(Planner.LB_BY_NAME, rowName)) {
            if (DesiredRow.ownedBy(r, owner) && VipIndex.serves(r, key)) {
                Set<Attachment> ours = new LinkedHashSet<>(targetsOf(cache, r.uuid()));
                ours.retainAll(shared);
                if (!ours.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    private void earlierClaims(String owner, SpecFacts facts, long seq, Predicate<SpecKey> active, List<ConflictingRow> out) {
        Set<Attachment> mine = facts.targets();
        for (VipKey key : facts.vipKeys()) {
            for (DesiredStore.VipClaims.Claim c : claims.claims(key)) {
                if (c.key().owner().equals(owner) || c.seq() < 0 || c.seq() >= seq || !active.test(c.key())) {
                    continue;
                }
                Set<Attachment> shared = new LinkedHashSet<>(c.targets());
                shared.retainAll(mine);
                boolean seenInDatabase = out.stream().anyMatch(x -> x.name().equals(c.rowName())
                        && x.owner().filter(c.key().owner()::equals).isPresent());
                if (!shared.isEmpty() && !seenInDatabase) {
                    out.add(new ConflictingRow("desired", c.rowName(), Optional.empty(), Optional.of(c.key().owner()), key.toString(),
                            shared.iterator().next().toString()));
                }
            }
        }
    }

    /** Where a load balancer serves: its routers, switches and groups, and the routers and switches of those groups. */
    static Set<Attachment> targetsOf(RowCache cache, UUID lb) {
        Set<Attachment> out = new LinkedHashSet<>();
        cache.table("Logical_Router").lookup(ROUTER_BY_LB, lb).forEach(r -> out.add(new Attachment(Target.ROUTER, nameOf(r))));
        cache.table("Logical_Switch").lookup(SWITCH_BY_LB, lb).forEach(s -> out.add(new Attachment(Target.SWITCH, nameOf(s))));
        for (Row g : cache.table("Load_Balancer_Group").lookup(GROUP_BY_LB, lb)) {
            out.add(new Attachment(Target.GROUP, nameOf(g)));
            cache.table("Logical_Router").lookup(ROUTER_BY_GROUP, g.uuid()).forEach(r -> out.add(new Attachment(Target.ROUTER, nameOf(r))));
            cache.table("Logical_Switch").lookup(SWITCH_BY_GROUP, g.uuid()).forEach(s -> out.add(new Attachment(Target.SWITCH, nameOf(s))));
        }
        return out;
    }

    static Optional<String> ownerOf(Row row) {
        return row.get("external_ids") instanceof Map<?, ?> ids && ids.get(DesiredRow.OWNER_KEY) instanceof String s
                ? Optional.of(s) : Optional.empty();
    }

    static String nameOf(Row row) {
        return row.get("name") instanceof String s ? s : "";
    }
}
