package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The committed contents of one database, and a bounded history of committed transactions so a
 * client's {@code monitor_cond_since} can resume from the last transaction it saw.
 */
final class Database {
    static final UUID ZERO = new UUID(0, 0);

    /** One row's change in a commit; {@code old} is null for an insert, {@code neu} for a delete. */
    record Change(String table, UUID uuid, Datum[] old, Datum[] neu) {
    }

    /** A committed transaction, the changes it made and their size in atoms. */
    record Commit(UUID id, List<Change> changes, long atoms) {
    }

    private final DatabaseSchema schema;
    private final JsonNode schemaJson;
    private final Map<String, LinkedHashMap<UUID, Datum[]>> tables = new HashMap<>();
    private final Deque<Commit> history = new ArrayDeque<>();
    private final int historyLimit;
    private UUID lastTxnId = ZERO;
    private long atoms;
    private long historyAtoms;

    Database(DatabaseSchema schema, JsonNode schemaJson, int historyLimit) {
        this.schema = schema;
        this.schemaJson = schemaJson;
        this.historyLimit = historyLimit;
        schema.tables().keySet().forEach(t -> tables.put(t, new LinkedHashMap<>()));
        if (historyLimit > 0) {
            // Like a clustered database, an empty one already has a transaction id, so a client
            // that synced it before anything was written can still resume.
            lastTxnId = UUID.randomUUID();
            history.add(new Commit(lastTxnId, List.of(), 0));
        }
    }

    String name() {
        return schema.name();
    }

    DatabaseSchema schema() {
        return schema;
    }

    JsonNode schemaJson() {
        return schemaJson;
    }

    Map<UUID, Datum[]> rows(String table) {
        return tables.get(table);
    }

    UUID lastTxnId() {
        return lastTxnId;
    }

    /**
     * Installs the tables an execution built and records the commit. The history is trimmed as
     * a clustered ovsdb-server trims it: to at most {@code historyLimit} transactions, and while
     * the history holds more atoms than the database (a snapshot is then cheaper), but never
     * below one transaction.
     */
    Commit commit(Map<String, LinkedHashMap<UUID, Datum[]>> newTables, List<Change> changes) {
        tables.putAll(newTables);
        lastTxnId = UUID.randomUUID();
        long txnAtoms = 0;
        for (Change c : changes) {
            long before = atoms(c.old());
            long after = atoms(c.neu());
            txnAtoms += before + after;
            atoms += after - before;
        }
        Commit c = new Commit(lastTxnId, List.copyOf(changes), txnAtoms);
        if (historyLimit > 0) {
            history.addLast(c);
            historyAtoms += txnAtoms;
            while (history.size() > 1 && (history.size() > historyLimit || historyAtoms > atoms)) {
                historyAtoms -= history.removeFirst().atoms();
            }
        }
        return c;
    }

    /** ovsdb-server's count: every value of every column, map entries twice. */
    private static long atoms(Datum[] row) {
        if (row == null) {
            return 0;
        }
        long n = 0;
        for (Datum d : row) {
            n += d.isMap() ? 2L * d.size() : d.size();
        }
        return n;
    }

    /** The commits after {@code txnId}, if the history still reaches back to it. */
    Optional<List<Commit>> since(UUID txnId) {
        if (txnId.equals(lastTxnId) && !ZERO.equals(txnId)) {
            return Optional.of(List.of());
        }
        List<Commit> after = new ArrayList<>();
        boolean found = false;
        for (Iterator<Commit> it = history.iterator(); it.hasNext();) {
            Commit c = it.next();
            if (found) {
                after.add(c);
            } else if (c.id().equals(txnId)) {
                found = true;
            }
        }
        return found ? Optional.of(after) : Optional.empty();
    }

    /** A new row with every column at its default and the given UUID. */
    Datum[] newRow(TableSchema t, UUID uuid) {
        List<ColumnSchema> cols = t.columns();
        Datum[] row = new Datum[cols.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = Datum.defaultOf(cols.get(i).type());
        }
        row[TableSchema.UUID_INDEX] = Datum.atom(uuid);
        row[TableSchema.VERSION_INDEX] = Datum.atom(UUID.randomUUID());
        return row;
    }
}
