package dev.ovnj.ovsdb.data;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An immutable map of one entry that behaves as {@code Map.of(key, value)} does, in 24 bytes
 * instead of 32: it implements {@link Map} directly, without the two view fields that
 * {@link java.util.AbstractMap} adds to every instance. {@link ValueCodec} decodes map values of one
 * entry (a load balancer's single VIP, say) into one; a cached {@link Row} packs its maps instead
 * and reads them back as {@link PackedMap}s.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class SingleEntryMap<K, V> implements Map<K, V> {
    private final K key;
    private final V value;

    /**
     * Creates the map.
     *
     * @param key the key, not null
     * @param value the value, not null
     */
    SingleEntryMap(K key, V value) {
        this.key = Objects.requireNonNull(key, "key");
        this.value = Objects.requireNonNull(value, "value");
    }

    /**
     * The map of one entry for a map of one entry; any other map unchanged.
     *
     * @param map an immutable map
     * @param <K> the key type
     * @param <V> the value type
     * @return an equal immutable map
     */
    static <K, V> Map<K, V> compact(Map<K, V> map) {
        if (map.size() != 1 || map instanceof SingleEntryMap) {
            return map;
        }
        Map.Entry<K, V> e = map.entrySet().iterator().next();
        return new SingleEntryMap<>(e.getKey(), e.getValue());
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public boolean isEmpty() {
        return false;
    }

    @Override
    public boolean containsKey(Object k) {
        return k.equals(key);
    }

    @Override
    public boolean containsValue(Object v) {
        return v.equals(value);
    }

    @Override
    public V get(Object k) {
        return k.equals(key) ? value : null;
    }

    @Override
    public V getOrDefault(Object k, V defaultValue) {
        return k.equals(key) ? value : defaultValue;
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        action.accept(key, value);
    }

    @Override
    public Set<K> keySet() {
        return Set.of(key);
    }

    @Override
    public Collection<V> values() {
        return List.of(value);
    }

    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        return Set.of(Map.entry(key, value));
    }

    @Override
    public V put(K k, V v) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V remove(Object k) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void putAll(Map<? extends K, ? extends V> m) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException();
    }

    @Override
    public V putIfAbsent(K k, V v) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean remove(Object k, Object v) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean replace(K k, V oldValue, V newValue) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V replace(K k, V v) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void replaceAll(BiFunction<? super K, ? super V, ? extends V> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V computeIfAbsent(K k, Function<? super K, ? extends V> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V computeIfPresent(K k, BiFunction<? super K, ? super V, ? extends V> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V compute(K k, BiFunction<? super K, ? super V, ? extends V> function) {
        throw new UnsupportedOperationException();
    }

    @Override
    public V merge(K k, V v, BiFunction<? super V, ? super V, ? extends V> function) {
        throw new UnsupportedOperationException();
    }

    /** As {@link java.util.AbstractMap#equals}: a map of one equal entry, whatever its class. */
    @Override
    public boolean equals(Object other) {
        if (other == this) {
            return true;
        }
        if (!(other instanceof Map<?, ?> m) || m.size() != 1) {
            return false;
        }
        try {
            return value.equals(m.get(key));
        } catch (ClassCastException | NullPointerException unused) {
            // The other map cannot hold such a key (a sorted map of other keys, say).
            return false;
        }
    }

    @Override
    public int hashCode() {
        return key.hashCode() ^ value.hashCode();
    }

    @Override
    public String toString() {
        return "{" + key + "=" + value + "}";
    }
}
