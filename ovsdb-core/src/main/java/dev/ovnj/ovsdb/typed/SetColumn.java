package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A column holding a set of atoms whose bounds are anything but exactly one, typed as
 * {@link Set}; set columns of references hold {@link java.util.UUID}s.
 *
 * @param <E> the typed element
 */
public final class SetColumn<E> extends Column<Set<E>> {

    private final AtomMapping<E> element;

    private SetColumn(String name, AtomMapping<E> element, ColumnType schemaType) {
        super(name, schemaType);
        this.element = Objects.requireNonNull(element, "element");
    }

    /**
     * Returns a set column.
     *
     * @param name the column name
     * @param element the mapping of its elements
     * @param <E> the typed element
     * @return the column
     */
    public static <E> SetColumn<E> of(String name, AtomMapping<E> element) {
        return new SetColumn<>(name, element, null);
    }

    /**
     * Returns a set column whose values must also satisfy a schema type's constraints, see
     * {@link #check}.
     *
     * @param name the column name
     * @param element the mapping of its elements
     * @param schemaType the column's type in the schema, whose constraints {@link #check} enforces
     * @param <E> the typed element
     * @return the column
     */
    public static <E> SetColumn<E> of(String name, AtomMapping<E> element, ColumnType schemaType) {
        return new SetColumn<>(name, element, Objects.requireNonNull(schemaType, "schemaType"));
    }

    AtomMapping<E> elementMapping() {
        return element;
    }

    @Override
    public boolean accepts(ColumnType type) {
        // An optional column on the server is a set of at most one: a Set reads it fine.
        return type.isSet() && type.key().type() == element.type();
    }

    @Override
    public String expectedType() {
        return "set of " + element.type().jsonName();
    }

    @Override
    public Object toUntyped(Set<E> value) {
        Set<Object> atoms = new HashSet<>();
        value.forEach(e -> atoms.add(element.toAtom(e)));
        return Set.copyOf(atoms);
    }

    @Override
    public Set<E> fromUntyped(Object value) {
        Set<E> typed = new HashSet<>();
        ((Set<?>) value).forEach(atom -> typed.add(element.fromAtom(atom)));
        return Set.copyOf(typed);
    }

    /**
     * Returns the condition that the column contains an element.
     *
     * @param value the element
     * @return {@code [name, "includes", value]}
     */
    public Condition includes(E value) {
        return includes(Set.of(value));
    }

    /**
     * Returns the condition that the column contains every one of some elements.
     *
     * @param values the elements
     * @return {@code [name, "includes", ["set", values]]}
     */
    public Condition includes(Set<E> values) {
        return Condition.includes(name(), toUntyped(values));
    }

    /**
     * Returns the condition that the column does not contain an element.
     *
     * @param value the element
     * @return {@code [name, "excludes", value]}
     */
    public Condition excludes(E value) {
        return excludes(Set.of(value));
    }

    /**
     * Returns the condition that the column contains none of some elements.
     *
     * @param values the elements
     * @return {@code [name, "excludes", ["set", values]]}
     */
    public Condition excludes(Set<E> values) {
        return Condition.excludes(name(), toUntyped(values));
    }

    /**
     * Returns the mutation adding an element.
     *
     * @param value the element
     * @return {@code [name, "insert", value]}
     */
    public Mutation insert(E value) {
        return insert(Set.of(value));
    }

    /**
     * Returns the mutation adding elements.
     *
     * @param values the elements
     * @return {@code [name, "insert", ["set", values]]}
     */
    public Mutation insert(Set<E> values) {
        return Mutation.insert(name(), toUntyped(values));
    }

    /**
     * Returns the mutation adding a reference to the row that an insert of the same transaction
     * creates, e.g. {@code LogicalRouter.LOAD_BALANCER.insert(lbInsert.reference())}.
     *
     * @param reference the uuid-name of that insert, see {@link dev.ovnj.ovsdb.tx.Insert#reference()}
     * @return {@code [name, "insert", ["named-uuid", reference]]}
     * @throws IllegalArgumentException if this column does not hold UUIDs
     */
    public Mutation insert(NamedUuid reference) {
        if (element.type() != AtomicType.UUID) {
            throw new IllegalArgumentException("column " + name() + " holds " + element.type().jsonName()
                    + "s, not references; it cannot take named-uuid " + reference.name());
        }
        return Mutation.insert(name(), Set.of(reference));
    }

    /**
     * Returns the mutation removing an element; removing an absent element is no error.
     *
     * @param value the element
     * @return {@code [name, "delete", value]}
     */
    public Mutation delete(E value) {
        return delete(Set.of(value));
    }

    /**
     * Returns the mutation removing elements.
     *
     * @param values the elements
     * @return {@code [name, "delete", ["set", values]]}
     */
    public Mutation delete(Set<E> values) {
        return Mutation.delete(name(), toUntyped(values));
    }
}
