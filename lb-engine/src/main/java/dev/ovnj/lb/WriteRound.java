package dev.ovnj.lb;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.internal.PlanTransactions;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Transaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactions of one pass and their answers. A pass's writes go out one transaction's worth
 * per owner at a time: a chunk leaves as soon as it is full, so the server starts on the first
 * while the rest of a large pass is still being planned (a mass repair of 10,000 rows otherwise
 * kept the server idle for the whole plan). While any transaction is in flight no new pass
 * starts, so work marked meanwhile goes out together in the next round. The round's repairs are
 * reported once its last transaction is answered. Engine thread only, except where said.
 */
final class WriteRound {
    private static final Logger LOG = LoggerFactory.getLogger(WriteRound.class);
    private static final int MASS_REPAIR_ROWS = 10;

    /**
     * One spec's plan to write, and when the change that needs it was first seen.
     *
     * @param repair whether it writes back drift on an APPLIED spec
     * @param waitedFor the state and reason of a spec that waited (WAITING, CONFLICT) and is written
     *     now that what it waited for changed; null otherwise
     */
    record Work(SpecKey key, LoadBalancerPlan plan, boolean repair, String waitedFor, long markedAt) {
        Work(SpecKey key, LoadBalancerPlan plan, boolean repair, long markedAt) {
            this(key, plan, repair, null, markedAt);
        }
    }

    /** Where a chunk's answer goes: on the engine thread. */
    interface Answers {
        /**
         * Queues the answer of a chunk as an engine step; called on the client's callback thread.
         *
         * @return false if the engine is closed
         */
        boolean answered(List<Work> chunk, TransactionSender.Outcome outcome);

        /** The client refused to build a chunk's transactions: answered at once, on the engine thread. */
        void refused(List<Work> chunk, TransactionSender.Outcome outcome);
    }

    private final OvsdbClient client;
    private final int maxOps;
    private final TransactionSender sender;
    private final ListenerBus bus;
    private final Answers answers;
    /** Per owner, the chunk being filled. */
    private final Map<String, Chunk> open = new LinkedHashMap<>();
    /** Repairs of the round in flight, reported when its last transaction is answered. */
    private final List<RepairEvent> unreported = new ArrayList<>();
    /** Writes after waiting of the round in flight, reported with the repairs. */
    private final List<AwaitedWriteEvent> unreportedAwaited = new ArrayList<>();
    private int inFlight;
    /** {@code inFlight > 0}, for the client's callback thread (see {@link CallbackInbox}). */
    private volatile boolean awaiting;

    WriteRound(OvsdbClient client, int maxOps, TransactionSender sender, ListenerBus bus, Answers answers) {
        this.client = client;
        this.maxOps = maxOps;
        this.sender = sender;
        this.bus = bus;
        this.answers = answers;
    }

    /** Works for one transaction and their planned changes. */
    private static final class Chunk {
        List<Work> works = new ArrayList<>();
        int ops;
    }

    /** Whether transactions of the round are unanswered (no pass starts meanwhile). */
    boolean inFlight() {
        return inFlight > 0;
    }

    /** Any thread: whether answers are awaited (a moment late at worst, either way). */
    boolean awaitingAnswers() {
        return awaiting;
    }

    /** Adds a spec's plan; a solo one (to tell which spec a rejection belongs to) goes alone. */
    void add(Work w, boolean solo) {
        if (solo) {
            send(List.of(w));
            return;
        }
        Chunk chunk = open.computeIfAbsent(w.key().owner(), o -> new Chunk());
        int size = w.plan().changes().size();
        if (!chunk.works.isEmpty() && chunk.ops + size > maxOps) {
            send(chunk.works);
            chunk.works = new ArrayList<>();
            chunk.ops = 0;
        }
        chunk.works.add(w);
        chunk.ops += size;
    }

    /** Sends what is left once the pass is planned (a chunk holds at least one work). */
    void flush() {
        open.values().forEach(chunk -> send(chunk.works));
        open.clear();
    }

    private void send(List<Work> chunk) {
        List<Transaction> txs;
        try {
            LoadBalancerPlan merged = Reconciler.merge(chunk.get(0).key().owner(), chunk.stream().map(Work::plan).toList());
            txs = PlanTransactions.build(merged, client.schema(), maxOps);
        } catch (RuntimeException e) {
            // The client refused to build it (e.g. a value the server's schema does not allow).
            inFlight++;
            awaiting = true;
            answers.refused(chunk, new TransactionSender.Outcome(TransactionSender.Kind.PERMANENT, e));
            return;
        }
        inFlight++;
        awaiting = true;
        sender.send(txs).whenComplete((outcome, err) -> {
            TransactionSender.Outcome o = outcome != null ? outcome : new TransactionSender.Outcome(TransactionSender.Kind.RETRIABLE, err);
            if (!answers.answered(chunk, o)) {
                LOG.debug("transaction answered after close");
            }
        });
    }

    /**
     * A chunk's answer was handled.
     *
     * @return true when it was the round's last: its repairs are reported and a pass may start
     */
    boolean answered() {
        inFlight--;
        if (inFlight > 0) {
            return false;
        }
        awaiting = false;
        reportRepairs();
        reportAwaited();
        return true;
    }

    /** Repairs committed by the round, reported with its last answer. */
    void repaired(List<RepairEvent> events) {
        unreported.addAll(events);
    }

    /** Writes after waiting committed by the round, reported with its last answer. */
    void awaitedWritten(List<AwaitedWriteEvent> events) {
        unreportedAwaited.addAll(events);
    }

    /** Reports a round's writes after waiting apart from its repairs: one log line per row, or one for many. */
    private void reportAwaited() {
        if (unreportedAwaited.isEmpty()) {
            return;
        }
        List<AwaitedWriteEvent> events = List.copyOf(unreportedAwaited);
        unreportedAwaited.clear();
        bus.publish(ListenerBus.Event.AWAITED_WRITES, l -> l.onAwaitedWrites(events));
        if (events.size() > MASS_REPAIR_ROWS) {
            LOG.info("wrote {} rows whose specs waited, now that what they waited for changed", events.size());
            events.forEach(e -> LOG.debug("wrote {} ({}) after waiting ({})", e.row(), e.what(), e.waitedFor()));
        } else {
            events.forEach(e -> LOG.info("wrote {} ({}) after waiting ({})", e.row(), e.what(), e.waitedFor()));
        }
    }

    /**
     * Reports a round's repairs once all of its transactions are answered: a mass repair (a garbage
     * collection deleting every row, say) is one log line and one listener event, not one per
     * transaction or per row.
     */
    private void reportRepairs() {
        if (unreported.isEmpty()) {
            return;
        }
        List<RepairEvent> events = List.copyOf(unreported);
        unreported.clear();
        bus.publish(ListenerBus.Event.REPAIRS, l -> l.onRepairs(events));
        if (events.size() > MASS_REPAIR_ROWS) {
            long slowest = events.stream().mapToLong(e -> e.latency().toNanos()).max().orElse(0);
            LOG.info("repaired {} rows in {} ms", events.size(), String.format(Locale.ROOT, "%.1f", slowest / 1e6));
            events.forEach(e -> LOG.debug("repaired {} ({})", e.row(), e.what()));
        } else {
            events.forEach(e -> LOG.info("repaired {} ({}) in {} ms", e.row(), e.what(),
                    String.format(Locale.ROOT, "%.1f", e.latency().toNanos() / 1e6)));
        }
    }
}
