package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.tx.Condition;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A column holding zero or one atom (min 0, max 1), typed as {@link Optional}; its untyped value
 * is a set of at most one atom.
 *
 * @param <T> the typed atom
 */
public final class OptionalColumn<T> extends Column<Optional<T>> {

    private final AtomMapping<T> atom;

    private OptionalColumn(String name, AtomMapping<T> atom, ColumnType schemaType) {
        super(name, schemaType);
        this.atom = Objects.requireNonNull(atom, "atom");
    }

    /**
     * Returns an optional column.
     *
     * @param name the column name
     * @param atom the mapping of its atom
     * @param <T> the typed atom
     * @return the column
     */
    public static <T> OptionalColumn<T> of(String name, AtomMapping<T> atom) {
        return new OptionalColumn<>(name, atom, null);
    }

    /**
     * Returns an optional column whose values must also satisfy a schema type's constraints, see
     * {@link #check}.
     *
     * @param name the column name
     * @param atom the mapping of its atom
     * @param schemaType the column's type in the schema, whose constraints {@link #check} enforces
     * @param <T> the typed atom
     * @return the column
     */
    public static <T> OptionalColumn<T> of(String name, AtomMapping<T> atom, ColumnType schemaType) {
        return new OptionalColumn<>(name, atom, Objects.requireNonNull(schemaType, "schemaType"));
    }

    AtomMapping<T> atomMapping() {
        return atom;
    }

    @Override
    public boolean accepts(ColumnType type) {
        return type.isOptional() && type.key().type() == atom.type();
    }

    @Override
    public String expectedType() {
        return "optional " + atom.type().jsonName();
    }

    @Override
    public Object toUntyped(Optional<T> value) {
        return value.map(present -> Set.of(atom.toAtom(present))).orElse(Set.of());
    }

    @Override
    public Optional<T> fromUntyped(Object value) {
        Set<?> atoms = (Set<?>) value;
        return atoms.isEmpty() ? Optional.empty() : Optional.of(atom.fromAtom(atoms.iterator().next()));
    }

    /**
     * Returns the condition that the column holds exactly this atom.
     *
     * @param value the atom
     * @return {@code [name, "==", ["set", [value]]]}
     */
    public Condition is(T value) {
        return eq(Optional.of(value));
    }

    /**
     * Returns the condition that the column holds no atom.
     *
     * @return {@code [name, "==", ["set", []]]}
     */
    public Condition isEmpty() {
        return eq(Optional.empty());
    }

    /**
     * Returns the condition that the column holds an atom, whichever it is.
     *
     * @return {@code [name, "!=", ["set", []]]}
     */
    public Condition isPresent() {
        return ne(Optional.empty());
    }
}
