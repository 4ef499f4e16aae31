package dev.ovnj.testkit.inmemory;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.UUID;

/**
 * A transaction's private copy of the tables it writes, over a {@link Database} it leaves alone
 * until the commit, and the rows it wrote or removed in the order first touched (ovsdb-server's
 * txn rows). Reads see the transaction's own writes.
 */
final class WorkingTables {
    private final Database db;
    private final Map<String, LinkedHashMap<UUID, Datum[]>> work = new HashMap<>();
    private final Map<String, LinkedHashSet<UUID>> dirty = new LinkedHashMap<>();
    private boolean removedAny;

    WorkingTables(Database db) {
        this.db = db;
    }

    /** The database as it was before the transaction. */
    Database db() {
        return db;
    }

    /** A table's rows as the transaction sees them; the committed ones while it wrote none. */
    Map<UUID, Datum[]> read(String table) {
        Map<UUID, Datum[]> w = work.get(table);
        return w != null ? w : db.rows(table);
    }

    void put(String table, UUID uuid, Datum[] row) {
        write(table).put(uuid, row);
        dirty.computeIfAbsent(table, k -> new LinkedHashSet<>()).add(uuid);
    }

    void remove(String table, UUID uuid) {
        write(table).remove(uuid);
        dirty.computeIfAbsent(table, k -> new LinkedHashSet<>()).add(uuid);
        removedAny = true;
    }

    private LinkedHashMap<UUID, Datum[]> write(String table) {
        return work.computeIfAbsent(table, t -> new LinkedHashMap<>(db.rows(t)));
    }

    /** The copied tables, whole, by name: only those the transaction wrote. */
    Map<String, LinkedHashMap<UUID, Datum[]>> written() {
        return work;
    }

    /** The rows written or removed, per table, in the order first touched. */
    Map<String, LinkedHashSet<UUID>> dirty() {
        return dirty;
    }

    /** Whether any row was removed, by an operation or by the commit checks. */
    boolean removedAny() {
        return removedAny;
    }
}
