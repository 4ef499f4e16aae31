package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.Objects;

/**
 * A column holding exactly one atom (min 1, max 1), typed as the atom itself.
 *
 * @param <T> the typed atom
 */
public final class ScalarColumn<T> extends Column<T> {

    private final AtomMapping<T> atom;

    private ScalarColumn(String name, AtomMapping<T> atom, ColumnType schemaType) {
        super(name, schemaType);
        this.atom = Objects.requireNonNull(atom, "atom");
    }

    /**
     * Returns a scalar column.
     *
     * @param name the column name
     * @param atom the mapping of its atom
     * @param <T> the typed atom
     * @return the column
     */
    public static <T> ScalarColumn<T> of(String name, AtomMapping<T> atom) {
        return new ScalarColumn<>(name, atom, null);
    }

    /**
     * Returns a scalar column whose values must also satisfy a schema type's constraints, see
     * {@link #check}.
     *
     * @param name the column name
     * @param atom the mapping of its atom
     * @param schemaType the column's type in the schema, whose constraints {@link #check} enforces
     * @param <T> the typed atom
     * @return the column
     */
    public static <T> ScalarColumn<T> of(String name, AtomMapping<T> atom, ColumnType schemaType) {
        return new ScalarColumn<>(name, atom, Objects.requireNonNull(schemaType, "schemaType"));
    }

    AtomMapping<T> atomMapping() {
        return atom;
    }

    @Override
    public boolean accepts(ColumnType type) {
        return type.isScalar() && type.key().type() == atom.type();
    }

    @Override
    public String expectedType() {
        return atom.type().jsonName();
    }

    @Override
    public Object toUntyped(T value) {
        return atom.toAtom(value);
    }

    @Override
    public T fromUntyped(Object value) {
        return atom.fromAtom(value);
    }
}
