package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.data.ValueChecker;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Describes how one table maps onto its generated value type, so that typed APIs can work with
 * any table given its descriptor, e.g. a cache view looked up by the value type's class.
 *
 * @param <T> the value type
 */
public final class TableModel<T extends TypedRow> {

    private final String name;
    private final Class<T> type;
    private final Function<Row, T> fromRow;
    private final List<Column<?>> columns;

    private TableModel(String name, Class<T> type, Function<Row, T> fromRow, List<Column<?>> columns) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.fromRow = Objects.requireNonNull(fromRow, "fromRow");
        this.columns = List.copyOf(columns);
    }

    /**
     * Returns a table descriptor.
     *
     * @param name the table name in the schema
     * @param type the value type
     * @param fromRow the conversion of an untyped row
     * @param columns the typed columns the value type maps, checked against a server's schema
     *     by {@link SchemaCompatibility}
     * @param <T> the value type
     * @return the descriptor
     */
    public static <T extends TypedRow> TableModel<T> of(String name, Class<T> type, Function<Row, T> fromRow,
                                                        Column<?>... columns) {
        return new TableModel<>(name, type, fromRow, List.of(columns));
    }

    /**
     * Returns the table name as written in the schema.
     *
     * @return e.g. {@code "Load_Balancer"}
     */
    public String name() {
        return name;
    }

    /**
     * Returns the value type.
     *
     * @return the class of the generated type
     */
    public Class<T> type() {
        return type;
    }

    /**
     * Returns the typed columns of the value type, in schema order.
     *
     * @return the columns, without {@code _uuid} and {@code _version}
     */
    public List<Column<?>> columns() {
        return columns;
    }

    /**
     * Converts an untyped row of this table.
     *
     * @param row the row; columns it lacks take their defaults
     * @return the typed row
     * @throws IllegalArgumentException if the row belongs to another table
     * @throws IllegalStateException if the row lacks a column that has no default
     */
    public T fromRow(Row row) {
        if (!row.table().name().equals(name)) {
            throw new IllegalArgumentException("a " + row.table().name() + " row is not a " + name + " row");
        }
        return fromRow.apply(row);
    }

    /**
     * Converts a typed row to untyped column values.
     *
     * @param value the typed row
     * @return the columns, see {@link TypedRow#toColumns()}
     */
    public Map<String, Object> toColumns(T value) {
        return value.toColumns();
    }

    /**
     * Checks every column of a row against the constraints of the schema the model was generated
     * from ({@link Column#schemaType()}): integer and real ranges, string lengths, enums and the
     * number of elements of sets and maps. The generated types call it when a row is built, so
     * that {@code Acl.builder().priority(70000)...build()} fails there, naming the table, the
     * column, the value and the constraint, rather than when the row is added to a transaction.
     *
     * @param row the row
     * @throws dev.ovnj.ovsdb.data.ValueConstraintException for the first column that breaks a
     *     constraint, e.g. {@code ACL.priority: 70000 is greater than maximum allowed value 32767}
     */
    public void checkConstraints(TypedRow row) {
        Map<String, Object> values = null;
        for (Column<?> column : columns) {
            if (column.schemaType().isPresent()) {
                values = values == null ? row.toColumns() : values;
                ValueChecker.check(name, column.name(), column.schemaType().get(),
                        values.get(column.name()));
            }
        }
    }

    @Override
    public String toString() {
        return "TableModel[" + name + "]";
    }
}
