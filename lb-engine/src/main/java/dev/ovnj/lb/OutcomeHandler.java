package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what becomes of a key after work on it, and does it, in the manner of
 * controller-runtime's reconcileHandler: the deciders ({@link #afterPlan}, {@link #afterAnswer})
 * turn a plan or a transaction's answer into {@link KeyOutcome}s, and {@link #handle} turns each
 * outcome into the key's status, its callers' answers and one {@link WorkQueue} action. Inputs
 * (declarations, cache events, a resync) mark keys in the queue; after that, only {@link #handle}
 * moves a key in it. Engine thread only.
 */
final class OutcomeHandler {
    private static final Logger LOG = LoggerFactory.getLogger(OutcomeHandler.class);
    static final int MAX_WRITES_WITHOUT_CONVERGING = 20;
    /** How long a spec another writer fights over is left alone. */
    static final Duration FIGHT_BACKOFF = Duration.ofSeconds(30);
    private static final long FAILURE_LOG_EVERY_NANOS = 10_000_000_000L;

    private final WorkQueue queue;
    private final StatusBoard board;
    private final DesiredStore store;
    private final Waiters waiters;
    private final EngineCounters counters;
    private final WriteRound round;
    /** Reads a spec's backend health into its status, with each verdict. */
    private final Consumer<SpecKey> refreshHealth;
    /** Why this engine does not write an owner's specs now. */
    private final Function<String, String> standbyReason;
    private final FightDetector fights = new FightDetector();
    /** Commits in a row per key that a fresh plan did not find converged. */
    private final Map<SpecKey, Integer> unconverged = new HashMap<>();
    private String lastFailure = "";
    private long lastFailureAt;

    OutcomeHandler(WorkQueue queue, StatusBoard board, DesiredStore store, Waiters waiters, EngineCounters counters, WriteRound round,
                   Consumer<SpecKey> refreshHealth, Function<String, String> standbyReason) {
        this.queue = queue;
        this.board = board;
        this.store = store;
        this.waiters = waiters;
        this.counters = counters;
        this.round = round;
        this.refreshHealth = refreshHealth;
        this.standbyReason = standbyReason;
    }

    // ---- deciders ----

    /**
     * What a plan of one key means.
     *
     * @param result the reconciler's result for the key's desired version {@code d} (null: not declared)
     * @param groupsCreated groups a write of this pass already creates (grows with this plan's)
     * @param verifying whether this plan verifies a commit: changes then wait for the next pass
     */
    KeyOutcome afterPlan(SpecKey key, Desired d, Reconciler.Result result, long markedAt, Set<String> groupsCreated, boolean verifying) {
        if (d == null) {
            return new KeyOutcome.Undeclared(key);
        }
        if (result instanceof Reconciler.Gone) {
            return new KeyOutcome.Gone(key);
        }
        if (result instanceof Reconciler.Settled s) {
            return new KeyOutcome.Decided(key, d.generation(), s);
        }
        Reconciler.Write w = (Reconciler.Write) result;
        LoadBalancerPlan plan = withoutGroups(w.plan(), groupsCreated);
        if (plan.isEmpty()) {
            // Another spec of this pass creates the group; look again after it is written.
            return new KeyOutcome.AwaitsGroup(key, markedAt);
        }
        if (verifying) {
            return new KeyOutcome.WriteAgain(key, d.generation(), d.removed(), w.warnings(), markedAt);
        }
        SpecStatus before = board.get(key);
        boolean judged = !d.removed() && before != null && before.observedGeneration() == d.generation();
        // Drift only on what the database held as declared; a spec that waited and is written now is becoming APPLIED.
        boolean repair = judged && before.state() == SpecStatus.State.APPLIED;
        String waitedFor = judged && (before.state() == SpecStatus.State.WAITING || before.state() == SpecStatus.State.CONFLICT)
                ? before.state().name() + ": " + before.reason() : null;
        return new KeyOutcome.Write(new WriteRound.Work(key, plan, repair, waitedFor, markedAt), d.generation(), d.removed(), w.warnings());
    }

    /** What a chunk's answer means for each of its keys. */
    List<KeyOutcome> afterAnswer(List<WriteRound.Work> chunk, TransactionSender.Outcome outcome, long now) {
        List<KeyOutcome> out = new ArrayList<>(chunk.size());
        switch (outcome.kind()) {
            case COMMITTED -> chunk.forEach(w -> out.add(afterCommit(w, now)));
            case GUARD_FAILED -> {
                counters.conflicts.incrementAndGet();
                LOG.debug("another client changed load balancers while the engine wrote; re-planning {} spec(s)", chunk.size());
                chunk.forEach(w -> out.add(new KeyOutcome.GuardFailed(w.key(), w.markedAt())));
            }
            case RETRIABLE -> {
                WriteError error = outcome.writeError();
                chunk.forEach(w -> out.add(new KeyOutcome.Retry(w.key(), error, now)));
            }
            case PERMANENT -> {
                if (chunk.size() > 1) {
                    // Which spec did the server refuse? Each goes alone next, so only that one fails.
                    chunk.forEach(w -> out.add(new KeyOutcome.Split(w.key(), w.markedAt())));
                } else {
                    out.add(new KeyOutcome.Rejected(chunk.get(0).key(), outcome.writeError()));
                }
            }
            default -> throw new IllegalStateException(outcome.kind().toString());
        }
        return out;
    }

    /** A committed key: converging, written once too often, or fought over by another writer. */
    private KeyOutcome afterCommit(WriteRound.Work w, long now) {
        int writes = unconverged.merge(w.key(), 1, Integer::sum);
        if (writes > MAX_WRITES_WITHOUT_CONVERGING) {
            return new KeyOutcome.NotConverging(w.key(), writes - 1);
        }
        if (w.repair() && changedNotDeleted(w.plan()) && fights.changedBack(w.key(), now)) {
            return new KeyOutcome.Fight(w.key(), now);
        }
        return new KeyOutcome.Committed(w, now);
    }

    /** Whether a repair put back what someone changed, on rows that still existed (no row or group recreated). */
    private static boolean changedNotDeleted(LoadBalancerPlan plan) {
        return plan.changes().stream().noneMatch(c -> c instanceof PlanChange.CreateRow || c instanceof PlanChange.CreateGroup
                || c instanceof PlanChange.CreatePolicy);
    }

    private static LoadBalancerPlan withoutGroups(LoadBalancerPlan plan, Set<String> created) {
        List<PlanChange> kept = new ArrayList<>();
        for (PlanChange c : plan.changes()) {
            if (!(c instanceof PlanChange.CreateGroup g) || created.add(g.name())) {
                kept.add(c);
            }
        }
        if (kept.size() == plan.changes().size()) {
            return plan;
        }
        return new LoadBalancerPlan(plan.owner(), kept, plan.guards(), plan.pending(), plan.conflicts(), plan.applied(), plan.invalid());
    }

    // ---- the one switch ----

    /** Applies an outcome: the key's status, its callers' answers, and its one queue action. */
    void handle(KeyOutcome outcome) {
        SpecKey key = outcome.key();
        if (outcome instanceof KeyOutcome.Undeclared) {
            queue.done(key);
        } else if (outcome instanceof KeyOutcome.Gone) {
            queue.remove(key);
            queue.done(key);
            store.forget(key);
            board.remove(key);
            unconverged.remove(key);
            waiters.gone(key);
        } else if (outcome instanceof KeyOutcome.Decided d) {
            queue.done(key);
            queue.forget(key);
            unconverged.remove(key);
            refreshHealth.accept(key);
            SpecStatus before = board.get(key);
            SpecStatus now = board.decided(key, d.generation(), d.verdict());
            if (now.state() == SpecStatus.State.CONFLICT && (before == null || before.state() != SpecStatus.State.CONFLICT)) {
                LOG.warn("owner {}, spec {}: conflict: {}", key.owner(), key.spec(), String.join("; ", now.reasons()));
            }
            waiters.verdict(key, now);
        } else if (outcome instanceof KeyOutcome.Write w) {
            if (!w.removed()) {
                board.applying(key, w.generation(), w.warnings());
            }
            round.add(w.work(), queue.isSolo(key));
        } else if (outcome instanceof KeyOutcome.WriteAgain w) {
            if (!w.removed()) {
                board.applying(key, w.generation(), w.warnings());
            }
            queue.requeue(key, w.markedAt());
        } else if (outcome instanceof KeyOutcome.AwaitsGroup a) {
            queue.requeue(key, a.markedAt());
        } else if (outcome instanceof KeyOutcome.Recheck r) {
            queue.requeue(key, r.markedAt());
        } else if (outcome instanceof KeyOutcome.GuardFailed g) {
            queue.requeue(key, g.markedAt());
        } else if (outcome instanceof KeyOutcome.StandingBy) {
            queue.done(key);
            queue.forget(key);
            sayWhyNotWritten(key);
        } else if (outcome instanceof KeyOutcome.PlanningFailed p) {
            LOG.warn("planning {} failed: {}", key, p.error().toString());
            LOG.debug("planning failure", p.error());
            fail(key, new WriteError("planning failed", p.error().toString()));
            counters.retries.incrementAndGet();
            queue.retryLater(key, System.nanoTime());
        } else if (outcome instanceof KeyOutcome.Committed c) {
            queue.forget(key);
            if (c.work().repair()) {
                recordRepairs(c.work(), c.answeredAt());
            } else if (c.work().waitedFor() != null) {
                recordAwaited(c.work(), c.answeredAt());
            }
        } else if (outcome instanceof KeyOutcome.NotConverging n) {
            queue.forget(key);
            LOG.warn("owner {}, spec {}: the database did not keep what was written {} times in a row; giving up until it changes",
                    key.owner(), key.spec(), n.writes());
            fail(key, new WriteError("not converging", "the database did not keep what was written " + n.writes() + " times in a row"));
            queue.done(key);
            unconverged.remove(key);
        } else if (outcome instanceof KeyOutcome.Fight f) {
            queue.forget(key);
            fightDetected(key);
            queue.retryAfter(key, f.answeredAt(), FIGHT_BACKOFF);
        } else if (outcome instanceof KeyOutcome.Retry r) {
            counters.retries.incrementAndGet();
            Duration delay = queue.retryLater(key, r.answeredAt());
            Desired d = store.get(key);
            if (d != null && !d.removed()) {
                board.retrying(key, d.generation(), r.error(), delay);
            }
        } else if (outcome instanceof KeyOutcome.Split s) {
            queue.markSolo(key);
            queue.requeue(key, s.markedAt());
        } else if (outcome instanceof KeyOutcome.Rejected r) {
            counters.failures.incrementAndGet();
            logRejection(key, r.error());
            queue.done(key);
            queue.forget(key);
            unconverged.remove(key);
            fail(key, r.error());
        } else {
            throw new IllegalStateException(outcome.toString());
        }
    }

    /** A declaration starts the key's history over: its writes without converging and its fight are forgotten. */
    void redeclared(SpecKey key) {
        unconverged.remove(key);
        fights.forget(key);
    }

    /** A spec of an owner this engine does not write for now, not yet written: its status says why. */
    void sayWhyNotWritten(SpecKey key) {
        SpecStatus before = board.get(key);
        Desired d = store.get(key);
        if (before != null && d != null && !before.state().settled()) {
            board.standingBy(key, d.generation(), standbyReason.apply(key.owner()));
        }
    }

    private void fail(SpecKey key, WriteError error) {
        Desired d = store.get(key);
        if (d != null) {
            waiters.verdict(key, board.failed(key, d.generation(), error));
        }
    }

    private void logRejection(SpecKey key, WriteError error) {
        String text = error.describe();
        long now = System.nanoTime();
        if (!text.equals(lastFailure) || now - lastFailureAt > FAILURE_LOG_EVERY_NANOS) {
            LOG.warn("the database rejected spec {} of owner {}: {}", key.spec(), key.owner(), text);
            lastFailure = text;
            lastFailureAt = now;
        } else {
            LOG.debug("the database rejected spec {} of owner {}: {}", key.spec(), key.owner(), text);
        }
    }

    /**
     * Another writer keeps changing this spec's rows back while they carry its owner: it is in
     * CONFLICT, said once, and left alone for {@link #FIGHT_BACKOFF} instead of answering write
     * for write (a declaration of the spec looks at it again at once).
     */
    private void fightDetected(SpecKey key) {
        counters.fights.incrementAndGet();
        unconverged.remove(key);
        Desired d = store.get(key);
        SpecStatus before = board.get(key);
        String reason = "another writer changed the rows of this spec back " + FightDetector.FIGHT_REPAIRS + " times within "
                + FightDetector.WINDOW_NANOS / 1_000_000_000L + " s while they carry owner " + key.owner()
                + ": a second engine of this owner without its owner lock (ownerLocks(false), --no-owner-lock, or a lock taken"
                + " on another relay)? Not repairing it for " + FIGHT_BACKOFF.toSeconds() + " s";
        if (before == null || before.state() != SpecStatus.State.CONFLICT) {
            LOG.warn("owner {}, spec {}: {}", key.owner(), key.spec(), reason);
        }
        if (d != null) {
            ConflictingRow other = new ConflictingRow("Load_Balancer", key.spec(), Optional.empty(), Optional.of(key.owner()), "", "");
            waiters.verdict(key, board.fighting(key, d.generation(), reason, other));
        }
    }

    private void recordRepairs(WriteRound.Work w, long now) {
        Duration latency = Duration.ofNanos(now - w.markedAt());
        Map<String, List<String>> what = new LinkedHashMap<>();
        for (PlanChange c : w.plan().changes()) {
            what.computeIfAbsent(c.subject(), k -> new ArrayList<>()).add(describe(c));
        }
        List<RepairEvent> repaired = new ArrayList<>();
        what.forEach((row, changes) -> {
            repaired.add(new RepairEvent(w.key().owner(), row, String.join(", ", changes), latency));
            board.recordRepair(w.key(), latency);
        });
        counters.repairs.addAndGet(repaired.size());
        round.repaired(repaired);
    }

    private void recordAwaited(WriteRound.Work w, long now) {
        Duration latency = Duration.ofNanos(now - w.markedAt());
        Map<String, List<String>> what = new LinkedHashMap<>();
        for (PlanChange c : w.plan().changes()) {
            what.computeIfAbsent(c.subject(), k -> new ArrayList<>()).add(describe(c).replace("recreated", "created"));
        }
        List<AwaitedWriteEvent> written = new ArrayList<>();
        what.forEach((row, changes) -> written.add(new AwaitedWriteEvent(w.key().owner(), w.key().spec(), row, String.join(", ", changes),
                w.waitedFor(), latency)));
        counters.awaitedWrites.addAndGet(written.size());
        round.awaitedWritten(written);
    }

    private static String describe(PlanChange c) {
        if (c instanceof PlanChange.CreateRow) {
            return "recreated";
        } else if (c instanceof PlanChange.UpdateVips) {
            return "vips";
        } else if (c instanceof PlanChange.SetColumns s) {
            return String.join("/", s.columns().keySet());
        } else if (c instanceof PlanChange.Attach a) {
            return "attached to " + a.target().word() + " " + a.targetName();
        } else if (c instanceof PlanChange.Detach d) {
            return "detached from " + d.target().word() + " " + d.targetName();
        } else if (c instanceof PlanChange.AttachGroup g) {
            return "group attached to " + g.target().word() + " " + g.targetName();
        } else if (c instanceof PlanChange.CreateGroup) {
            return "group recreated";
        } else if (c instanceof PlanChange.CreateHealthCheck h) {
            return "health check " + h.vip() + " recreated";
        } else if (c instanceof PlanChange.UpdateHealthCheck h) {
            return "health check " + h.vip() + " options";
        } else if (c instanceof PlanChange.RemoveHealthCheck h) {
            return "health check " + h.vip() + " removed";
        } else if (c instanceof PlanChange.CreatePolicy p) {
            return "policy recreated on router " + p.routerName();
        } else if (c instanceof PlanChange.UpdatePolicy p) {
            return "policy on router " + p.routerName();
        } else if (c instanceof PlanChange.DeletePolicy p) {
            return "policy removed from router " + p.routerName();
        }
        return "deleted";
    }
}
