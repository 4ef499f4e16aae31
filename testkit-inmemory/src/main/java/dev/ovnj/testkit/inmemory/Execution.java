package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.testkit.inmemory.OpParser.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Executes one {@code transact} request against a {@link Database}, as ovsdb-server's execution.c:
 * the operations in order on {@link WorkingTables} (mutations in {@link ColumnMutation}), then the
 * {@link CommitChecks}. The result is the reply array, and the changes to commit; or, when a
 * {@code wait} is not yet satisfied and may still be, a deadline to retry by.
 */
final class Execution {
    /** What became of the transaction. */
    sealed interface Outcome permits Done, Blocked {
    }

    /** The reply, and the changes if it committed any. */
    record Done(ArrayNode reply, Map<String, LinkedHashMap<UUID, Datum[]>> tables, List<Database.Change> changes)
            implements Outcome {
    }

    /** A wait is unsatisfied; retry on the next commit or when {@code timeoutMs} has elapsed. */
    record Blocked(long timeoutMs) implements Outcome {
    }

    private static final Set<String> READ_ONLY_OPS = Set.of("select", "wait", "abort", "comment", "assert");

    private final Database db;
    private final WorkingTables tables;
    private final Predicate<String> ownsLock;
    private final boolean readOnly;
    private final long elapsedMs;
    private final Map<String, UUID> symbols = new HashMap<>();
    private final Set<String> created = new HashSet<>();
    private final Map<String, Set<UUID>> deletedHere = new HashMap<>();
    private long timeoutMs = Long.MAX_VALUE;

    Execution(Database db, Predicate<String> ownsLock, boolean readOnly, long elapsedMs) {
        this.db = db;
        this.tables = new WorkingTables(db);
        this.ownsLock = ownsLock;
        this.readOnly = readOnly;
        this.elapsedMs = elapsedMs;
    }

    /** Runs the operations of {@code params} (whose first element is the database name). */
    Outcome run(ArrayNode params) {
        ArrayNode results = JsonTrees.array();
        int n = params.size() - 1;
        OvsdbError error = null;
        for (int i = 1; i <= n; i++) {
            JsonNode operation = params.get(i);
            OpParser p = new OpParser(operation, "ovsdb operation " + i + " of " + n);
            JsonNode op = p.member("op", Kind.ID, false);
            ObjectNode result = JsonTrees.object();
            String opName = op == null ? null : op.textValue();
            boolean ro = opName != null && READ_ONLY_OPS.contains(opName);
            OvsdbError opError = null;
            if (op != null) {
                try {
                    switch (opName) {
                        case "insert" -> insert(p, result);
                        case "select" -> select(p, result);
                        case "update" -> update(p, result);
                        case "mutate" -> mutate(p, result);
                        case "delete" -> delete(p, result);
                        case "wait" -> waitOp(p);
                        case "commit" -> p.member("durable", Kind.BOOLEAN, false);
                        case "abort" -> opError = new OvsdbError("aborted", "aborted by request");
                        case "comment" -> p.member("comment", Kind.STRING, false);
                        case "assert" -> assertOp(p);
                        default -> p.raise("No operation \"" + opName + "\"");
                    }
                } catch (OvsdbError e) {
                    opError = e;
                }
            }
            OvsdbError parseError = p.finish();
            if (parseError != null) {
                opError = parseError;
            }
            if (!ro && opError == null) {
                if (readOnly) {
                    opError = new OvsdbError("not allowed", opName
                            + " operation not allowed when database server is in read only mode");
                } else if (db.name().startsWith("_")) {
                    opError = new OvsdbError("not allowed", opName
                            + " operation not allowed on table in reserved database " + db.name());
                }
            }
            if (opError != null) {
                if ("not supported".equals(opError.tag())) {
                    return new Blocked(timeoutMs);
                }
                results.add(opError.toJson());
                error = opError;
                break;
            }
            results.add(result);
        }
        while (results.size() < n) {
            results.addNull();
        }
        if (error != null) {
            return new Done(results, Map.of(), List.of());
        }
        try {
            List<Database.Change> changes = new CommitChecks(tables).run();
            return new Done(results, tables.written(), changes);
        } catch (OvsdbError e) {
            results.add(e.toJson());
            return new Done(results, Map.of(), List.of());
        }
    }

