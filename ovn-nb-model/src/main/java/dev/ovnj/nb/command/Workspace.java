package dev.ovnj.nb.command;

import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Update;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The database as one command list sees it, as ovn-nbctl's IDL replica does: the client's cache
 * read once per row, overlaid with the rows the list inserted, changed and deleted so far. It
 * turns into one transaction at the end. A row deleted from a non-root table is not sent (the
 * server collects it once unreferenced, as ovn-nbctl's IDL leaves it to do).
 */
final class Workspace {
    private final DatabaseSchema schema;
    private final RowCache cache;
    // Current values of rows read or written, per table, by UUID (complete rows).
    private final Map<String, Map<UUID, Map<String, Object>>> touched = new HashMap<>();
    private final Map<UUID, Set<String>> changedColumns = new LinkedHashMap<>();
    // Element additions (true) and removals (false) not yet visible to reads, per row and column,
    // as ovn-nbctl's IDL keeps its partial set updates (update_*_addvalue / _delvalue) until commit.
    private final Map<UUID, Map<String, List<Map.Entry<Object, Boolean>>>> pending = new HashMap<>();
    private final Map<UUID, String> inserted = new LinkedHashMap<>();
    private final Map<UUID, String> deleted = new LinkedHashMap<>();
    // Live rows by their "name" column, per table, built on a table's first lookup and kept up to
    // date by this list's writes, so a command list scans a table once, not once per lookup.
    private final Map<String, Map<String, List<UUID>>> byName = new HashMap<>();
    // The cache table's version each index was built at: a change arriving meanwhile rebuilds it.
    private final Map<String, Long> byNameVersion = new HashMap<>();

    Workspace(DatabaseSchema schema, RowCache cache) {
        this.schema = schema;
        this.cache = cache;
    }

    DatabaseSchema schema() {
        return schema;
    }

    TableSchema table(String name) {
        return schema.findTable(name).orElseThrow(() -> new NbctlException("unknown table \"" + name + "\""));
    }

    boolean hasColumn(String table, String column) {
        return schema.findTable(table).flatMap(t -> t.findColumn(column)).isPresent();
    }

    /** The live rows of a table, cache order first, then rows this list inserted. */
    List<UUID> uuids(String table) {
        List<UUID> out = new ArrayList<>();
        cache.findTable(table).ifPresent(t -> {
            for (Row r : t.rows()) {
                if (!deleted.containsKey(r.uuid())) {
                    out.add(r.uuid());
                }
            }
        });
        inserted.forEach((uuid, t) -> {
            if (t.equals(table) && !deleted.containsKey(uuid)) {
                out.add(uuid);
            }
        });
        return out;
    }

    /** The live rows of a table whose {@code name} is {@code name}, in {@link #uuids} order. */
    List<UUID> named(String table, String name) {
        Map<String, List<UUID>> index = byName.get(table);
        long version = cache.findTable(table).map(TableCache::version).orElse(-1L);
        if (index == null || byNameVersion.get(table) != version) {
            byNameVersion.put(table, version);
            index = new HashMap<>();
            if (hasColumn(table, "name")) {
                for (UUID u : uuids(table)) {
                    Object n = get(table, u, "name");
                    if (n instanceof String key) {
                        index.computeIfAbsent(key, k -> new ArrayList<>()).add(u);
                    }
                }
            }
            byName.put(table, index);
        }
        List<UUID> rows = index.get(name);
        return rows == null ? List.of() : rows.stream().filter(u -> exists(table, u)).toList();
    }

    private void unindex(String table, UUID uuid) {
        Map<String, List<UUID>> index = byName.get(table);
        if (index != null) {
            index.values().forEach(rows -> rows.remove(uuid));
        }
    }

    private void index(String table, UUID uuid, Object name) {
        Map<String, List<UUID>> index = byName.get(table);
        if (index != null && name instanceof String key) {
            index.computeIfAbsent(key, k -> new ArrayList<>()).add(uuid);
        }
    }

    /**
     * Whether a set column holds {@code atom} once this list's pending additions and removals are
     * applied; {@link #effectiveSet} without copying the set.
     */
    boolean effectiveContains(String table, UUID uuid, String column, Object atom) {
        boolean in = set(table, uuid, column).contains(atom);
        Map<String, List<Map.Entry<Object, Boolean>>> p = pending.get(uuid);
        if (p != null && p.containsKey(column)) {
            for (Map.Entry<Object, Boolean> op : p.get(column)) {
                if (op.getKey().equals(atom)) {
                    in = op.getValue();
                }
            }
        }
        return in;
    }

    boolean exists(String table, UUID uuid) {
        if (deleted.containsKey(uuid)) {
            return false;
        }
        if (table.equals(inserted.get(uuid))) {
            return true;
        }
        return cache.findTable(table).flatMap(t -> t.get(uuid)).isPresent();
    }

    /** The table holding a live row with this UUID, or null. */
    String tableOf(UUID uuid) {
        if (deleted.containsKey(uuid)) {
            return null;
        }
        if (inserted.containsKey(uuid)) {
            return inserted.get(uuid);
        }
        for (String t : schema.tables().keySet()) {
            if (cache.findTable(t).flatMap(c -> c.get(uuid)).isPresent()) {
                return t;
            }
        }
        return null;
    }

    private Map<String, Object> values(String table, UUID uuid) {
        Map<UUID, Map<String, Object>> rows = touched.computeIfAbsent(table, t -> new HashMap<>());
        Map<String, Object> row = rows.get(uuid);
        if (row == null) {
            TableCache t = cache.findTable(table).orElseThrow();
            Row r = t.get(uuid).orElseThrow(() -> new IllegalStateException(table + " row " + uuid + " vanished"));
            row = new HashMap<>();
            for (ColumnSchema c : table(table).columns()) {
                if (!c.isImplicit()) {
                    row.put(c.name(), r.get(c.name()));
                }
            }
            rows.put(uuid, row);
        }
        return row;
    }

    /** A column of a live row. */
    Object get(String table, UUID uuid, String column) {
        if (column.equals("_uuid")) {
            return uuid;
        }
        if (!hasColumn(table, column)) {
            throw new NbctlException(table + " column " + column + " is not in this database's schema ("
                    + Releases.describe(schema) + ")");
        }
        Map<UUID, Map<String, Object>> rows = touched.get(table);
        Map<String, Object> row = rows == null ? null : rows.get(uuid);
        if (row != null) {
            return row.get(column);
        }
        // An untouched row is read in place from the cache: lookups scan many rows, and decode
        // only the column they compare.
        return cache.findTable(table).orElseThrow().get(uuid)
                .orElseThrow(() -> new IllegalStateException(table + " row " + uuid + " vanished")).get(column);
    }

    String string(String table, UUID uuid, String column) {
        Object v = get(table, uuid, column);
        return v instanceof String s ? s : null;
    }

    /** An optional column's value or null. */
    Object optional(String table, UUID uuid, String column) {
        if (!hasColumn(table, column)) {
            return null;
        }
        Set<?> s = (Set<?>) get(table, uuid, column);
        return s.isEmpty() ? null : s.iterator().next();
    }

    @SuppressWarnings("unchecked")
    Set<Object> set(String table, UUID uuid, String column) {
        if (!hasColumn(table, column)) {
            return Set.of();
        }
        return (Set<Object>) get(table, uuid, column);
    }

    @SuppressWarnings("unchecked")
    Map<Object, Object> map(String table, UUID uuid, String column) {
        if (!hasColumn(table, column)) {
            return Map.of();
        }
        return (Map<Object, Object>) get(table, uuid, column);
    }

    /** Inserts a row with these values (others get their defaults); returns its provisional UUID. */
    UUID insert(String table, Map<String, Object> columns) {
        return insert(table, columns, UUID.randomUUID());
    }

    /** Inserts a row under a provisional UUID chosen by the caller (a {@code --id=@name} symbol). */
    UUID insert(String table, Map<String, Object> columns, UUID uuid) {
        TableSchema t = table(table);
        Map<String, Object> row = new HashMap<>();
        for (ColumnSchema c : t.columns()) {
            if (!c.isImplicit()) {
                row.put(c.name(), ValueCodec.defaultValue(c.type()));
            }
        }
        touched.computeIfAbsent(table, x -> new HashMap<>()).put(uuid, row);
        inserted.put(uuid, table);
        columns.forEach((k, v) -> write(table, uuid, k, v));
        return uuid;
    }

    /** Writes a whole column of a live row. */
    void write(String table, UUID uuid, String column, Object value) {
        if (!hasColumn(table, column)) {
            throw new NbctlException(table + " column " + column + " is not in this database's schema ("
                    + Releases.describe(schema) + ")");
        }
        if (column.equals("name")) {
            unindex(table, uuid);
            index(table, uuid, value);
        }
        values(table, uuid).put(column, value);
        changedColumns.computeIfAbsent(uuid, u -> new LinkedHashSet<>()).add(column);
        Map<String, List<Map.Entry<Object, Boolean>>> p = pending.get(uuid);
        if (p != null) {
            p.remove(column);
        }
    }

    /**
     * Adds an element to a set column at commit; reads in this list keep seeing the set without it
     * (ovn-nbctl's partial update), except {@link #effectiveSet}.
     */
    void addToSet(String table, UUID uuid, String column, Object atom) {
        partial(table, uuid, column, atom, true);
    }

    /** Removes an element from a set column at commit, like {@link #addToSet}. */
    void removeFromSet(String table, UUID uuid, String column, Object atom) {
        partial(table, uuid, column, atom, false);
    }

    private void partial(String table, UUID uuid, String column, Object atom, boolean add) {
        if (!hasColumn(table, column)) {
            throw new NbctlException(table + " column " + column + " is not in this database's schema ("
                    + Releases.describe(schema) + ")");
        }
        values(table, uuid);
        changedColumns.computeIfAbsent(uuid, u -> new LinkedHashSet<>()).add(column);
        pending.computeIfAbsent(uuid, u -> new HashMap<>()).computeIfAbsent(column, c -> new ArrayList<>())
                .add(Map.entry(atom, add));
    }

    /** A set column with this list's pending additions and removals applied. */
    Set<Object> effectiveSet(String table, UUID uuid, String column) {
        return withPending(uuid, column, set(table, uuid, column));
    }

    @SuppressWarnings("unchecked")
    private Set<Object> withPending(UUID uuid, String column, Object visible) {
        Set<Object> s = new LinkedHashSet<>((Set<Object>) visible);
        Map<String, List<Map.Entry<Object, Boolean>>> p = pending.get(uuid);
        if (p != null && p.containsKey(column)) {
            for (Map.Entry<Object, Boolean> op : p.get(column)) {
                if (op.getValue()) {
                    s.add(op.getKey());
                } else {
                    s.remove(op.getKey());
                }
            }
        }
        return s;
    }

    private Object committed(UUID uuid, String column, Object visible) {
        Map<String, List<Map.Entry<Object, Boolean>>> p = pending.get(uuid);
        return p != null && p.containsKey(column) ? Set.copyOf(withPending(uuid, column, visible)) : visible;
    }

    void delete(String table, UUID uuid) {
        unindex(table, uuid);
        deleted.put(uuid, table);
    }

    boolean isInserted(UUID uuid) {
        return inserted.containsKey(uuid) && !deleted.containsKey(uuid);
    }

    static String uuidName(UUID uuid) {
        return "row" + uuid.toString().replace('-', '_');
    }

    /** The operations that make the database what this list left, in one transaction. */
    List<Operation> operations() {
        List<Operation> ops = new ArrayList<>();
        Set<UUID> live = new HashSet<>();
        inserted.forEach((uuid, table) -> {
            if (!deleted.containsKey(uuid)) {
                live.add(uuid);
            }
        });
        for (Map.Entry<UUID, String> e : inserted.entrySet()) {
            UUID uuid = e.getKey();
            if (!live.contains(uuid)) {
                continue;
            }
            TableSchema t = table(e.getValue());
            Map<String, Object> row = new LinkedHashMap<>();
            Map<String, Object> values = touched.get(e.getValue()).get(uuid);
            for (ColumnSchema c : t.columns()) {
                if (c.isImplicit()) {
                    continue;
                }
                Object v = committed(uuid, c.name(), values.get(c.name()));
                if (!v.equals(ValueCodec.defaultValue(c.type()))) {
                    row.put(c.name(), named(v, live));
                }
            }
            ops.add(new Insert(e.getValue(), row, java.util.Optional.of(uuidName(uuid)), java.util.Optional.empty()));
        }
        for (Map.Entry<UUID, Set<String>> e : changedColumns.entrySet()) {
            UUID uuid = e.getKey();
            if (inserted.containsKey(uuid) || deleted.containsKey(uuid)) {
                continue;
            }
            String table = tableOfTouched(uuid);
            Map<String, Object> values = touched.get(table).get(uuid);
            Update u = Operations.update(table).where(Condition.eq("_uuid", uuid));
            for (String column : e.getValue()) {
                u = u.set(column, named(committed(uuid, column, values.get(column)), live));
            }
            ops.add(u);
        }
        for (Map.Entry<UUID, String> e : deleted.entrySet()) {
            if (!inserted.containsKey(e.getKey()) && schema.isRootTable(e.getValue())) {
                ops.add(Operations.delete(e.getValue()).where(Condition.eq("_uuid", e.getKey())));
            }
        }
        return ops;
    }

    private String tableOfTouched(UUID uuid) {
        for (Map.Entry<String, Map<UUID, Map<String, Object>>> e : touched.entrySet()) {
            if (e.getValue().containsKey(uuid)) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("untouched row " + uuid);
    }

    /** Replaces references to rows inserted here by their uuid-names; drops references to deleted inserts. */
    private Object named(Object value, Set<UUID> live) {
        if (value instanceof UUID u) {
            return inserted.containsKey(u) ? new NamedUuid(uuidName(u)) : u;
        }
        if (value instanceof Set<?> s) {
            return s.stream().filter(a -> !(a instanceof UUID u && inserted.containsKey(u) && !live.contains(u)))
                    .map(a -> named(a, live)).collect(Collectors.toUnmodifiableSet());
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                if (!(v instanceof UUID u && inserted.containsKey(u) && !live.contains(u))) {
                    out.put(named(k, live), named(v, live));
                }
            });
            return Map.copyOf(out);
        }
        return value;
    }

    /** Provisional UUIDs of inserted rows by their uuid-names, to print the real ones after commit. */
    Map<String, UUID> insertedNames() {
        Map<String, UUID> out = new LinkedHashMap<>();
        inserted.keySet().forEach(u -> out.put(uuidName(u), u));
        return out;
    }
}
