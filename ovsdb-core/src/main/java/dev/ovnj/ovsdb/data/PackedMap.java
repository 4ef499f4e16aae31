package dev.ovnj.ovsdb.data;

import dev.ovnj.ovsdb.schema.AtomicType;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An immutable map column read from a row's packed bytes ({@link PackedColumns}) without decoding
 * it first: {@link #get} of a string key compares the packed keys in place and decodes only the
 * value it returns (the engine reads one key, its owner, of every load balancer's
 * {@code external_ids} on each pass); iteration decodes entries as it goes. The bytes belong to an
 * immutable row and never change. Equal to any {@link Map} with the same entries.
 */
final class PackedMap extends AbstractMap<Object, Object> {
    private final byte[] bytes;
    // Where the first key starts, and how many entries follow.
    private final int start;
    private final int count;
    private final AtomicType keyType;
    private final AtomicType valueType;

    PackedMap(byte[] bytes, int start, int count, AtomicType keyType, AtomicType valueType) {
        this.bytes = bytes;
        this.start = start;
        this.count = count;
        this.keyType = keyType;
        this.valueType = valueType;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public boolean isEmpty() {
        return count == 0;
    }

    /** Where the value of the entry whose key equals {@code key} starts, or -1. */
    private int valueAt(Object key) {
        // Null queries fail, as they do on Map.of.
        Objects.requireNonNull(key, "key");
        int pos = start;
        if (key instanceof String s && keyType == AtomicType.STRING) {
            for (int k = 0; k < count; k++) {
                int value = PackedColumns.skipAtom(bytes, pos, keyType);
                if (PackedColumns.stringEquals(bytes, pos, s)) {
                    return value;
                }
                pos = PackedColumns.skipAtom(bytes, value, valueType);
            }
            return -1;
        }
        if (!keyType.javaType().isInstance(key) && !(key instanceof NamedUuid)) {
            return -1;
        }
        for (int k = 0; k < count; k++) {
            int value = PackedColumns.skipAtom(bytes, pos, keyType);
            if (key.equals(PackedColumns.readAtom(bytes, pos, keyType))) {
                return value;
            }
            pos = PackedColumns.skipAtom(bytes, value, valueType);
        }
        return -1;
    }

    @Override
    public Object get(Object key) {
        int at = valueAt(key);
        return at < 0 ? null : PackedColumns.readAtom(bytes, at, valueType);
    }

    @Override
    public boolean containsKey(Object key) {
        return valueAt(key) >= 0;
    }

    /**
     * Compares in place: each of the other map's keys is found among the packed keys and its value
     * compared with the packed value, decoding no string (the planner compares every cached load
     * balancer's {@code external_ids} and {@code options} with the desired ones on each pass).
     */
    @Override
    public boolean equals(Object other) {
        if (other == this) {
            return true;
        }
        if (!(other instanceof Map<?, ?> map) || map.size() != count) {
            return false;
        }
        try {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object key = e.getKey();
                Object value = e.getValue();
                if (key == null || value == null) {
                    return false;
                }
                int at = valueAt(key);
                if (at < 0 || !atomEquals(at, value)) {
                    return false;
                }
            }
        } catch (ClassCastException e) {
            return false;
        }
        return true;
    }

    // hashCode: AbstractMap's, the sum of the decoded entries' hashes, as the Map contract asks.

    private boolean atomEquals(int pos, Object atom) {
        if (atom instanceof String s && valueType == AtomicType.STRING) {
            return PackedColumns.stringEquals(bytes, pos, s);
        }
        return atom.equals(PackedColumns.readAtom(bytes, pos, valueType));
    }

    @Override
    public boolean containsValue(Object value) {
        Objects.requireNonNull(value, "value");
        return super.containsValue(value);
    }

    @Override
    public void forEach(BiConsumer<? super Object, ? super Object> action) {
        int pos = start;
        for (int k = 0; k < count; k++) {
            Object key = PackedColumns.readAtom(bytes, pos, keyType);
            pos = PackedColumns.skipAtom(bytes, pos, keyType);
            Object value = PackedColumns.readAtom(bytes, pos, valueType);
            pos = PackedColumns.skipAtom(bytes, pos, valueType);
            action.accept(key, value);
        }
    }

    // Immutable as Map.of is: every mutator fails, whether or not it would change anything.

    @Override
    public Object put(Object key, Object value) {
        throw immutable();
    }

    @Override
    public Object remove(Object key) {
        throw immutable();
    }

    @Override
    public void putAll(Map<?, ?> m) {
        throw immutable();
    }

    @Override
    public void clear() {
        throw immutable();
    }

    @Override
    public boolean remove(Object key, Object value) {
        throw immutable();
    }

    @Override
    public Object putIfAbsent(Object key, Object value) {
        throw immutable();
    }

    @Override
    public boolean replace(Object key, Object oldValue, Object newValue) {
        throw immutable();
    }

    @Override
    public Object replace(Object key, Object value) {
        throw immutable();
    }

    @Override
    public void replaceAll(BiFunction<? super Object, ? super Object, ?> function) {
        throw immutable();
    }

    @Override
    public Object computeIfAbsent(Object key, Function<? super Object, ?> mappingFunction) {
        throw immutable();
    }

    @Override
    public Object computeIfPresent(Object key, BiFunction<? super Object, ? super Object, ?> remappingFunction) {
        throw immutable();
    }

    @Override
    public Object compute(Object key, BiFunction<? super Object, ? super Object, ?> remappingFunction) {
        throw immutable();
    }

    @Override
    public Object merge(Object key, Object value, BiFunction<? super Object, ? super Object, ?> remappingFunction) {
        throw immutable();
    }

    private static UnsupportedOperationException immutable() {
        return new UnsupportedOperationException("a row's map is immutable");
    }

    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return count;
            }

            @Override
            public Iterator<Map.Entry<Object, Object>> iterator() {
                return new Iterator<>() {
                    private int pos = start;
                    private int left = count;

                    @Override
                    public boolean hasNext() {
                        return left > 0;
                    }

                    @Override
                    public Map.Entry<Object, Object> next() {
                        if (left == 0) {
                            throw new NoSuchElementException();
                        }
                        left--;
                        Object key = PackedColumns.readAtom(bytes, pos, keyType);
                        int value = PackedColumns.skipAtom(bytes, pos, keyType);
                        pos = PackedColumns.skipAtom(bytes, value, valueType);
                        return new Entry(key, value);
                    }
                };
            }
        };
    }

    /**
     * An entry whose value is decoded when asked for: a walk over the keys (a load balancer's
     * VIPs) does not decode the values (their backend lists).
     */
    private final class Entry implements Map.Entry<Object, Object> {
        private final Object key;
        private final int value;

        Entry(Object key, int value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public Object getKey() {
            return key;
        }

        @Override
        public Object getValue() {
            return PackedColumns.readAtom(bytes, value, valueType);
        }

        @Override
        public Object setValue(Object v) {
            throw immutable();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Map.Entry<?, ?> e && key.equals(e.getKey()) && e.getValue() != null
                    && atomEquals(value, e.getValue());
        }

        @Override
        public int hashCode() {
            return key.hashCode() ^ getValue().hashCode();
        }

        @Override
        public String toString() {
            return key + "=" + getValue();
        }
    }
}
