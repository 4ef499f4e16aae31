package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.TableSchema;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Everything the server knows, confined to its one event-loop thread: the databases (including
 * {@code _Server}), the sessions, locks, transactions blocked in a {@code wait}, and the fault
 * switches.
 */
final class ServerState {
    /** A transaction waiting for its "wait" operations to be satisfied. */
    private final class Trigger {
        final ConnectionHandler session;
        final JsonNode id;
        final ArrayNode params;
        final Database db;
        final long created = System.nanoTime();
        ScheduledFuture<?> timeout;

        Trigger(ConnectionHandler session, JsonNode id, ArrayNode params, Database db) {
            this.session = session;
            this.id = id;
            this.params = params;
            this.db = db;
        }
    }

    private final EventLoop loop;
    private final Map<String, Database> databases = new LinkedHashMap<>();
    private final Database server;
    private final Set<ConnectionHandler> sessions = new LinkedHashSet<>();
    private final Locks locks = new Locks();
    private final List<Trigger> triggers = new ArrayList<>();
    private final UUID serverId = UUID.randomUUID();
    private final UUID clusterId = UUID.randomUUID();
    private final boolean history;
    private volatile boolean readOnly;
    private volatile boolean follower;
    private volatile long delayMillis;
    private volatile boolean paused;

    ServerState(EventLoop loop, List<Database> dbs, Database serverDb, boolean history) {
        this.loop = loop;
        this.history = history;
        dbs.forEach(d -> databases.put(d.name(), d));
        this.server = serverDb;
        databases.put(serverDb.name(), serverDb);
        refreshServerRows();
    }

    EventLoop loop() {
        return loop;
    }

    Map<String, Database> databases() {
        return databases;
    }

    UUID serverId() {
        return serverId;
    }

    Locks locks() {
        return locks;
    }

    boolean history() {
        return history;
    }

    boolean readOnly() {
        return readOnly;
    }

    long delayMillis() {
        return delayMillis;
    }

    void delayMillis(long ms) {
        delayMillis = ms;
    }

    boolean paused() {
        return paused;
    }

    void paused(boolean value) {
        paused = value;
    }

    void readOnly(boolean value) {
        readOnly = value;
    }

    void follower(boolean value) {
        follower = value;
        refreshServerRows();
    }

    void sessionOpened(ConnectionHandler s) {
        sessions.add(s);
    }

    void sessionClosed(ConnectionHandler s) {
        sessions.remove(s);
        locks.release(s);
        triggers.removeIf(t -> {
            if (t.session == s && t.timeout != null) {
                t.timeout.cancel(false);
            }
            return t.session == s;
        });
    }

    List<ConnectionHandler> sessions() {
        return List.copyOf(sessions);
    }

    void transact(ConnectionHandler s, JsonNode id, ArrayNode params, Database db) {
        if (db == null) {
            return;
        }
        run(new Trigger(s, id, params, db), true);
    }

    /** Executes (or re-executes) a transaction; returns true when it finished. */
    private boolean run(Trigger t, boolean first) {
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t.created);
        Execution.Outcome outcome = new Execution(t.db, lock -> locks.owns(t.session, lock), readOnly, elapsed).run(t.params);
        if (outcome instanceof Execution.Blocked b) {
            if (first) {
                triggers.add(t);
                if (b.timeoutMs() != Long.MAX_VALUE) {
                    long left = Math.max(0, b.timeoutMs() - elapsed);
                    t.timeout = loop.schedule(() -> {
                        if (triggers.remove(t)) {
                            runTimedOut(t);
                        }
                    }, left, TimeUnit.MILLISECONDS);
                }
            }
            return false;
        }
        Execution.Done done = (Execution.Done) outcome;
        if (!done.changes().isEmpty()) {
            Database.Commit commit = t.db.commit(done.tables(), done.changes());
            publish(t.db, commit);
        }
        t.session.reply(t.id, done.reply());
        return true;
    }

    private void runTimedOut(Trigger t) {
        // At the deadline the wait fails with "timed out"; a timer that fired a hair early retries.
        if (!run(t, false)) {
            triggers.add(t);
            t.timeout = loop.schedule(() -> {
                if (triggers.remove(t)) {
                    runTimedOut(t);
                }
            }, 1, TimeUnit.MILLISECONDS);
        }
    }

    /** Sends every monitor its view of a commit, then retries blocked transactions. */
    private void publish(Database db, Database.Commit commit) {
        for (ConnectionHandler s : sessions) {
            for (Monitor m : s.monitors.values()) {
                if (m.db != db) {
                    continue;
                }
                ObjectNode updates = m.updates(commit.changes());
                if (updates.size() == 0) {
                    continue;
                }
                ArrayNode p = JsonTrees.array().add(m.id);
                if (m.version == 3) {
                    p.add(history ? commit.id().toString() : Database.ZERO.toString());
                }
                p.add(updates);
                s.notify(m.version == 1 ? "update" : m.version == 2 ? "update2" : "update3", p);
            }
        }
        if (!triggers.isEmpty()) {
            for (Trigger t : List.copyOf(triggers)) {
                // Out of the list while it runs, so a commit it makes does not run it again.
                if (t.db != db || !triggers.remove(t)) {
                    continue;
                }
                boolean done;
                try {
                    done = run(t, false);
                } catch (RuntimeException e) {
                    t.session.error(t.id, new OvsdbError("internal error", e.toString()).toJson());
                    done = true;
                }
                if (done) {
                    if (t.timeout != null) {
                        t.timeout.cancel(false);
                    }
                } else {
                    triggers.add(t);
                }
            }
        }
    }

    /** Rewrites the _Server.Database rows: one per database, standalone or (as a fault) a follower. */
    void refreshServerRows() {
        TableSchema t = server.schema().table("Database");
        Map<UUID, Datum[]> existing = server.rows("Database");
        Map<String, UUID> byName = new HashMap<>();
        existing.forEach((u, r) -> byName.put((String) r[t.columnIndex("name")].single(), u));
        LinkedHashMap<UUID, Datum[]> rows = new LinkedHashMap<>();
        List<Database.Change> changes = new ArrayList<>();
        for (Database db : databases.values()) {
            UUID u = byName.getOrDefault(db.name(), UUID.randomUUID());
            Datum[] old = existing.get(u);
            Datum[] r = old != null ? old.clone() : server.newRow(t, u);
            r[t.columnIndex("name")] = Datum.atom(db.name());
            r[t.columnIndex("model")] = Datum.atom(follower ? "clustered" : "standalone");
            r[t.columnIndex("connected")] = Datum.atom(true);
            r[t.columnIndex("leader")] = Datum.atom(!follower);
            r[t.columnIndex("schema")] = Datum.atom(JsonTrees.sortedString(db.schemaJson()));
            r[t.columnIndex("cid")] = follower ? Datum.atom(clusterId) : Datum.ofSet(List.of());
            if (t.findColumn("sid").isPresent()) {
                r[t.columnIndex("sid")] = follower ? Datum.atom(serverId) : Datum.ofSet(List.of());
            }
            r[t.columnIndex("index")] = follower ? Datum.atom(1L) : Datum.ofSet(List.of());
            if (old == null || !java.util.Arrays.equals(old, 2, old.length, r, 2, r.length)) {
                if (old != null) {
                    r[TableSchema.VERSION_INDEX] = Datum.atom(UUID.randomUUID());
                }
                changes.add(new Database.Change("Database", u, old, r));
            }
            rows.put(u, r);
        }
        if (!changes.isEmpty()) {
            Database.Commit c = server.commit(Map.of("Database", rows), changes);
            publish(server, c);
        }
    }
}
