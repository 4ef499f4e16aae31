package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.PersistentSet;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The mutable state of one {@link IndexSpec}; guarded by the cache's lock.
 *
 * <p>An index holds an entry for (nearly) every cached row, so it keeps no key objects, only the
 * keys' hashes ({@link HashedUuids}); a lookup checks each candidate row's own value, read from the
 * table's rows, so distinct keys with equal hashes never mix.
 */
final class RowIndex {
    private final IndexSpec spec;
    private final int column;
    private final RowTable rows;
    private final HashedUuids entries = new HashedUuids();

    /**
     * Creates an empty index.
     *
     * @param spec what is indexed
     * @param column the indexed column's position
     * @param rows the table's rows by UUID, read to check candidates
     */
    RowIndex(IndexSpec spec, int column, RowTable rows) {
        this.spec = spec;
        this.column = column;
        this.rows = rows;
    }

    IndexSpec spec() {
        return spec;
    }

    void add(Row row) {
        for (Object k : keys(row)) {
            put(k, row.uuid());
        }
    }

    void remove(Row row) {
        for (Object k : keys(row)) {
            entries.remove(HashedUuids.hash(k), row.uuid());
        }
    }

    /** The rows whose current value has {@code key}, in the order they joined; callers hold the cache's lock. */
    List<Row> lookup(Object key) {
        Object under = entries.rowsUnder(HashedUuids.hash(key));
        if (under == null) {
            return List.of();
        }
        if (under instanceof UUID id) {
            // The common answer, one row (a name, a unique key), without a list of candidates.
            Row row = rows.get(id);
            return row != null && has(row, key) ? List.of(row) : List.of();
        }
        @SuppressWarnings("unchecked")
        Collection<UUID> ids = (Collection<UUID>) under;
        List<Row> out = new ArrayList<>(ids.size());
        for (UUID id : ids) {
            Row row = rows.get(id);
            if (row != null && has(row, key)) {
                out.add(row);
            }
        }
        return out;
    }

    /**
     * Moves a row from its old keys to its new ones, touching only keys that differ: a router
     * whose 10,000-element load_balancer set gains one element costs one index update, not 20,000.
     */
    void replace(Row old, Row row) {
        if (old.packedAlike(row, column)) {
            // The indexed column did not change (an update of other columns): nothing moves,
            // found without decoding either row's column.
            return;
        }
        Collection<?> before = keys(old);
        Collection<?> after = keys(row);
        if (before instanceof Set<?> b && after instanceof Set<?> a && !spec.unique()) {
            // A set column (a group's load_balancer, say): move only the keys that changed, found
            // along the persistent sets' shared structure instead of by walking both sets.
            PersistentSet.diff(b, a, k -> {
                // The row stays under this hash if another of its keys has it.
                if (!hasHashCodeOf(a, k)) {
                    entries.remove(HashedUuids.hash(k), old.uuid());
                }
            }, k -> entries.add(HashedUuids.hash(k), row.uuid()));
            return;
        }
        if (before.equals(after)) {
            return;
        }
        Set<?> afterSet = after instanceof Set<?> s ? s : new HashSet<>(after);
        Set<?> beforeSet = before instanceof Set<?> s ? s : new HashSet<>(before);
        Set<Integer> afterHashes = null;
        for (Object k : before) {
            if (!afterSet.contains(k)) {
                if (afterHashes == null) {
                    afterHashes = new HashSet<>();
                    for (Object a : after) {
                        afterHashes.add(HashedUuids.hash(a));
                    }
                }
                int h = HashedUuids.hash(k);
                // The row stays under this hash if another of its keys has it.
                if (!afterHashes.contains(h)) {
                    entries.remove(h, old.uuid());
                }
            }
        }
        for (Object k : after) {
            if (!beforeSet.contains(k) || spec.unique()) {
                put(k, row.uuid());
            }
        }
    }

    private void put(Object key, UUID uuid) {
        int h = HashedUuids.hash(key);
        if (spec.unique()) {
            // A unique index keeps the most recently changed row: the others having the key leave.
            for (Row other : lookup(key)) {
                if (!other.uuid().equals(uuid)) {
                    entries.remove(h, other.uuid());
                }
            }
        }
        entries.add(h, uuid);
    }

    /** Whether a candidate row has the key, tested on its packed column without decoding it. */
    private boolean has(Row row, Object key) {
        if (spec.mapKey() != null) {
            return row.mapEntryEquals(column, spec.mapKey(), key);
        }
        return row.columnContains(column, key);
    }

    /** Whether {@code set} holds an element with {@code key}'s hash code (equal hash codes, equal index hashes). */
    private static boolean hasHashCodeOf(Set<?> set, Object key) {
        int h = key.hashCode();
        if (set instanceof PersistentSet<?> p) {
            return p.containsHashCode(h);
        }
        for (Object e : set) {
            if (e.hashCode() == h) {
                return true;
            }
        }
        return false;
    }

    private Collection<?> keys(Row row) {
        Object v = row.get(column);
        if (spec.mapKey() != null) {
            Object mv = v instanceof Map<?, ?> m ? m.get(spec.mapKey()) : null;
            return mv == null ? List.of() : List.of(mv);
        }
        if (v instanceof Set<?> s) {
            return s;
        }
        return v == null ? List.of() : List.of(v);
    }
}