    // ---- operations ----

    private TableSchema table(OpParser p) {
        JsonNode t = p.member("table", Kind.ID, false);
        if (t == null) {
            return null;
        }
        TableSchema ts = db.schema().findTable(t.textValue()).orElse(null);
        if (ts == null) {
            p.raise("No table named " + t.textValue() + ".");
        }
        return ts;
    }

    private void check(OpParser p) throws OvsdbError {
        if (p.error() != null) {
            throw p.error();
        }
    }

    private UUID symbol(String name) {
        return symbols.computeIfAbsent(name, k -> UUID.randomUUID());
    }

    private Map<UUID, Datum[]> read(String table) {
        return tables.read(table);
    }

    private void put(String table, UUID uuid, Datum[] row) {
        tables.put(table, uuid, row);
    }

    private void remove(String table, UUID uuid) {
        tables.remove(table, uuid);
    }

    private List<UUID> query(TableSchema t, Where c) {
        Map<UUID, Datum[]> rows = read(t.name());
        UUID pinned = c.pinnedUuid();
        List<UUID> out = new ArrayList<>();
        if (pinned != null) {
            Datum[] r = rows.get(pinned);
            if (r != null && c.matches(r)) {
                out.add(pinned);
            }
            return out;
        }
        rows.forEach((u, r) -> {
            if (c.matches(r)) {
                out.add(u);
            }
        });
        return out;
    }

    private Map<Integer, Datum> parseRow(TableSchema t, JsonNode json) throws OvsdbError {
        if (!json.isObject()) {
            throw OvsdbError.syntax(json, "row must be JSON object");
        }
        Map<Integer, Datum> values = new LinkedHashMap<>();
        for (String column : OvsMemberOrder.of(json)) {
            if (t.findColumn(column).isEmpty()) {
                throw new OvsdbError("unknown column", "No column " + column + " in table " + t.name() + ".", json);
            }
            int idx = t.columnIndex(column);
            values.put(idx, Datum.fromJson(t.columns().get(idx).type(), json.get(column), this::symbol));
        }
        return values;
    }

    private void insert(OpParser p, ObjectNode result) throws OvsdbError {
        TableSchema t = table(p);
        JsonNode uuidJson = p.member("uuid", Kind.STRING, true);
        JsonNode uuidName = p.member("uuid-name", Kind.ID, true);
        JsonNode rowJson = p.member("row", Kind.OBJECT, false);
        check(p);
        UUID uuid = null;
        if (uuidJson != null) {
            uuid = Datum.parseUuid(uuidJson.textValue()).orElseThrow(() -> OvsdbError.syntax(uuidJson, "bad uuid"));
            if (read(t.name()).containsKey(uuid) || deletedHere.getOrDefault(t.name(), Set.of()).contains(uuid)) {
                throw new OvsdbError("duplicate uuid", "This UUID would duplicate a UUID already present within the table or "
                        + "deleted within the same transaction.", uuidJson);
            }
        }
        if (uuidName != null) {
            String name = uuidName.textValue();
            if (created.contains(name)) {
                throw new OvsdbError("duplicate uuid-name", "This \"uuid-name\" appeared on an earlier \"insert\" operation.",
                        uuidName);
            }
            if (uuid != null) {
                symbols.put(name, uuid);
            } else {
                uuid = symbol(name);
            }
            created.add(name);
        } else if (uuid == null) {
            uuid = UUID.randomUUID();
        }
        Map<Integer, Datum> values = parseRow(t, rowJson);
        Datum[] row = db.newRow(t, uuid);
        values.forEach((i, v) -> {
            if (i != TableSchema.UUID_INDEX && i != TableSchema.VERSION_INDEX) {
                row[i] = v;
            }
        });
        checkDefaults(t, row);
        put(t.name(), uuid, row);
        result.set("uuid", Datum.atom(uuid).toJson());
    }

