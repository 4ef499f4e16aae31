package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorMethod;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.RowUpdate;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p>Cost: one short-lived monitor per audit, with the main monitor's tables, columns and
 * conditions ({@code monitor_cond}, or {@code monitor} on a server without it), cancelled as soon
 * as its initial contents arrived. The server composes those contents as for a client's initial
 * sync, and tracks changes for that monitor only until the cancel.
 *
 * <p>Ordering: {@code ovsdb-server} composes a monitor's initial contents from the database as it
 * is when the request is processed and sends the reply at once, after every update already due
 * on the connection (a relay from its own replica, the one its updates come from). The reply is
 * compared on the callback thread, queued behind every update read before it
 * ({@link WriteConfirmation}, as for read-your-writes), so the cache is compared at the same point
 * of the update stream as the server's answer. An audit whose session ended or whose monitor
 * conditions changed before the comparison is discarded. Under a writer committing as fast as it
 * can, a first audit still rarely sees one row the answer does not (1 or 2 of 100 audits in
 * {@code CacheAuditIT}; always a row in the cache but not in the answer), so a divergence is acted
 * upon only when a second audit, a second later, finds the same rows divergent.
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
    /**
     * How long a suspicion waits for its confirming audit. Run at once, a relay under a busy
     * writer confirmed rows whose updates it had not yet sent (CacheAuditIT, once in CI): a server
     * may hold a connection's monitor updates back while its send backlog is high, and the
     * audit's reply does not wait for them. A second later they have arrived; a real divergence
     * has not gone away.
     */
    private static final Duration CONFIRMATION_DELAY = Duration.ofSeconds(1);

    private final ClientOptions options;
    private final EventLoop timer;
    private final CallbackThread callbacks;
    private final CacheFeed feed;
    private final MonitorRegistry monitors;
    private final Supplier<Session> current;
    private final AtomicLong audits = new AtomicLong();
    private final AtomicLong divergences = new AtomicLong();
    private final AtomicLong suspicions = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();
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

    /**
     * Completes on the callback thread after {@code delay}, or fails when the client is closing.
     *
     * @param delay how long to wait
     * @return the future
     */
    private CompletableFuture<Void> after(Duration delay) {
        CompletableFuture<Void> later = new CompletableFuture<>();
        try {
            timer.schedule(() -> callbacks.execute(() -> later.complete(null)), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            later.completeExceptionally(closing);
        }
        return later;
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
                    return after(CONFIRMATION_DELAY).thenCompose(x -> audit(s)).thenApply(second -> second.confirming(first));
                })
                .whenComplete((found, error) -> {
                    if (error != null) {
                        LOG.debug("cache audit on {} did not complete: {}", s.remote, Futures.unwrap(error).getMessage());
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
     * Opens a monitor like the main one, compares its initial contents with the cache, and
     * cancels it.
     *
     * @return completes on the callback thread with what differs, empty when equal; fails when the
     *     audit was discarded or its request failed
     */
    private CompletableFuture<Divergence> audit(Session s) {
        MonitorRequest request = monitors.mainRequest();
        DatabaseSchema schema = s.schema;
        List<TableMonitor> tables = request.resolve(schema);
        boolean conditional = s.monitorMethod != MonitorMethod.MONITOR;
        JsonNode id = JsonNodeFactory.instance.textNode("ovnj-audit-" + ids.incrementAndGet());
        CompletableFuture<Divergence> done = new CompletableFuture<>();
        s.call(conditional ? "monitor_cond" : "monitor", options.requestTimeout(), options.database(), id,
                request.toJson(schema, conditional)).whenComplete((reply, error) -> {
                    if (error != null) {
                        callbacks.complete(done, null, error);
                        return;
                    }
                    cancel(s, id);
                    // Queued behind every update read before the reply, like a transaction's completion.
                    s.confirmation.afterReply().whenComplete((ok, lost) -> callbacks.execute(() -> {
                        try {
                            if (lost != null) {
                                throw new IllegalStateException("the connection ended before the audit was confirmed", lost);
                            }
                            // The same open session means the same schema: its initial sync either replaced
                            // the cache with that schema or resumed one of an equal schema.
                            if (current.get() != s || !s.isOpen() || monitors.mainRequest() != request) {
                                throw new IllegalStateException("the session or its monitor changed during the audit");
                            }
                            UpdateBatch contents = conditional ? UpdateBatch.fromUpdates2(reply, Optional.empty())
                                    : UpdateBatch.fromUpdates(reply, true);
                            done.complete(compare(schema, tables, contents));
                            audits.incrementAndGet();
                        } catch (RuntimeException e) {
                            done.completeExceptionally(e);
                        }
                    }));
                });
        return done;
    }

    /** Ends the audit's monitor; the updates it may get meanwhile are ignored, its id being no one's. */
    private void cancel(Session s, JsonNode id) {
        if (s.isOpen()) {
            s.call("monitor_cancel", options.requestTimeout(), id).whenComplete((r, e) -> {
                if (e != null) {
                    LOG.debug("monitor_cancel of {} on {} failed: {}", id, s.remote, Futures.unwrap(e).getMessage());
                }
            });
        }
    }

    /** The columns a table's monitor replicates, but {@code _uuid} and {@code _version}. */
    private static List<String> columns(TableMonitor t, TableSchema table) {
        List<String> out = new ArrayList<>();
        if (t.columns().isEmpty()) {
            table.columns().stream().filter(c -> !c.isImplicit()).map(ColumnSchema::name).forEach(out::add);
        } else {
            out.addAll(t.columns());
        }
        return out;
    }

    /** Compares the audit monitor's contents with the cache (callback thread, the cache's only writer). */
    private Divergence compare(DatabaseSchema schema, List<TableMonitor> tables, UpdateBatch contents) {
        Map<String, Map<UUID, ObjectNode>> server = new LinkedHashMap<>();
        for (RowUpdate u : contents.updates()) {
            if (u.row() != null) {
                server.computeIfAbsent(u.table(), k -> new HashMap<>()).put(u.uuid(), u.row());
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
            int[] compared = columns(t, table).stream().mapToInt(table::columnIndex).toArray();
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
