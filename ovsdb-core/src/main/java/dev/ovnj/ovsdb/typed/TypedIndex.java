package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.cache.IndexSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A secondary index of the cache looked up with typed keys, made by
 * {@link TypedTable#index(ScalarColumn, boolean)} and its overloads.
 *
 * @param <T> the value type of the table
 * @param <K> the typed key
 */
public final class TypedIndex<T extends TypedRow, K> {

    private final TypedTable<T> table;
    private final IndexSpec spec;
    private final AtomMapping<K> key;

    TypedIndex(TypedTable<T> table, IndexSpec spec, AtomMapping<K> key) {
        this.table = table;
        this.spec = spec;
        this.key = key;
    }

    /**
     * Returns the untyped index this one looks up.
     *
     * @return the spec added to the cache
     */
    public IndexSpec spec() {
        return spec;
    }

    /**
     * Returns the rows whose indexed value is a key.
     *
     * @param value the key
     * @return the rows, possibly none
     */
    public List<T> get(K value) {
        return table.lookup(spec, key.toAtom(Objects.requireNonNull(value, "value")));
    }

    /**
     * Returns the row whose indexed value is a key, for a unique index.
     *
     * @param value the key
     * @return the row, if any
     */
    public Optional<T> getOne(K value) {
        List<T> found = get(value);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }
}
