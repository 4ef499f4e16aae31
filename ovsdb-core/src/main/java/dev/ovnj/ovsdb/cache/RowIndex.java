package dev.ovnj.ovsdb.cache;

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

    Set<UUID> get(Object key) {
        Set<UUID> set = entries.get(key);
        return set == null ? Set.of() : Set.copyOf(set);
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
