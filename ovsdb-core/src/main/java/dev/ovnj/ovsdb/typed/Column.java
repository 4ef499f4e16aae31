package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.data.ValueChecker;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.tx.Condition;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed column of a table: its name plus the conversion between the Java type of its value and
 * the untyped representation of {@link dev.ovnj.ovsdb.data.ValueCodec}. Subclasses add the
 * conditions and mutations that make sense for the column's shape.
 *
 * @param <T> the Java type of the column value
 */
public abstract sealed class Column<T> permits ScalarColumn, OptionalColumn, SetColumn, MapColumn {

    private final String name;
    private final Optional<ColumnType> schemaType;

    Column(String name, ColumnType schemaType) {
        this.name = Objects.requireNonNull(name, "name");
        this.schemaType = Optional.ofNullable(schemaType);
    }

    /**
     * Returns the column's type in the schema the model was generated from, when it constrains
     * values beyond what the Java type says: integer or real ranges, string lengths, enums, or
     * the number of elements of a set or map. {@link #check} enforces it.
     *
     * @return the constraining schema type, or empty when the Java type says it all
     */
    public Optional<ColumnType> schemaType() {
        return schemaType;
    }

    /**
     * Checks a value against the constraints of {@link #schemaType()}; does nothing when there
     * are none.
     *
     * @param table the table name, for the message
     * @param value the typed value
     * @throws dev.ovnj.ovsdb.data.ValueConstraintException naming the table, the column, the value
     *     and the constraint it breaks, e.g. {@code ACL.priority: 70000 is greater than maximum
     *     allowed value 32767}
     */
    public void check(String table, T value) {
        if (schemaType.isPresent()) {
            ValueChecker.check(table, name, schemaType.get(), toUntyped(value));
        }
    }

    /**
     * Returns the column name as written in the schema.
     *
     * @return e.g. {@code "external_ids"}
     */
    public String name() {
        return name;
    }

    /**
     * Converts a typed value to the untyped representation used by rows and operations.
     *
     * @param value the typed value
     * @return the untyped value: a bare atom, an immutable set or an immutable map
     */
    public abstract Object toUntyped(T value);

    /**
     * Converts an untyped value, as found in a {@link Row}, to the typed value.
     *
     * @param value the untyped value
     * @return the typed value
     * @throws ClassCastException if the value does not have the column's untyped shape
     */
    public abstract T fromUntyped(Object value);

    /**
     * Tells whether a server's column of this type can be read and written through this typed
     * column: same shape (scalar, optional, set or map) and same atomic types. Enum and range
     * constraints are not compared, so a server that admits more values still fits.
     *
     * @param type the column type in the server's schema
     * @return true if the types fit
     */
    public abstract boolean accepts(ColumnType type);

    /**
     * Describes the column type this typed column expects, for messages.
     *
     * @return e.g. {@code "set of string"}
     */
    public abstract String expectedType();

    /**
     * Reads the column from a row, tolerating rows that lack it: partial rows of a {@code select}
     * with explicit columns, and rows of a server whose schema predates the column.
     *
     * @param row the row
     * @return the typed value, or empty if the row does not carry the column or the server's
     *     column has a type this typed column does not {@link #accepts accept}
     */
    public Optional<T> read(Row row) {
        Optional<ColumnSchema> server = row.table().findColumn(name);
        // A column of another type on the server is disabled, as a missing one is, rather than
        // failing the conversion of every row of the table.
        if (server.isEmpty() || !row.has(name) || !accepts(server.get().type())) {
            return Optional.empty();
        }
        return Optional.of(fromUntyped(row.get(name)));
    }

    /**
     * Returns the condition that the column equals a value.
     *
     * @param value the value
     * @return {@code [name, "==", value]}
     */
    public Condition eq(T value) {
        return Condition.eq(name, toUntyped(value));
    }

    /**
     * Returns the condition that the column differs from a value.
     *
     * @param value the value
     * @return {@code [name, "!=", value]}
     */
    public Condition ne(T value) {
        return Condition.ne(name, toUntyped(value));
    }

    @Override
    public String toString() {
        return name;
    }
}
