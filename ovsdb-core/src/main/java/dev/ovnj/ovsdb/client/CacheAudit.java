package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Select;
import dev.ovnj.ovsdb.tx.Transaction;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, every period (jittered by a quarter either way), that the cache equals the server's
 * data for the monitored tables and columns, and resyncs the cache when it does not: a bug that
 * loses or garbles an update (in the client, the server or anything between) is caught within a
 * period instead of living on until the next reconnect.
 *
 * <p>Cost: one read-only {@code transact} per audit, one {@code select} of only the monitored
 * columns per monitored table (per clause for a table monitored with conditions, because a
 * monitor's clauses are a disjunction and a {@code select}'s a conjunction).
 *
 * <p>Ordering: the reply is compared on the callback thread, queued behind every update the
 * server sent before it ({@link WriteConfirmation}, as for read-your-writes), so the cache is
 * compared at the same point of the update stream as the server's answer and concurrent writers
 * cause no false divergence. An audit whose session ended or whose monitor conditions changed
 * before the comparison is discarded. A divergence is acted upon only when a second audit, run at
 * once, finds the same rows divergent: a one-off disagreement (a server that ordered an update
 * after the reply) then passes without a resync.
 *
 * <p>On a confirmed divergence it counts it, logs one line naming each divergent table with its
 * counts, forgets the resume point and drops the connection, so that the next connection's
 * {@code monitor_cond_since} answers {@code found=false} and replaces the whole cache (listeners
 * receive the corrections as events; transactions in flight fail as retriable, as on any
 * disconnect).
 *
 * <p>Threads: the timer fires on the control event loop and only hands over to the callback
 * thread; the request is sent from there and compared there. Nothing blocks.
 */
final class CacheAudit {
    private static final Logger LOG = LoggerFactory.getLogger(CacheAudit.class);

    private final ClientOptions options;
    private final EventLoop timer;
    private final CallbackThread callbacks;
    private final CacheFeed feed;
    private final MonitorRegistry monitors;
    private final Supplier<Session> current;
    private final AtomicLong audits = new AtomicLong();
    private final AtomicLong divergences = new AtomicLong();
    private final AtomicLong suspicions = new AtomicLong();
    private volatile boolean closed;

    CacheAudit(ClientOptions options, EventLoop timer, CallbackThread callbacks, CacheFeed feed, MonitorRegistry monitors,
               Supplier<Session> current) {
        this.options = options;
        this.timer = timer;
        this.callbacks = callbacks;
        this.feed = feed;
        this.monitors = monitors;
        this.current = current;
    }

    /** Schedules the first audit, unless audits are disabled ({@link Duration#ZERO}). */
    void start() {
        scheduleNext();
    }

    void close() {
        closed = true;
    }

    /** Audits whose comparison ran (discarded ones excluded). */
    long audits() {
        return audits.get();
    }

    /** Confirmed divergences, each healed by a resync. */
    long divergences() {
        return divergences.get();
    }

    /** First audits that found a divergence, confirmed or not; for tests of the ordering. */
    long suspicions() {
        return suspicions.get();
    }

