package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.Row;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The mutable state of one {@link IndexSpec}; guarded by the cache's lock.
 *
 * <p>An index holds an entry for (nearly) every cached row, so entries are kept small: a key that
 * one row has, the usual case, maps to that row's {@link UUID} itself; only a key shared by several
 * rows maps to a (mutable, insertion-ordered) set of them.
 */
final class RowIndex {
    private final IndexSpec spec;
    private final int column;
    // Values: a UUID, or a LinkedHashSet<UUID> of two or more.
    private final Map<Object, Object> entries = new HashMap<>();

    RowIndex(IndexSpec spec, int column) {
        this.spec = spec;
        this.column = column;
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
            removeFrom(k, row.uuid());
        }
    }

    /** The rows for a key; callers hold the cache's lock and copy what they keep. */
    @SuppressWarnings("unchecked")
    Collection<UUID> get(Object key) {
        Object v = entries.get(key);
        if (v == null) {
            return List.of();
        }
        return v instanceof UUID u ? List.of(u) : (Set<UUID>) v;
    }

    /**
     * Moves a row from its old keys to its new ones, touching only keys that differ: a router
     * whose 10,000-element load_balancer set gains one element costs one index update, not 20,000.
     */
    void replace(Row old, Row row) {
        Collection<?> before = keys(old);
        Collection<?> after = keys(row);
        if (before.equals(after)) {
            return;
        }
        Set<?> afterSet = after instanceof Set<?> s ? s : new java.util.HashSet<>(after);
        Set<?> beforeSet = before instanceof Set<?> s ? s : new java.util.HashSet<>(before);
        for (Object k : before) {
            if (!afterSet.contains(k)) {
                removeFrom(k, old.uuid());
            }
        }
        for (Object k : after) {
            if (!beforeSet.contains(k) || spec.unique()) {
                put(k, row.uuid());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void put(Object key, UUID uuid) {
        Object v = entries.get(key);
        if (v == null || spec.unique()) {
            // A unique index keeps the most recently changed row.
            entries.put(key, uuid);
        } else if (v instanceof UUID u) {
            if (!u.equals(uuid)) {
                Set<UUID> set = new LinkedHashSet<>(4);
                set.add(u);
                set.add(uuid);
                entries.put(key, set);
            }
        } else {
            ((Set<UUID>) v).add(uuid);
        }
    }

    @SuppressWarnings("unchecked")
    private void removeFrom(Object key, UUID uuid) {
        Object v = entries.get(key);
        if (v instanceof UUID u) {
            if (u.equals(uuid)) {
                entries.remove(key);
            }
        } else if (v != null) {
            Set<UUID> set = (Set<UUID>) v;
            set.remove(uuid);
            if (set.size() == 1) {
                entries.put(key, set.iterator().next());
            }
        }
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
