package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.PersistentSet;
import dev.ovnj.ovsdb.data.Row;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** The mutable state of one {@link IndexSpec}; guarded by the cache's lock. */
final class RowIndex {
    private final IndexSpec spec;
    private final int column;
    private final Map<Object, Set<UUID>> entries = new HashMap<>();

    RowIndex(IndexSpec spec, int column) {
        this.spec = spec;
        this.column = column;
    }

    IndexSpec spec() {
        return spec;
    }

    void add(Row row) {
        for (Object k : keys(row)) {
            Set<UUID> set = entries.computeIfAbsent(k, x -> new LinkedHashSet<>(2));
            if (spec.unique()) {
                set.clear();
            }
            set.add(row.uuid());
        }
    }

    void remove(Row row) {
        for (Object k : keys(row)) {
            Set<UUID> set = entries.get(k);
            if (set != null) {
                set.remove(row.uuid());
                if (set.isEmpty()) {
                    entries.remove(k);
                }
            }
        }
    }

    /** The live set for a key; callers hold the cache's lock and copy what they keep. */
    Set<UUID> get(Object key) {
        Set<UUID> set = entries.get(key);
        return set == null ? Set.of() : set;
    }

    /**
     * Moves a row from its old keys to its new ones, touching only keys that differ: a router
     * whose 10,000-element load_balancer set gains one element costs one index update, not 20,000.
     */
    void replace(Row old, Row row) {
        Collection<?> before = keys(old);
        Collection<?> after = keys(row);
        if (before instanceof PersistentSet<?> b && after instanceof PersistentSet<?> a && !spec.unique()) {
            // A big set after a diff shares all but the changed paths with the old one: walk those
            // instead of comparing and scanning both sets (2 x 10,000 lookups per one-element change).
            PersistentSet.difference(b, a, k -> {
                if (a.contains(k)) {
                    entries.computeIfAbsent(k, x -> new LinkedHashSet<>(2)).add(row.uuid());
                } else {
                    dropKey(k, old.uuid());
                }
            });
            return;
        }
        if (before.equals(after)) {
            return;
        }
        Set<?> afterSet = after instanceof Set<?> s ? s : new java.util.HashSet<>(after);
        Set<?> beforeSet = before instanceof Set<?> s ? s : new java.util.HashSet<>(before);
        for (Object k : before) {
            if (!afterSet.contains(k)) {
                dropKey(k, old.uuid());
            }
        }
        for (Object k : after) {
            if (!beforeSet.contains(k) || spec.unique()) {
                Set<UUID> set = entries.computeIfAbsent(k, x -> new LinkedHashSet<>(2));
                if (spec.unique()) {
                    set.clear();
                }
                set.add(row.uuid());
            }
        }
    }

    private void dropKey(Object k, UUID uuid) {
        Set<UUID> set = entries.get(k);
        if (set != null) {
            set.remove(uuid);
            if (set.isEmpty()) {
                entries.remove(k);
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