    private void scheduleNext() {
        Duration period = options.cacheAudit();
        if (closed || period.isZero()) {
            return;
        }
        long millis = period.toMillis();
        long jittered = millis - millis / 4 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
        try {
            timer.schedule(() -> callbacks.execute(this::tick), jittered, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // The client is closing: no more audits.
        }
    }

    /** One audit, and its confirmation when it finds a divergence (callback thread). */
    private void tick() {
        Session s = current.get();
        if (closed || s == null || !s.synced || !s.isOpen()) {
            scheduleNext();
            return;
        }
        CompletableFuture<Divergence> audited;
        try {
            audited = audit(s);
        } catch (RuntimeException e) {
            // A request that cannot even be built must not end the audits for good.
            LOG.debug("cache audit on {} could not start: {}", s.remote, e.getMessage());
            scheduleNext();
            return;
        }
        audited.thenCompose(first -> {
                    if (first.isEmpty()) {
                        return CompletableFuture.completedFuture(first);
                    }
                    suspicions.incrementAndGet();
                    return audit(s).thenApply(second -> second.confirming(first));
                })
                .whenComplete((found, error) -> {
                    if (error != null) {
                        LOG.debug("cache audit on {} did not complete: {}", s.remote, CallbackThread.unwrap(error).getMessage());
                    } else if (!found.isEmpty() && current.get() == s && s.isOpen()) {
                        divergences.incrementAndGet();
                        LOG.warn("cache audit: the cache of {} differs from {} in {}; resyncing", options.database(), s.remote, found);
                        feed.forget();
                        s.close();
                    }
                    scheduleNext();
                });
    }

    /**
     * Selects the monitored rows and compares them with the cache.
     *
     * @return completes on the callback thread with what differs, empty when equal; fails when the
     *     audit was discarded or its request failed
     */
    private CompletableFuture<Divergence> audit(Session s) {
        MonitorRequest request = monitors.mainRequest();
        DatabaseSchema schema = s.schema;
        List<TableMonitor> tables = request.resolve(schema);
        Transaction.Builder tx = Transaction.builder(schema);
        List<String> selected = new ArrayList<>();
        for (TableMonitor t : tables) {
            for (Select select : selects(t, schema.table(t.table()))) {
                tx.add(select);
                selected.add(t.table());
            }
        }
        CompletableFuture<Divergence> done = new CompletableFuture<>();
        s.rpc.call("transact", tx.build().sharedParams(), options.requestTimeout()).whenComplete((reply, error) -> {
            if (error != null) {
                callbacks.complete(done, null, error);
                return;
            }
            // Queued behind every update read before the reply, like a transaction's completion.
            s.confirmation.afterReply().whenComplete((ok, lost) -> callbacks.execute(() -> {
                try {
                    if (lost != null) {
                        throw new IllegalStateException("the connection ended before the audit was confirmed", lost);
                    }
                    if (current.get() != s || !s.isOpen() || monitors.mainRequest() != request || feed.cache().schema() != schema) {
                        throw new IllegalStateException("the session or its monitor changed during the audit");
                    }
                    done.complete(compare(schema, tables, selected, (ArrayNode) reply));
                    audits.incrementAndGet();
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            }));
        });
        return done;
    }

    /**
     * The selects that return what a table's monitor replicates: its columns, and its rows, one
     * select per clause of a conditional monitor (none for a monitor of no rows).
     */
    private static List<Select> selects(TableMonitor t, TableSchema table) {
        String[] columns = columns(t, table).toArray(String[]::new);
        Select all = Operations.select(t.table()).columns(columns);
        if (t.where().isEmpty() || t.where().contains(Condition.Literal.TRUE)) {
            return List.of(all);
        }
        List<Select> out = new ArrayList<>();
        for (Condition c : t.where()) {
            if (c instanceof Condition.Comparison) {
                out.add(all.where(c));
            }
        }
        return out;
    }

    /** {@code _uuid} and the columns a table's monitor replicates. */
    private static List<String> columns(TableMonitor t, TableSchema table) {
        List<String> out = new ArrayList<>();
        out.add("_uuid");
        if (t.columns().isEmpty()) {
            table.columns().stream().filter(c -> !c.isImplicit()).map(ColumnSchema::name).forEach(out::add);
        } else {
            out.addAll(t.columns());
        }
        return out;
    }

    /** Compares the selected rows with the cache (callback thread, the cache's only writer). */
    private Divergence compare(DatabaseSchema schema, List<TableMonitor> tables, List<String> selected, ArrayNode reply) {
        Map<String, Map<UUID, ObjectNode>> server = new LinkedHashMap<>();
        for (int i = 0; i < selected.size(); i++) {
            JsonNode result = reply.get(i);
            if (result == null || result.has("error") || !result.path("rows").isArray()) {
                throw new IllegalStateException("select of " + selected.get(i) + " failed: " + CacheFeed.abbreviate(result));
            }
            Map<UUID, ObjectNode> rows = server.computeIfAbsent(selected.get(i), k -> new HashMap<>());
            for (JsonNode row : result.get("rows")) {
                rows.put(UUID.fromString(row.path("_uuid").path(1).asText()), (ObjectNode) row);
            }
        }
        RowCache cache = feed.cache();
        Divergence found = new Divergence();
        for (TableMonitor t : tables) {
            TableSchema table = schema.table(t.table());
            Map<UUID, ObjectNode> expected = server.getOrDefault(t.table(), Map.of());
            TableCache cached = cache.findTable(t.table()).orElse(null);
            if (cached == null) {
                expected.keySet().forEach(id -> found.add(t.table(), id, Kind.MISSING));
                continue;
            }
            int[] compared = columns(t, table).stream().skip(1).mapToInt(table::columnIndex).toArray();
            for (Map.Entry<UUID, ObjectNode> e : expected.entrySet()) {
                Row mine = cached.get(e.getKey()).orElse(null);
                if (mine == null) {
                    found.add(t.table(), e.getKey(), Kind.MISSING);
                } else if (!sameColumns(mine, Row.fromJson(table, e.getKey(), e.getValue()), compared)) {
                    found.add(t.table(), e.getKey(), Kind.CHANGED);
                }
            }
            for (Row mine : cached.rows()) {
                if (!expected.containsKey(mine.uuid())) {
                    found.add(t.table(), mine.uuid(), Kind.EXTRA);
                }
            }
        }
        return found;
    }

    private static boolean sameColumns(Row a, Row b, int[] columns) {
        for (int i : columns) {
            if (!Objects.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** How a row differs: changed in the cache, missing from it, or in it but not on the server. */
    enum Kind {
        CHANGED, MISSING, EXTRA
    }

    /** The divergent rows of one audit, by table. */
    static final class Divergence {
        private final Map<String, Map<UUID, Kind>> rows = new LinkedHashMap<>();

        void add(String table, UUID uuid, Kind kind) {
            rows.computeIfAbsent(table, k -> new LinkedHashMap<>()).put(uuid, kind);
        }

        boolean isEmpty() {
            return rows.isEmpty();
        }

        /** The rows of this audit that the earlier one found divergent too, as this one found them. */
        Divergence confirming(Divergence earlier) {
            Divergence both = new Divergence();
            rows.forEach((table, kinds) -> kinds.forEach((uuid, kind) -> {
                if (earlier.rows.getOrDefault(table, Map.of()).containsKey(uuid)) {
                    both.add(table, uuid, kind);
                }
            }));
            return both;
        }

        /** E.g. {@code Logical_Switch (1 changed, 1 missing, 0 extra rows)}. */
        @Override
        public String toString() {
            return rows.entrySet().stream().map(e -> {
                Map<Kind, Long> counts = e.getValue().values().stream().collect(Collectors.groupingBy(k -> k, Collectors.counting()));
                return e.getKey() + " (" + counts.getOrDefault(Kind.CHANGED, 0L) + " changed, " + counts.getOrDefault(Kind.MISSING, 0L)
                        + " missing, " + counts.getOrDefault(Kind.EXTRA, 0L) + " extra rows)";
            }).collect(Collectors.joining(", "));
        }
    }
}
