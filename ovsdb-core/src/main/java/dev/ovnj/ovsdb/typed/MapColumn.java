package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A column holding a map, typed as {@link Map}.
 *
 * @param <K> the typed key
 * @param <V> the typed value
 */
public final class MapColumn<K, V> extends Column<Map<K, V>> {

    private final AtomMapping<K> key;
    private final AtomMapping<V> value;

    private MapColumn(String name, AtomMapping<K> key, AtomMapping<V> value, ColumnType schemaType) {
        super(name, schemaType);
        this.key = Objects.requireNonNull(key, "key");
        this.value = Objects.requireNonNull(value, "value");
    }

    /**
     * Returns a map column.
     *
     * @param name the column name
     * @param key the mapping of its keys
     * @param value the mapping of its values
     * @param <K> the typed key
     * @param <V> the typed value
     * @return the column
     */
    public static <K, V> MapColumn<K, V> of(String name, AtomMapping<K> key, AtomMapping<V> value) {
        return new MapColumn<>(name, key, value, null);
    }

    /**
     * Returns a map column whose values must also satisfy a schema type's constraints, see
     * {@link #check}.
     *
     * @param name the column name
     * @param key the mapping of its keys
     * @param value the mapping of its values
     * @param schemaType the column's type in the schema, whose constraints {@link #check} enforces
     * @param <K> the typed key
     * @param <V> the typed value
     * @return the column
     */
    public static <K, V> MapColumn<K, V> of(String name, AtomMapping<K> key, AtomMapping<V> value,
                                            ColumnType schemaType) {
        return new MapColumn<>(name, key, value, Objects.requireNonNull(schemaType, "schemaType"));
    }

    AtomMapping<V> valueMapping() {
        return value;
    }

    @Override
    public boolean accepts(ColumnType type) {
        return type.isMap() && type.key().type() == key.type() && type.value().orElseThrow().type() == value.type();
    }

    @Override
    public String expectedType() {
        return "map of " + key.type().jsonName() + " to " + value.type().jsonName();
    }

    @Override
    public Object toUntyped(Map<K, V> typed) {
        Map<Object, Object> atoms = new HashMap<>();
        typed.forEach((k, v) -> atoms.put(key.toAtom(k), value.toAtom(v)));
        return Map.copyOf(atoms);
    }

    @Override
    public Map<K, V> fromUntyped(Object untyped) {
        Map<K, V> typed = new HashMap<>();
        ((Map<?, ?>) untyped).forEach((k, v) -> typed.put(key.fromAtom(k), value.fromAtom(v)));
        return Map.copyOf(typed);
    }

    /**
     * Selects one key of the map for conditions.
     *
     * @param k the key
     * @return the conditions on that key
     */
    public MapKey<K, V> key(K k) {
        return new MapKey<>(this, k);
    }

    /**
     * Returns the condition that the column contains every entry of a map.
     *
     * @param entries the entries
     * @return {@code [name, "includes", ["map", entries]]}
     */
    public Condition includes(Map<K, V> entries) {
        return Condition.includes(name(), toUntyped(entries));
    }

    /**
     * Returns the condition that the column contains none of the entries of a map.
     *
     * @param entries the entries
     * @return {@code [name, "excludes", ["map", entries]]}
     */
    public Condition excludes(Map<K, V> entries) {
        return Condition.excludes(name(), toUntyped(entries));
    }

    /**
     * Returns the mutation adding one entry. RFC 7047 leaves an existing key untouched, so
     * changing a value takes a {@link #delete(Object)} of the key first.
     *
     * @param k the key
     * @param v the value
     * @return {@code [name, "insert", ["map", [[k, v]]]]}
     */
    public Mutation insert(K k, V v) {
        return insert(Map.of(k, v));
    }

    /**
     * Returns the mutation adding entries whose keys are absent; existing keys keep their values.
     *
     * @param entries the entries
     * @return {@code [name, "insert", ["map", entries]]}
     */
    public Mutation insert(Map<K, V> entries) {
        return Mutation.insert(name(), toUntyped(entries));
    }

    /**
     * Returns the mutation removing a key, whatever its value.
     *
     * @param k the key
     * @return {@code [name, "delete", k]}
     */
    public Mutation delete(K k) {
        return delete(Set.of(k));
    }

    /**
     * Returns the mutation removing keys, whatever their values.
     *
     * @param keys the keys
     * @return {@code [name, "delete", ["set", keys]]}
     */
    public Mutation delete(Set<K> keys) {
        Set<Object> atoms = new HashSet<>();
        keys.forEach(k -> atoms.add(key.toAtom(k)));
        return Mutation.delete(name(), Set.copyOf(atoms));
    }

    /**
     * Returns the mutation removing entries only where key and value both match.
     *
     * @param entries the entries
     * @return {@code [name, "delete", ["map", entries]]}
     */
    public Mutation deleteEntries(Map<K, V> entries) {
        return Mutation.delete(name(), toUntyped(entries));
    }
}