    /**
     * Like ovsdb-server, checks the constraints of every single-valued column of a new row, since a
     * column the insert left out holds its default (0, "", the first enum value is not chosen),
     * which may be outside the column's range, length or enum. It walks the columns in
     * ovsdb-server's order, so that of several violations the same one is reported.
     */
    private static void checkDefaults(TableSchema t, Datum[] row) throws OvsdbError {
        List<String> names = new ArrayList<>();
        t.columns().forEach(c -> names.add(c.name()));
        // _uuid and _version go into the table's columns first, then the schema's columns in
        // the walk order of the parsed JSON object.
        List<String> inserted = new ArrayList<>(names.subList(0, 2));
        inserted.addAll(OvsMemberOrder.names(names.subList(2, names.size())));
        for (String name : OvsMemberOrder.names(inserted)) {
            int i = t.columnIndex(name);
            Datum d = row[i];
            if (d.size() != 1) {
                continue;
            }
            ColumnType type = t.columns().get(i).type();
            for (Map.Entry<Object, Object> e : d.entries().entrySet()) {
                Datum.checkConstraints(type.key(), e.getKey());
                if (type.value().isPresent()) {
                    Datum.checkConstraints(type.value().get(), e.getValue());
                }
            }
        }
    }

    private List<Integer> columns(TableSchema t, JsonNode json, boolean all) throws OvsdbError {
        List<Integer> cols = new ArrayList<>();
        if (json == null) {
            if (all) {
                for (int i = 0; i < t.columns().size(); i++) {
                    cols.add(i);
                }
            }
            return cols;
        }
        for (JsonNode c : json) {
            if (!c.isTextual()) {
                throw OvsdbError.syntax(json, "array of distinct column names expected");
            }
            if (t.findColumn(c.textValue()).isEmpty()) {
                throw OvsdbError.syntax(json, c.textValue() + " is not a valid column name");
            }
            int idx = t.columnIndex(c.textValue());
            if (cols.contains(idx)) {
                throw OvsdbError.syntax(json, "array of distinct column names expected");
            }
            cols.add(idx);
        }
        return cols;
    }

    private void select(OpParser p, ObjectNode result) throws OvsdbError {
        TableSchema t = table(p);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode columnsJson = p.member("columns", Kind.ARRAY, true);
        JsonNode sortJson = p.member("sort", Kind.ARRAY, true);
        check(p);
        Where c = Where.parse(t, where, this::symbol);
        List<Integer> cols = columns(t, columnsJson, true);
        List<Integer> sort = columns(t, sortJson, false);
        Map<UUID, Datum[]> rows = read(t.name());
        List<Datum[]> selected = new ArrayList<>();
        Set<List<Datum>> distinct = new HashSet<>();
        for (UUID u : query(t, c)) {
            Datum[] r = rows.get(u);
            List<Datum> key = new ArrayList<>();
            cols.forEach(i -> key.add(r[i]));
            if (distinct.add(key)) {
                selected.add(r);
            }
        }
        if (!sort.isEmpty()) {
            selected.sort((a, b) -> {
                for (int i : sort) {
                    int cmp = Datum.compare(a[i], b[i]);
                    if (cmp != 0) {
                        return cmp;
                    }
                }
                return 0;
            });
        }
        ArrayNode out = JsonTrees.array();
        for (Datum[] r : selected) {
            ObjectNode o = JsonTrees.object();
            cols.forEach(i -> o.set(t.columns().get(i).name(), r[i].toJson()));
            out.add(o);
        }
        result.set("rows", out);
    }

    private void update(OpParser p, ObjectNode result) throws OvsdbError {
        TableSchema t = table(p);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode rowJson = p.member("row", Kind.OBJECT, false);
        check(p);
        Map<Integer, Datum> values = parseRow(t, rowJson);
        for (int i : values.keySet()) {
            ColumnSchema col = t.columns().get(i);
            if (!col.mutable() || i == TableSchema.UUID_INDEX || i == TableSchema.VERSION_INDEX) {
                throw new OvsdbError("constraint violation", "Cannot update immutable column " + col.name() + " in table "
                        + t.name() + ".", p.jsonForSyntax());
            }
        }
        Where c = Where.parse(t, where, this::symbol);
        List<UUID> matches = query(t, c);
        Map<UUID, Datum[]> rows = read(t.name());
        for (UUID u : matches) {
            Datum[] r = rows.get(u).clone();
            values.forEach((i, v) -> r[i] = v);
            put(t.name(), u, r);
        }
        result.put("count", matches.size());
    }

