package dev.ovnj.ovsdb.data;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Shares equal values among the rows of one cache, so that a string repeated in many rows is held
 * once: enum atoms (e.g. {@code Load_Balancer.protocol}'s {@code "tcp"}, and the one-element set
 * holding it), map keys (e.g. {@code external_ids} keys) and map values that repeat per key (e.g. an
 * owner's name under {@code ovnj.owner}). A {@link Row} packs small values into its bytes, which hold
 * no objects to share; the cache shares the values a row keeps as objects (sets and maps of more
 * than {@value PackedColumns#INLINE_MAX} elements).
 *
 * <p>Sharing is adaptive, because interning a value that never repeats costs an entry and saves
 * nothing: the keys of each map column, and the values under each key, are interned while at least
 * a quarter of the first {@value #PROBE} lookups found an equal value already held; a column or key
 * below that (e.g. {@code vips}, whose keys are distinct VIPs) is left alone from then on. The
 * interner holds at most {@value #CAPACITY} strings. Safe for concurrent use.
 */
public final class Interner {
    /** Lookups after which a column's (or a key's) hit rate decides whether it stays interned. */
    static final int PROBE = 512;
    /** The most strings one interner holds. */
    static final int CAPACITY = 65_536;
    /** The most map keys per column whose values are probed. */
    private static final int KEYS_PER_COLUMN = 256;

    private final ConcurrentHashMap<String, String> strings = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Set<Object>> singletons = new ConcurrentHashMap<>();

    /** Creates an empty interner. */
    public Interner() {
    }

    /**
     * Returns the sharing state for the rows of one table.
     *
     * @param table the table's schema
     * @return the table's sharing state, holding its own per-column statistics
     */
    public Table table(TableSchema table) {
        return new Table(table);
    }

    /** The number of strings held, for tests and diagnostics. */
    int size() {
        return strings.size();
    }

    private String intern(String s, Probe probe) {
        String held = strings.get(s);
        if (held == null && strings.size() < CAPACITY) {
            held = strings.putIfAbsent(s, s);
        }
        if (probe != null) {
            probe.record(held != null);
        }
        return held == null ? s : held;
    }

    /**
     * The sharing state of one table's columns; obtained from {@link Interner#table(TableSchema)}.
     */
    public final class Table {
        private final TableSchema schema;
        private final Probe[] keys;
        private final List<Map<String, Probe>> values;

        private Table(TableSchema schema) {
            this.schema = schema;
            int n = schema.columns().size();
            this.keys = new Probe[n];
            List<Map<String, Probe>> byColumn = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                keys[i] = new Probe();
                byColumn.add(new ConcurrentHashMap<>());
            }
            this.values = List.copyOf(byColumn);
        }

        /**
         * Returns a value equal to {@code value} whose parts are shared with earlier rows where
         * they repeat; {@code value} itself when nothing is shared.
         *
         * @param column the column's position in the table schema
         * @param value a decoded value of that column (see {@link ValueCodec})
         * @return an equal value
         */
        public Object share(int column, Object value) {
            ColumnType type = schema.columns().get(column).type();
            if (type.isMap()) {
                return value instanceof Map<?, ?> map && !map.isEmpty() ? shareMap(column, type, map) : value;
            }
            if (!isEnumString(type.key())) {
                return value;
            }
            if (value instanceof String s) {
                return intern(s, null);
            }
            if (value instanceof Set<?> set && set.size() == 1 && set.iterator().next() instanceof String s) {
                String atom = intern(s, null);
                return singletons.computeIfAbsent(atom, Set::of);
            }
            return value;
        }

        private Object shareMap(int column, ColumnType type, Map<?, ?> map) {
            boolean stringKeys = type.key().type() == AtomicType.STRING;
            boolean stringValues = type.value().orElseThrow().type() == AtomicType.STRING;
            Probe keyProbe = keys[column];
            if (!stringKeys || !keyProbe.enabled()) {
                return map;
            }
            Map<Object, Object> shared = new HashMap<>(map.size() * 2);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = intern((String) e.getKey(), keyProbe);
                Object v = e.getValue();
                if (stringValues) {
                    Probe valueProbe = valueProbe(column, key);
                    if (valueProbe != null && valueProbe.enabled()) {
                        v = intern((String) v, valueProbe);
                    }
                }
                shared.put(key, v);
            }
            return SingleEntryMap.compact(Map.copyOf(shared));
        }

        private Probe valueProbe(int column, String key) {
            Map<String, Probe> probes = values.get(column);
            Probe p = probes.get(key);
            if (p == null && probes.size() < KEYS_PER_COLUMN) {
                p = probes.computeIfAbsent(key, k -> new Probe());
            }
            return p;
        }
    }

    private static boolean isEnumString(BaseType base) {
        return base.type() == AtomicType.STRING && base.enumValues().isPresent();
    }

    /** Whether interning pays for one column or key: decided once, after the first lookups. */
    private static final class Probe {
        private final AtomicInteger tries = new AtomicInteger();
        private final AtomicInteger hits = new AtomicInteger();
        private volatile boolean disabled;

        boolean enabled() {
            return !disabled;
        }

        void record(boolean hit) {
            if (hit) {
                hits.incrementAndGet();
            }
            if (tries.incrementAndGet() == PROBE && hits.get() * 4 < PROBE) {
                disabled = true;
            }
        }
    }
}
