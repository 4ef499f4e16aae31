package dev.ovnj.testkit.inmemory;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.RefType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The checks a transaction passes before it commits, in ovsdb_txn_precommit()'s order (ovsdb-server's
 * transaction.c): referential integrity of strong references, garbage collection of unreferenced
 * non-root rows, maxRows, removal of weak references to rows that are gone, and unique indexes.
 * They may still change the working copy (collected rows, dropped weak references, new
 * {@code _version}s). One instance checks one transaction.
 */
final class CommitChecks {
    private final Database db;
    private final Map<String, LinkedHashMap<UUID, Datum[]>> work;
    private final Map<String, LinkedHashSet<UUID>> dirty;
    private final WorkingTables tables;

    CommitChecks(WorkingTables tables) {
        this.tables = tables;
        this.db = tables.db();
        this.work = tables.written();
        this.dirty = tables.dirty();
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

    /**
     * Runs the checks and returns the changes to commit, each modified row with a new
     * {@code _version}.
     *
     * @throws OvsdbError the first check that failed, with ovsdb-server's error and text
     */
    List<Database.Change> run() throws OvsdbError {
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
        boolean rowsGone = tables.removedAny();
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
            int c = Datum.compare(a[i], b[i]);
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
