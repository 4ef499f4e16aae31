package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what callers declare ({@code apply}, {@code upsert}, {@code remove}, {@code declareComplete},
 * {@code releaseHeld}) and what the cache says (an event's keys, a resync) into desired versions,
 * first statuses and marked keys. Deletions pass the deletion budget here, in one place
 * ({@link #deleteOrHold}). It only marks keys in the {@link WorkQueue}; what becomes of them after
 * work is {@link OutcomeHandler}'s. Engine thread only.
 */
final class Declarations {
    private static final Logger LOG = LoggerFactory.getLogger(Declarations.class);
    /** Why rows of an owner declared only with upsert so far stay although no spec names them. */
    private static final String ORPHAN = "orphan: no spec names these rows, and the owner's desired set is not complete yet;"
            + " they are deleted once it is (apply, or declareComplete after upserting every spec) or with remove";

    private final DesiredStore store;
    private final Reconciler reconciler;
    private final WorkQueue queue;
    private final StatusBoard board;
    private final Waiters waiters;
    private final OutcomeHandler outcomes;
    private final DeletionBudget budget;
    private final EngineCounters counters;
    private final ListenerBus bus;
    /** The reason of a new PENDING status: queued, or why the database cannot be written now. */
    private final Supplier<String> pendingReason;
    private final BooleanSupplier closed;

    Declarations(DesiredStore store, Reconciler reconciler, WorkQueue queue, StatusBoard board, Waiters waiters, OutcomeHandler outcomes,
                 DeletionBudget budget, EngineCounters counters, ListenerBus bus, Supplier<String> pendingReason, BooleanSupplier closed) {
        this.store = store;
        this.reconciler = reconciler;
        this.queue = queue;
        this.board = board;
        this.waiters = waiters;
        this.outcomes = outcomes;
        this.budget = budget;
        this.counters = counters;
        this.bus = bus;
        this.pendingReason = pendingReason;
        this.closed = closed;
    }

    /** {@code apply}: the owner's whole desired set; specs it no longer names are deleted, within the budget. */
    void apply(Request req, List<LoadBalancerSpec> specs, Map<String, List<SpecError>> checked, boolean allowMassDelete,
               Adoption adoption) {
        String owner = req.owner;
        Set<String> names = new LinkedHashSet<>();
        Set<SpecKey> affected = new LinkedHashSet<>();
        for (LoadBalancerSpec s : specs) {
            if (names.add(s.name())) {
                affected.addAll(store.declare(owner, s.name(), s, checked.getOrDefault(s.name(), List.of()), adoption));
            }
        }
        Set<String> gone = new LinkedHashSet<>();
        for (String old : store.names(owner)) {
            Desired d = store.get(new SpecKey(owner, old));
            if (!names.contains(old) && d != null && (!d.removed() || d.isHeld())) {
                gone.add(old);
            }
        }
        Map<String, Integer> rows = reconciler.rowsBySpec(owner);
        gone.addAll(Reconciler.stale(rows, store.names(owner)));
        store.markComplete(owner);
        affected.addAll(deleteOrHold(owner, gone, rows, allowMassDelete));
        names.addAll(gone);
        names.forEach(n -> req.waiting.put(new SpecKey(owner, n), store.get(new SpecKey(owner, n)).generation()));
        declared(req, affected);
    }

    /**
     * The owner's desired set is complete (a controller that declares with upsert says so once its
     * informers synced): rows no spec names are deleted from now on, within the deletion budget.
     */
    void declareComplete(Request req) {
        String owner = req.owner;
        Map<String, Integer> rows = reconciler.rowsBySpec(owner);
        Set<String> gone = new LinkedHashSet<>(store.held(owner));
        gone.addAll(Reconciler.stale(rows, store.names(owner)));
        store.markComplete(owner);
        Set<SpecKey> affected = deleteOrHold(owner, gone, rows, false);
        store.names(owner).forEach(n -> req.waiting.put(new SpecKey(owner, n), store.get(new SpecKey(owner, n)).generation()));
        declared(req, affected);
    }

    /** Deletes the rows of every spec whose deletion is held now. */
    void releaseHeld(Request req) {
        String owner = req.owner;
        Set<SpecKey> affected = new LinkedHashSet<>();
        List<String> held = store.held(owner);
        for (String name : held) {
            affected.addAll(store.declare(owner, name, null, List.of()));
            SpecKey key = new SpecKey(owner, name);
            req.waiting.put(key, store.get(key).generation());
        }
        if (!affected.isEmpty()) {
            LOG.info("owner {}: held deletions of {} spec(s) released", owner, held.size());
        }
        declared(req, affected);
    }

    /**
     * Declares the removal of the specs in {@code gone}, or holds it when it would delete more of
     * the owner's rows than the deletion budget allows.
     */
    private Set<SpecKey> deleteOrHold(String owner, Set<String> gone, Map<String, Integer> rows, boolean allowMassDelete) {
        Set<SpecKey> affected = new LinkedHashSet<>();
        if (gone.isEmpty()) {
            return affected;
        }
        int owned = rows.values().stream().mapToInt(Integer::intValue).sum();
        int deleting = gone.stream().mapToInt(n -> rows.getOrDefault(n, 0)).sum();
        if (allowMassDelete || !budget.exceededBy(deleting, owned)) {
            gone.forEach(n -> affected.addAll(store.declare(owner, n, null, List.of())));
            return affected;
        }
        String reason = Reconciler.heldReason(deleting, owned, budget);
        gone.forEach(n -> affected.addAll(store.hold(owner, n, reason)));
        counters.heldDeletions.addAndGet(gone.size());
        LOG.warn("owner {}: deletion of {} spec(s) ({} of {} rows) held: more than the deletion budget allows ({})", owner, gone.size(),
                deleting, owned, budget.describe());
        List<String> held = List.copyOf(gone);
        bus.publish(ListenerBus.Event.HELD, l -> l.onDeletionsHeld(owner, held, reason));
        return affected;
    }

    /**
     * {@code upsert}: one spec; a first declaration holds the owner's rows no spec names (orphans).
     * Unless {@code keepDeclared}, a failure of the request withdraws the declaration again
     * ({@link #withdraw}).
     */
    void upsert(Request req, LoadBalancerSpec spec, Adoption adoption, boolean keepDeclared) {
        String owner = req.owner;
        boolean firstDeclaration = !store.owners().contains(owner);
        List<SpecError> duplicates = duplicateVips(owner, spec);
        if (!duplicates.isEmpty()) {
            waiters.failNow(req, new InvalidSpecException(duplicates));
            return;
        }
        SpecKey key = new SpecKey(owner, spec.name());
        Desired previous = store.get(key);
        Set<SpecKey> affected = store.declare(owner, spec.name(), spec, List.of(), adoption);
        long generation = store.get(key).generation();
        req.waiting.put(key, generation);
        if (!keepDeclared) {
            req.withdrawOnFailure = () -> withdraw(key, generation, previous);
        }
        if (firstDeclaration && !store.isComplete(owner)) {
            for (String orphan : reconciler.staleSpecs(owner, store.names(owner))) {
                affected.addAll(store.hold(owner, orphan, ORPHAN));
            }
        }
        declared(req, affected);
    }

    /**
     * {@code remove}: one spec's rows go. A name that is neither declared nor of a row the owner
     * has fails the request with {@link UnknownSpecException}, when the cache can tell
     * ({@code synced}; before the first sync the removal is declared and waits, as any request).
     */
    void remove(Request req, String name, boolean synced) {
        String owner = req.owner;
        SpecKey key = new SpecKey(owner, name);
        if (synced && store.get(key) == null && !reconciler.rowsBySpec(owner).containsKey(name)) {
            waiters.failNow(req, new UnknownSpecException(owner, name));
            return;
        }
        Set<SpecKey> affected = store.declare(owner, name, null, List.of());
        req.waiting.put(key, store.get(key).generation());
        declared(req, affected);
    }

    /** The request's keys get their first status and are queued; the other keys the declaration affects are marked. */
    private void declared(Request req, Set<SpecKey> affected) {
        long now = System.nanoTime();
        req.keys = List.copyOf(req.waiting.keySet());
        for (SpecKey key : List.copyOf(req.waiting.keySet())) {
            Desired d = store.get(key);
            if (d.invalid()) {
                SpecStatus s = board.invalid(key, d.generation(), d.errors().stream().map(e -> e.field() + ": " + e.message()).toList());
                queue.remove(key);
                waiters.verdict(key, s);
                req.waiting.remove(key);
                continue;
            }
            if (d.isHeld()) {
                // A verdict at once: nothing is written for it. The pass looks up its rows.
                SpecStatus s = board.held(key, d.generation(), d.held());
                waiters.verdict(key, s);
                req.waiting.remove(key);
                queue.add(key, now, true);
                continue;
            }
            if (!d.removed()) {
                board.pending(key, d.generation(), pendingReason.get());
            } else if (board.get(key) != null) {
                board.deleting(key, d.generation());
            }
            outcomes.redeclared(key);
            queue.forget(key);
            queue.add(key, now, true);
            waiters.await(req, key);
        }
        for (SpecKey key : affected) {
            if (!req.waiting.containsKey(key)) {
                mark(key, now, true);
            }
        }
        if (req.waiting.isEmpty() && !req.answered()) {
            waiters.complete(req);
        }
    }

    /**
     * A failed {@code upsert} leaves the engine as before the call: its declaration (generation
     * {@code generation}) gives way to the one before it, or to none, in which case whatever the
     * declaration may have written meanwhile (a write in flight when its deadline expired) is
     * deleted. Nothing happens if the spec was declared again since: that declaration stands.
     */
    void withdraw(SpecKey key, long generation, Desired previous) {
        Desired now = store.get(key);
        if (now == null || now.generation() != generation || closed.getAsBoolean()) {
            return;
        }
        String owner = key.owner();
        Set<SpecKey> affected;
        if (previous == null || previous.removed() && !previous.isHeld()) {
            affected = store.declare(owner, key.spec(), null, List.of());
        } else if (previous.isHeld()) {
            affected = store.hold(owner, key.spec(), previous.held());
        } else {
            affected = store.declare(owner, key.spec(), previous.spec(), previous.errors(), previous.adoption());
        }
        LOG.info("owner {}, spec {}: the upsert failed; its declaration is withdrawn ({})", owner, key.spec(),
                previous == null || previous.removed() && !previous.isHeld() ? "nothing is declared under this name" : "the previous one stands");
        long t = System.nanoTime();
        Desired d = store.get(key);
        outcomes.redeclared(key);
        queue.forget(key);
        if (d.invalid()) {
            board.invalid(key, d.generation(), d.errors().stream().map(e -> e.field() + ": " + e.message()).toList());
            queue.remove(key);
        } else {
            if (d.isHeld()) {
                board.held(key, d.generation(), d.held());
            } else if (!d.removed()) {
                board.pending(key, d.generation(), pendingReason.get());
            } else if (board.get(key) != null) {
                board.deleting(key, d.generation());
            }
            queue.add(key, t, true);
        }
        for (SpecKey k : affected) {
            if (!k.equals(key)) {
                mark(k, t, true);
            }
        }
    }

    private List<SpecError> duplicateVips(String owner, LoadBalancerSpec spec) {
        List<SpecError> out = new ArrayList<>();
        for (int i = 0; i < spec.vips().size(); i++) {
            VipSpec v = spec.vips().get(i);
            VipKey k = VipKey.of(v.protocol(), v.vip());
            for (DesiredStore.VipClaims.Claim c : store.claims().claims(k)) {
                if (c.key().owner().equals(owner) && !c.key().spec().equals(spec.name()) && c.seq() >= 0) {
                    out.add(new SpecError(owner, spec.name(), "vips[" + i + "].vip",
                            v.protocol().wireValue() + " " + v.vip() + " is already used by spec " + c.key().spec() + " of this owner"));
                }
            }
        }
        return out;
    }

    /** Marks a key that an event concerns; a row of an owner declared in full that no spec names is deleted. */
    void mark(SpecKey key, long seen, boolean urgent) {
        Desired d = store.get(key);
        if (d == null) {
            if (closed.getAsBoolean() || !store.owners().contains(key.owner())) {
                return;
            }
            if (store.isComplete(key.owner())) {
                store.declare(key.owner(), key.spec(), null, List.of());
            } else {
                store.hold(key.owner(), key.spec(), ORPHAN);
            }
        } else if (d.invalid()) {
            return;
        }
        queue.add(key, seen, urgent);
    }

    /** After a resync or gaining the lock: every spec is checked again, and full owners are swept. */
    void recheckAll(long now) {
        for (String owner : List.copyOf(store.owners())) {
            recheck(owner, now);
        }
    }

    /** Every spec of one owner is checked again; rows no spec names are deleted (within the budget) or held. */
    void recheck(String owner, long now) {
        Map<String, Integer> rows = reconciler.rowsBySpec(owner);
        Set<String> stale = Reconciler.stale(rows, store.names(owner));
        if (store.isComplete(owner)) {
            deleteOrHold(owner, stale, rows, false);
        } else {
            stale.forEach(n -> store.hold(owner, n, ORPHAN));
        }
        for (String name : List.copyOf(store.names(owner))) {
            SpecKey k = new SpecKey(owner, name);
            if (!store.get(k).invalid()) {
                queue.forget(k);
                queue.add(k, now, true);
            }
        }
    }
}
