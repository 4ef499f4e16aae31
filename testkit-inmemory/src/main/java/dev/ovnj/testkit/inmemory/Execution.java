package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.RefType;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.testkit.inmemory.OpParser.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Executes one {@code transact} request against a {@link Database}: the operations in order on a
 * private copy of the tables they touch, then ovsdb-server's commit checks (referential
 * integrity, garbage collection of non-root rows, maxRows, weak references, indexes). The result
 * is the reply array, and the changes to commit; or, when a {@code wait} is not yet satisfied and
 * may still be, a deadline to retry by.
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
    private final Predicate<String> ownsLock;
    private final boolean readOnly;
    private final long elapsedMs;
    private final Map<String, LinkedHashMap<UUID, Datum[]>> work = new HashMap<>();
    private final Map<String, UUID> symbols = new HashMap<>();
    private final Set<String> created = new HashSet<>();
    private final Map<String, Set<UUID>> deletedHere = new HashMap<>();
    private long timeoutMs = Long.MAX_VALUE;
    /** Rows written or removed, per table, in the order first touched (ovsdb-server's txn rows). */
    private final Map<String, LinkedHashSet<UUID>> dirty = new LinkedHashMap<>();
    private boolean removedAny;

    Execution(Database db, Predicate<String> ownsLock, boolean readOnly, long elapsedMs) {
        this.db = db;
        this.ownsLock = ownsLock;
        this.readOnly = readOnly;
        this.elapsedMs = elapsedMs;
    }

    /** Runs the operations of {@code params} (whose first element is the database name). */
    Outcome run(ArrayNode params) {
        ArrayNode results = Json.array();
        int n = params.size() - 1;
        OvsdbError error = null;
        for (int i = 1; i <= n; i++) {
            JsonNode operation = params.get(i);
            OpParser p = new OpParser(operation, "ovsdb operation " + i + " of " + n);
            JsonNode op = p.member("op", Kind.ID, false);
            ObjectNode result = Json.object();
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
            List<Database.Change> changes = precommit();
            return new Done(results, work, changes);
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
        Map<UUID, Datum[]> w = work.get(table);
        return w != null ? w : db.rows(table);
    }

    private void put(String table, UUID uuid, Datum[] row) {
        write(table).put(uuid, row);
        dirty.computeIfAbsent(table, k -> new LinkedHashSet<>()).add(uuid);
    }

    private void remove(String table, UUID uuid) {
        write(table).remove(uuid);
        dirty.computeIfAbsent(table, k -> new LinkedHashSet<>()).add(uuid);
        removedAny = true;
    }

    private LinkedHashMap<UUID, Datum[]> write(String table) {
        return work.computeIfAbsent(table, t -> new LinkedHashMap<>(db.rows(t)));
    }

    private List<UUID> query(TableSchema t, Condition c) {
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
        Condition c = Condition.parse(t, where, this::symbol);
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
                    int cmp = compareDatum(a[i], b[i]);
                    if (cmp != 0) {
                        return cmp;
                    }
                }
                return 0;
            });
        }
        ArrayNode out = Json.array();
        for (Datum[] r : selected) {
            ObjectNode o = Json.object();
            cols.forEach(i -> o.set(t.columns().get(i).name(), r[i].toJson()));
            out.add(o);
        }
        result.set("rows", out);
    }

    /** ovsdb_datum_compare_3way(): by size, then keys, then values. */
    private static int compareDatum(Datum a, Datum b) {
        if (a.size() != b.size()) {
            return Integer.compare(a.size(), b.size());
        }
        Iterator<Object> i = a.entries().keySet().iterator();
        Iterator<Object> j = b.entries().keySet().iterator();
        while (i.hasNext()) {
            int cmp = Datum.compareAtoms(i.next(), j.next());
            if (cmp != 0) {
                return cmp;
            }
        }
        if (a.isMap()) {
            Iterator<Object> x = a.entries().values().iterator();
            Iterator<Object> y = b.entries().values().iterator();
            while (x.hasNext()) {
                int cmp = Datum.compareAtoms(x.next(), y.next());
                if (cmp != 0) {
                    return cmp;
                }
            }
        }
        return 0;
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
        Condition c = Condition.parse(t, where, this::symbol);
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
        Condition c = Condition.parse(t, where, this::symbol);
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

    private record Mutation(int column, String mutator, Datum arg) {
    }

    private void mutate(OpParser p, ObjectNode result) throws OvsdbError {
        TableSchema t = table(p);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode mutationsJson = p.member("mutations", Kind.ARRAY, false);
        check(p);
        List<Mutation> mutations = new ArrayList<>();
        for (JsonNode m : mutationsJson) {
            mutations.add(parseMutation(t, m));
        }
        Condition c = Condition.parse(t, where, this::symbol);
        List<UUID> matches = query(t, c);
        if (!mutations.isEmpty() && !matches.isEmpty()) {
            Map<UUID, Datum[]> rows = read(t.name());
            for (UUID u : matches) {
                Datum[] r = rows.get(u).clone();
                for (Mutation m : mutations) {
                    r[m.column] = apply(t.columns().get(m.column), r[m.column], m);
                }
                put(t.name(), u, r);
            }
        }
        result.put("count", matches.size());
    }

    private Mutation parseMutation(TableSchema t, JsonNode json) throws OvsdbError {
        if (!json.isArray() || json.size() != 3 || !json.get(0).isTextual() || !json.get(1).isTextual()) {
            throw OvsdbError.syntax(json, "Parse error in mutation.");
        }
        String name = json.get(0).textValue();
        if (t.findColumn(name).isEmpty()) {
            throw new OvsdbError("unknown column", "No column " + name + " in table " + t.name() + ".", json);
        }
        int idx = t.columnIndex(name);
        ColumnSchema col = t.columns().get(idx);
        if (!col.mutable() || idx == TableSchema.UUID_INDEX || idx == TableSchema.VERSION_INDEX) {
            throw new OvsdbError("constraint violation", "Cannot mutate immutable column " + name + " in table "
                    + t.name() + ".", json);
        }
        ColumnType type = col.type();
        String mutator = json.get(1).textValue();
        JsonNode arg = json.get(2);
        switch (mutator) {
            case "+=", "-=", "*=", "/=", "%=" -> {
                AtomicType k = type.key().type();
                boolean numeric = k == AtomicType.INTEGER || (k == AtomicType.REAL && !"%=".equals(mutator));
                if (type.isMap() || !numeric) {
                    throw Condition.typeMismatch(json, mutator, name, type);
                }
                BaseType unconstrained = BaseType.of(k);
                return new Mutation(idx, mutator, Datum.atom(Datum.atomFromJson(unconstrained, arg, this::symbol)));
            }
            case "insert", "delete" -> {
                if (type.isScalar()) {
                    throw Condition.typeMismatch(json, mutator, name, type);
                }
                ColumnType argType = type.withBounds(0, "delete".equals(mutator) ? ColumnType.UNLIMITED : type.max());
                try {
                    return new Mutation(idx, mutator, Datum.fromJson(argType, arg, this::symbol));
                } catch (OvsdbError e) {
                    if (type.isMap() && "delete".equals(mutator)) {
                        ColumnType keys = new ColumnType(type.key(), java.util.Optional.empty(), 0, ColumnType.UNLIMITED);
                        return new Mutation(idx, "delete-keys", Datum.fromJson(keys, arg, this::symbol));
                    }
                    throw e;
                }
            }
            default -> throw new OvsdbError("unknown mutator", "No mutator named " + mutator + ".");
        }
    }

    private static Datum apply(ColumnSchema col, Datum value, Mutation m) throws OvsdbError {
        ColumnType type = col.type();
        TreeMap<Object, Object> out = new TreeMap<>(Datum.ATOM_ORDER);
        switch (m.mutator) {
            case "insert" -> {
                out.putAll(value.entries());
                m.arg.entries().forEach(out::putIfAbsent);
            }
            case "delete" -> {
                out.putAll(value.entries());
                m.arg.entries().forEach((k, v) -> {
                    if (out.containsKey(k) && (!value.isMap() || Datum.compareAtoms(out.get(k), v) == 0)) {
                        out.remove(k);
                    }
                });
            }
            case "delete-keys" -> {
                out.putAll(value.entries());
                m.arg.entries().keySet().forEach(out::remove);
            }
            default -> {
                Object operand = m.arg.single();
                for (Object atom : value.entries().keySet()) {
                    Object r = arithmetic(m.mutator, atom, operand);
                    Datum.checkConstraints(type.key(), r);
                    if (out.containsKey(r)) {
                        throw OvsdbError.constraint("Result of \"" + m.mutator + "\" operation contains duplicates.");
                    }
                    out.put(r, null);
                }
            }
        }
        if (out.size() < type.min() || out.size() > type.max()) {
            throw OvsdbError.constraint("Attempted to store " + out.size() + " elements in " + Condition.english(type) + ".");
        }
        return value.with(out);
    }

    private static Object arithmetic(String mutator, Object atom, Object operand) throws OvsdbError {
        if (atom instanceof Long a) {
            long b = ((Number) operand).longValue();
            try {
                return switch (mutator) {
                    case "+=" -> Math.addExact(a, b);
                    case "-=" -> Math.subtractExact(a, b);
                    case "*=" -> Math.multiplyExact(a, b);
                    case "/=" -> {
                        if (b == 0) {
                            throw new OvsdbError("domain error", "Division by zero.");
                        }
                        if (a == Long.MIN_VALUE && b == -1) {
                            throw new ArithmeticException();
                        }
                        yield a / b;
                    }
                    default -> {
                        if (b == 0) {
                            throw new OvsdbError("domain error", "Division by zero.");
                        }
                        yield a % b;
                    }
                };
            } catch (ArithmeticException e) {
                throw new OvsdbError("range error", "Result of \"" + mutator + "\" operation is out of range.");
            }
        }
        double a = (Double) atom;
        double b = ((Number) operand).doubleValue();
        double r = switch (mutator) {
            case "+=" -> a + b;
            case "-=" -> a - b;
            case "*=" -> a * b;
            default -> {
                if (b == 0) {
                    throw new OvsdbError("domain error", "Division by zero.");
                }
                yield a / b;
            }
        };
        if (Double.isInfinite(r) || Double.isNaN(r)) {
            throw new OvsdbError("range error", "Result of \"" + mutator + "\" operation is out of range.");
        }
        return r;
    }

    private void waitOp(OpParser p) throws OvsdbError {
        JsonNode timeout = p.member("timeout", Kind.INTEGER, true);
        JsonNode where = p.member("where", Kind.ARRAY, false);
        JsonNode columnsJson = p.member("columns", Kind.ARRAY, true);
        JsonNode until = p.member("until", Kind.STRING, false);
        JsonNode rowsJson = p.member("rows", Kind.ARRAY, false);
        TableSchema t = table(p);
        check(p);
        Condition c = Condition.parse(t, where, this::symbol);
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

    // ---- commit checks, in ovsdb_txn_precommit()'s order ----

    private List<Database.Change> precommit() throws OvsdbError {
        if (work.isEmpty()) {
            return List.of();
        }
        // Rows the operations changed. ovsdb-server gives them a new _version even when removing
        // weak references later puts their columns back as they were.
        Set<String> touched = new HashSet<>();
        dirty.forEach((table, uuids) -> {
            Map<UUID, Datum[]> old = db.rows(table);
            Map<UUID, Datum[]> now = work.get(table);
            for (UUID u : uuids) {
                Datum[] before = old.get(u);
                Datum[] r = now.get(u);
                if (before != null && r != null && before != r && !Arrays.equals(before, 2, before.length, r, 2, r.length)) {
                    touched.add(table + "/" + u);
                }
            }
        });
        // Referential integrity of strong references written by this transaction. Noting on the
        // way what kinds of reference changed lets a transaction that touched none skip the
        // whole-database passes below.
        boolean strongChanged = false;
        boolean weakChanged = false;
        boolean rowsGone = removedAny;
        for (Map.Entry<String, LinkedHashSet<UUID>> e : dirty.entrySet()) {
            TableSchema t = db.schema().table(e.getKey());
            Map<UUID, Datum[]> old = db.rows(e.getKey());
            Map<UUID, Datum[]> now = work.get(e.getKey());
            boolean root = db.schema().isRootTable(t.name());
            for (UUID u : OvsMemberOrder.rows(e.getValue())) {
                Datum[] before = old.get(u);
                Datum[] r = now.get(u);
                if (r == null || before == r) {
                    continue;
                }
                strongChanged |= before == null && !root;
                for (int i = 2; i < t.columns().size(); i++) {
                    if (before != null ? before[i].equals(r[i]) : r[i].size() == 0) {
                        continue;
                    }
                    ColumnType type = t.columns().get(i).type();
                    strongChanged |= hasRef(type, RefType.STRONG);
                    weakChanged |= hasRef(type, RefType.WEAK);
                    checkStrongRefs(t, t.columns().get(i), u, r[i]);
                }
            }
        }
        if (rowsGone || strongChanged) {
            Map<UUID, Integer> refs = strongRefCounts();
            // Deleted rows must not stay referenced.
            for (Map.Entry<String, LinkedHashSet<UUID>> e : dirty.entrySet()) {
                Map<UUID, Datum[]> now = work.get(e.getKey());
                for (UUID u : OvsMemberOrder.rows(e.getValue())) {
                    if (db.rows(e.getKey()).containsKey(u) && !now.containsKey(u) && refs.getOrDefault(u, 0) > 0) {
                        throw new OvsdbError("referential integrity violation", "cannot delete " + e.getKey() + " row " + u
                                + " because of " + refs.get(u) + " remaining reference(s)");
                    }
                }
            }
            rowsGone |= collectGarbage(refs);
        }
        for (Map.Entry<String, LinkedHashMap<UUID, Datum[]>> e : work.entrySet()) {
            TableSchema t = db.schema().table(e.getKey());
            if (t.maxRows().isPresent() && e.getValue().size() > t.maxRows().getAsLong()) {
                throw OvsdbError.constraint("transaction causes \"" + t.name() + "\" table to contain " + e.getValue().size()
                        + " rows, greater than the schema-defined limit of " + t.maxRows().getAsLong() + " row(s)");
            }
        }
        if (rowsGone || weakChanged) {
            removeWeakRefs(!rowsGone);
        }
        List<Database.Change> changes = changes(touched);
        checkIndexes(changes);
        // A modified row gets a new _version.
        for (int i = 0; i < changes.size(); i++) {
            Database.Change c = changes.get(i);
            if (c.old() != null && c.neu() != null) {
                Datum[] r = c.neu().clone();
                r[TableSchema.VERSION_INDEX] = Datum.atom(UUID.randomUUID());
                work.get(c.table()).put(c.uuid(), r);
                changes.set(i, new Database.Change(c.table(), c.uuid(), c.old(), r));
            }
        }
        return changes;
    }

    private void checkStrongRefs(TableSchema t, ColumnSchema col, UUID self, Datum value) throws OvsdbError {
        ColumnType type = col.type();
        List<BaseType> bases = new ArrayList<>();
        bases.add(type.key());
        type.value().ifPresent(bases::add);
        for (int b = 0; b < bases.size(); b++) {
            BaseType base = bases.get(b);
            if (!base.isReference() || base.refType() != RefType.STRONG) {
                continue;
            }
            String target = base.refTable().orElseThrow();
            for (Map.Entry<Object, Object> e : value.entries().entrySet()) {
                UUID ref = (UUID) (b == 0 ? e.getKey() : e.getValue());
                if (!ref.equals(self) && !read(target).containsKey(ref)) {
                    throw new OvsdbError("referential integrity violation", "Table " + t.name() + " column " + col.name()
                            + " row " + self + " references nonexistent row " + ref + " in table " + target + ".");
                }
            }
        }
    }

    /** Strong references to each row from other rows, across the database as this transaction leaves it. */
    private Map<UUID, Integer> strongRefCounts() {
        Map<UUID, Integer> refs = new HashMap<>();
        for (TableSchema t : db.schema().tables().values()) {
            List<int[]> refCols = new ArrayList<>();
            for (int i = 2; i < t.columns().size(); i++) {
                ColumnType type = t.columns().get(i).type();
                boolean k = type.key().isReference() && type.key().refType() == RefType.STRONG;
                boolean v = type.value().map(x -> x.isReference() && x.refType() == RefType.STRONG).orElse(false);
                if (k || v) {
                    refCols.add(new int[] {i, k ? 1 : 0, v ? 1 : 0});
                }
            }
            if (refCols.isEmpty()) {
                continue;
            }
            read(t.name()).forEach((u, r) -> {
                for (int[] rc : refCols) {
                    r[rc[0]].entries().forEach((k, v) -> {
                        if (rc[1] == 1 && !u.equals(k)) {
                            refs.merge((UUID) k, 1, Integer::sum);
                        }
                        if (rc[2] == 1 && !u.equals(v)) {
                            refs.merge((UUID) v, 1, Integer::sum);
                        }
                    });
                }
            });
        }
        return refs;
    }

    private static boolean hasRef(ColumnType type, RefType kind) {
        return (type.key().isReference() && type.key().refType() == kind)
                || type.value().map(v -> v.isReference() && v.refType() == kind).orElse(false);
    }

    /** Deletes unreferenced rows of non-root tables, repeatedly; true if any went. */
    private boolean collectGarbage(Map<UUID, Integer> initialRefs) {
        Map<UUID, Integer> refs = initialRefs;
        boolean any = false;
        boolean removed = true;
        while (removed) {
            removed = false;
            for (TableSchema t : db.schema().tables().values()) {
                if (db.schema().isRootTable(t.name())) {
                    continue;
                }
                Map<UUID, Datum[]> rows = read(t.name());
                List<UUID> orphans = new ArrayList<>();
                for (UUID u : rows.keySet()) {
                    if (refs.getOrDefault(u, 0) == 0) {
                        orphans.add(u);
                    }
                }
                if (!orphans.isEmpty()) {
                    orphans.forEach(u -> remove(t.name(), u));
                    removed = true;
                }
            }
            if (removed) {
                any = true;
                refs = strongRefCounts();
            }
        }
        return any;
    }

    /**
     * Drops weak references to rows that do not exist. When no row went away, only rows this
     * transaction wrote can hold such a reference, so only they are looked at.
     */
    private void removeWeakRefs(boolean onlyWritten) throws OvsdbError {
        for (TableSchema t : db.schema().tables().values()) {
            if (onlyWritten && !dirty.containsKey(t.name())) {
                continue;
            }
            List<Integer> weakCols = new ArrayList<>();
            for (int i = 2; i < t.columns().size(); i++) {
                ColumnType type = t.columns().get(i).type();
                boolean k = type.key().isReference() && type.key().refType() == RefType.WEAK;
                boolean v = type.value().map(x -> x.isReference() && x.refType() == RefType.WEAK).orElse(false);
                if (k || v) {
                    weakCols.add(i);
                }
            }
            if (weakCols.isEmpty()) {
                continue;
            }
            Map<UUID, Datum[]> rows = read(t.name());
            Map<UUID, Datum[]> fixed = new LinkedHashMap<>();
            Iterable<UUID> candidates = onlyWritten ? OvsMemberOrder.rows(dirty.get(t.name())) : List.copyOf(rows.keySet());
            for (UUID uuid : candidates) {
                Datum[] r = rows.get(uuid);
                if (r == null) {
                    continue;
                }
                Map.Entry<UUID, Datum[]> e = Map.entry(uuid, r);
                Datum[] copy = null;
                for (int i : weakCols) {
                    ColumnSchema col = t.columns().get(i);
                    ColumnType type = col.type();
                    int dropped = 0;
                    boolean zero = false;
                    for (Map.Entry<Object, Object> en : r[i].entries().entrySet()) {
                        boolean deadKey = weakDead(type.key(), en.getKey());
                        boolean deadValue = type.value().isPresent() && weakDead(type.value().get(), en.getValue());
                        if (deadKey || deadValue) {
                            dropped++;
                            zero |= (deadKey && Database.ZERO.equals(en.getKey())) || (deadValue && Database.ZERO.equals(en.getValue()));
                        }
                    }
                    TreeMap<Object, Object> keep = new TreeMap<>(Datum.ATOM_ORDER);
                    if (dropped > 0) {
                        for (Map.Entry<Object, Object> en : r[i].entries().entrySet()) {
                            if (!weakDead(type.key(), en.getKey())
                                    && !(type.value().isPresent() && weakDead(type.value().get(), en.getValue()))) {
                                keep.put(en.getKey(), en.getValue());
                            }
                        }
                    }
                    if (dropped > 0) {
                        if (keep.size() < type.min()) {
                            boolean insertedHere = !db.rows(t.name()).containsKey(e.getKey());
                            if (zero && insertedHere) {
                                // The all-zeros UUID is a weak reference column's default: ovsdb-server
                                // says so rather than blaming a deleted row.
                                throw OvsdbError.constraint("Weak reference column \"" + col.name() + "\" in \"" + t.name()
                                        + "\" row " + e.getKey() + " (inserted within this transaction) contained all-zeros"
                                        + " UUID (probably as the default value for this column) but deleting this value"
                                        + " caused a constraint volation because this column is not allowed to be empty.");
                            }
                            throw OvsdbError.constraint("Deletion of " + dropped + " weak reference(s) to deleted (or "
                                    + "never-existing) rows from column \"" + col.name() + "\" in \"" + t.name() + "\" row "
                                    + e.getKey() + " " + (insertedHere ? "(inserted within this transaction) " : "")
                                    + "caused this column to become empty, but constraints on this column disallow an "
                                    + "empty column.");
                        }
                        if (copy == null) {
                            copy = r.clone();
                        }
                        copy[i] = r[i].with(keep);
                    }
                }
                if (copy != null) {
                    fixed.put(e.getKey(), copy);
                }
            }
            if (!fixed.isEmpty()) {
                fixed.forEach((u, r) -> put(t.name(), u, r));
            }
        }
    }

    private boolean weakDead(BaseType base, Object atom) {
        return base.isReference() && base.refType() == RefType.WEAK
                && !read(base.refTable().orElseThrow()).containsKey((UUID) atom);
    }

    private List<Database.Change> changes(Set<String> touched) {
        List<Database.Change> changes = new ArrayList<>();
        dirty.forEach((table, uuids) -> {
            Map<UUID, Datum[]> old = db.rows(table);
            LinkedHashMap<UUID, Datum[]> now = work.get(table);
            for (UUID u : OvsMemberOrder.rows(uuids)) {
                Datum[] before = old.get(u);
                Datum[] after = now.get(u);
                if (before == null && after == null) {
                    continue;
                }
                if (after == null || before == null) {
                    changes.add(new Database.Change(table, u, before, after));
                } else if (before != after && (touched.contains(table + "/" + u)
                        || !Arrays.equals(before, 2, before.length, after, 2, before.length))) {
                    changes.add(new Database.Change(table, u, before, after));
                } else if (before != after) {
                    now.put(u, before);
                }
            }
        });
        return changes;
    }

    private void checkIndexes(List<Database.Change> changes) throws OvsdbError {
        Map<String, List<Database.Change>> byTable = new LinkedHashMap<>();
        for (Database.Change c : changes) {
            if (c.neu() != null) {
                byTable.computeIfAbsent(c.table(), k -> new ArrayList<>()).add(c);
            }
        }
        for (Map.Entry<String, List<Database.Change>> e : byTable.entrySet()) {
            TableSchema t = db.schema().table(e.getKey());
            for (List<String> index : t.indexes()) {
                int[] idx = index.stream().mapToInt(t::columnIndex).toArray();
                Map<UUID, Datum[]> rows = read(t.name());
                Set<UUID> changed = new HashSet<>();
                e.getValue().forEach(c -> changed.add(c.uuid()));
                Map<List<Datum>, UUID> untouched = new HashMap<>();
                rows.forEach((u, r) -> {
                    if (!changed.contains(u)) {
                        untouched.put(project(r, idx), u);
                    }
                });
                // As ovsdb-server: each changed row in turn, against the changed rows before it,
                // then against the rows the transaction did not touch.
                Map<List<Datum>, UUID> seen = new HashMap<>();
                for (Database.Change c : e.getValue()) {
                    List<Datum> key = project(c.neu(), idx);
                    UUID prev = seen.get(key);
                    if (prev == null) {
                        prev = untouched.get(key);
                    }
                    if (prev != null) {
                        throw duplicateIndex(t, index, idx, prev, rows.get(prev), c.uuid(), c.neu());
                    }
                    seen.put(key, c.uuid());
                }
            }
        }
    }

    private static List<Datum> project(Datum[] row, int[] idx) {
        List<Datum> key = new ArrayList<>(idx.length);
        for (int i : idx) {
            key.add(row[i]);
        }
        return key;
    }

    private OvsdbError duplicateIndex(TableSchema t, List<String> index, int[] idx, UUID au, Datum[] a, UUID bu, Datum[] b) {
        if (compareRows(t, a, b) < 0) {
            return duplicateIndex(t, index, idx, bu, b, au, a);
        }
        StringBuilder names = new StringBuilder(index.size() > 1 ? "columns " : "column ");
        for (int k = 0; k < index.size(); k++) {
            names.append(k == 0 ? "" : k < index.size() - 1 ? ", " : index.size() > 2 ? ", and " : " and ")
                    .append('"').append(index.get(k)).append('"');
        }
        StringBuilder s = new StringBuilder("Transaction causes multiple rows in \"" + t.name()
                + "\" table to have identical values (" + values(a, idx) + ") for index on " + names + ".  ");
        describe(s, t, idx, au, a, "First");
        s.append("  ");
        describe(s, t, idx, bu, b, "Second");
        return OvsdbError.constraint(s.toString());
    }

    /** ovsdb-server orders the two rows by their columns sorted by name, leaving out uuid columns. */
    private static int compareRows(TableSchema t, Datum[] a, Datum[] b) {
        List<Integer> cols = new ArrayList<>();
        for (int i = 2; i < t.columns().size(); i++) {
            ColumnType type = t.columns().get(i).type();
            if (type.key().type() != AtomicType.UUID && type.value().map(v -> v.type() != AtomicType.UUID).orElse(true)) {
                cols.add(i);
            }
        }
        cols.sort((x, y) -> t.columns().get(x).name().compareTo(t.columns().get(y).name()));
        for (int i : cols) {
            int c = compareDatum(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private void describe(StringBuilder s, TableSchema t, int[] idx, UUID u, Datum[] row, String title) {
        s.append(title).append(" row, with UUID ").append(u).append(", ");
        Datum[] old = db.rows(t.name()).get(u);
        Map<UUID, Datum[]> w = work.get(t.name());
        boolean modified = w != null && w.get(u) != old;
        if (!modified) {
            s.append("existed in the database before this transaction and was not modified by the transaction.");
        } else if (old == null) {
            s.append("was inserted by this transaction.");
        } else if (values(old, idx).equals(values(row, idx))) {
            s.append("existed in the database before this transaction, which modified some of the row's columns but "
                    + "not any columns in this index.");
        } else {
            s.append("had the following index values before the transaction: ").append(values(old, idx)).append('.');
        }
    }

    private static String values(Datum[] row, int[] idx) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < idx.length; k++) {
            s.append(k > 0 ? ", " : "").append(datumString(row[idx[k]]));
        }
        return s.toString();
    }

    /** ovsdb_datum_to_string() for the error texts. */
    static String datumString(Datum d) {
        if (!d.isMap() && d.size() == 1) {
            return Datum.atomToString(d.single());
        }
        StringBuilder s = new StringBuilder(d.isMap() ? "{" : "[");
        int n = 0;
        for (Map.Entry<Object, Object> e : d.entries().entrySet()) {
            s.append(n++ > 0 ? ", " : "").append(Datum.atomToString(e.getKey()));
            if (d.isMap()) {
                s.append('=').append(Datum.atomToString(e.getValue()));
            }
        }
        return s.append(d.isMap() ? "}" : "]").toString();
    }
}