    private void delete(OpParser p, ObjectNode result) throws OvsdbError {
        JsonNode where = p.member("where", Kind.ARRAY, false);
        TableSchema t = table(p);
        check(p);
        Where c = Where.parse(t, where, this::symbol);
        List<UUID> matches = query(t, c);
        if (!matches.isEmpty()) {
            Set<UUID> gone = deletedHere.computeIfAbsent(t.name(), k -> new HashSet<>());
            for (UUID u : matches) {
                remove(t.name(), u);
                gone.add(u);
            }
        }
        result.put("count", matches.size());
    }

    private void mutate(OpParser p, ObjectNode result) throws OvsdbError {
        TableSchema t = table(p);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode mutationsJson = p.member("mutations", Kind.ARRAY, false);
        check(p);
        List<ColumnMutation> mutations = new ArrayList<>();
        for (JsonNode m : mutationsJson) {
            mutations.add(ColumnMutation.parse(t, m, this::symbol));
        }
        Where c = Where.parse(t, where, this::symbol);
        List<UUID> matches = query(t, c);
        if (!mutations.isEmpty() && !matches.isEmpty()) {
            Map<UUID, Datum[]> rows = read(t.name());
            for (UUID u : matches) {
                Datum[] r = rows.get(u).clone();
                for (ColumnMutation m : mutations) {
                    r[m.column()] = m.applyTo(t.columns().get(m.column()), r[m.column()]);
                }
                put(t.name(), u, r);
            }
        }
        result.put("count", matches.size());
    }

    private void waitOp(OpParser p) throws OvsdbError {
        JsonNode timeout = p.member("timeout", Kind.INTEGER, true);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode columnsJson = p.member("columns", Kind.ARRAY, true);
        JsonNode until = p.member("until", Kind.STRING, false);
        JsonNode rowsJson = p.member("rows", Kind.ARRAY, false);
        TableSchema t = table(p);
        check(p);
        Where c = Where.parse(t, where, this::symbol);
        List<Integer> cols = columns(t, columnsJson, true);
        long limit = Long.MAX_VALUE;
        if (timeout != null) {
            limit = timeout.longValue();
            if (limit < 0) {
                throw OvsdbError.syntax(timeout, "timeout must be nonnegative");
            }
            timeoutMs = Math.min(timeoutMs, limit);
        }
        String u = until.textValue();
        if (!"==".equals(u) && !"!=".equals(u)) {
            throw OvsdbError.syntax(until, "\"until\" must be \"==\" or \"!=\"");
        }
        Set<List<Datum>> expected = new HashSet<>();
        for (JsonNode rj : rowsJson) {
            Map<Integer, Datum> values = parseRow(t, rj);
            Datum[] row = db.newRow(t, Database.ZERO);
            values.forEach((i, v) -> row[i] = v);
            expected.add(project(row, cols));
        }
        boolean equal = true;
        Set<List<Datum>> actual = new HashSet<>();
        Map<UUID, Datum[]> rows = read(t.name());
        for (UUID id : query(t, c)) {
            List<Datum> key = project(rows.get(id), cols);
            if (!expected.contains(key)) {
                equal = false;
                break;
            }
            actual.add(key);
        }
        if (equal) {
            equal = actual.size() == expected.size();
        }
        if ("==".equals(u) != equal) {
            if (timeout != null && elapsedMs >= limit) {
                if (elapsedMs > 0) {
                    throw new OvsdbError("timed out", "\"wait\" timed out after " + elapsedMs + " ms");
                }
                throw new OvsdbError("timed out", "\"where\" clause test failed");
            }
            throw new OvsdbError("not supported", "triggers not supported");
        }
    }

    private static List<Datum> project(Datum[] row, List<Integer> cols) {
        List<Datum> key = new ArrayList<>(cols.size());
        cols.forEach(i -> key.add(row[i]));
        return key;
    }

    private void assertOp(OpParser p) throws OvsdbError {
        JsonNode lock = p.member("lock", Kind.ID, false);
        if (lock != null && !ownsLock.test(lock.textValue())) {
            throw new OvsdbError("not owner", "Asserted lock " + lock.textValue() + " not held.");
        }
    }
}
