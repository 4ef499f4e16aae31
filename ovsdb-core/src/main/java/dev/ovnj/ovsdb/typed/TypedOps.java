package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Delete;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutate;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Select;
import dev.ovnj.ovsdb.tx.Update;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Builds transaction operations from typed rows and typed columns.
 */
public final class TypedOps {

    private TypedOps() {
    }

    /**
     * Returns the insert of a typed row. Columns holding their default value (an empty set or
     * map, or a scalar 0, 0.0, false, "" or all-zero UUID) are left out because the server fills
     * in the same defaults, which keeps the JSON short. A present {@link TypedRow#uuid()} asks
     * the server for that UUID; add {@link Insert#uuidName(String)} to refer to the new row from
     * the same transaction.
     *
     * @param row the typed row
     * @return the insert
     */
    public static Insert insert(TypedRow row) {
        Insert insert = Operations.insert(row.tableModel().name());
        for (Map.Entry<String, Object> column : row.toColumns().entrySet()) {
            if (!isDefault(column.getValue())) {
                insert = insert.value(column.getKey(), column.getValue());
            }
        }
        return row.uuid().map(insert::uuid).orElse(insert);
    }

    private static boolean isDefault(Object untyped) {
        if (untyped instanceof Collection<?> set) {
            return set.isEmpty();
        }
        if (untyped instanceof Map<?, ?> map) {
            return map.isEmpty();
        }
        for (AtomicType type : AtomicType.values()) {
            if (type.defaultAtom().equals(untyped)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the update of an existing row that writes the given columns from the typed row,
     * whatever their values: an empty set or map clears the column.
     *
     * @param row the typed row, which must carry its {@link TypedRow#uuid()}
     * @param columns the columns to write
     * @return the update of the row with that UUID
     * @throws IllegalArgumentException if the row has no UUID or a column is not of its table
     */
    public static Update update(TypedRow row, Column<?>... columns) {
        Map<String, Object> values = row.toColumns();
        Update update = Operations.update(row.tableModel().name()).where(whereUuid(row));
        for (Column<?> column : columns) {
            if (!values.containsKey(column.name())) {
                throw new IllegalArgumentException(row.tableModel().name() + " has no column " + column.name());
            }
            update = update.set(column.name(), values.get(column.name()));
        }
        return update;
    }

    /**
     * Returns the mutate of an existing row.
     *
     * @param row the typed row, which must carry its {@link TypedRow#uuid()}
     * @param mutations the mutations, e.g. from {@link SetColumn#insert(Object)}
     * @return the mutate of the row with that UUID
     * @throws IllegalArgumentException if the row has no UUID
     */
    public static Mutate mutate(TypedRow row, Mutation... mutations) {
        return Operations.mutate(row.tableModel().name()).where(whereUuid(row)).mutation(mutations);
    }

    /**
     * Returns the mutate of the rows of a table that satisfy every condition, without naming the
     * table in a string; add the mutations with {@link Mutate#mutation}, e.g.
     * <pre>{@code
     * TypedOps.mutate(LogicalRouter.TABLE, LogicalRouter.NAME.eq("r1"))
     *         .mutation(LogicalRouter.LOAD_BALANCER.insert(lbUuid))
     * }</pre>
     *
     * @param table the table
     * @param where the conditions; none mutates every row
     * @return the mutate, without mutations yet
     */
    public static Mutate mutate(TableModel<?> table, Condition... where) {
        return Operations.mutate(table.name()).where(where);
    }

    /**
     * Returns the delete of the rows of a table that satisfy every condition.
     *
     * @param table the table
     * @param where the conditions; none deletes every row
     * @return the delete
     */
    public static Delete delete(TableModel<?> table, Condition... where) {
        return Operations.delete(table.name()).where(where);
    }

    /**
     * Returns the delete of one existing row.
     *
     * @param row the typed row, which must carry its {@link TypedRow#uuid()}
     * @return the delete of the row with that UUID
     * @throws IllegalArgumentException if the row has no UUID
     */
    public static Delete delete(TypedRow row) {
        return delete(row.tableModel(), whereUuid(row));
    }

    /**
     * Returns the select of the rows of a table that satisfy every condition; convert the result
     * rows with {@link TableModel#fromRow}.
     *
     * @param table the table
     * @param where the conditions; none selects every row
     * @return the select of all columns
     */
    public static Select select(TableModel<?> table, Condition... where) {
        return Operations.select(table.name()).where(where);
    }

    private static Condition whereUuid(TypedRow row) {
        UUID uuid = row.uuid().orElseThrow(() -> new IllegalArgumentException(
                "this " + row.tableModel().name() + " row has no uuid; only rows read from the server can be changed"));
        return Condition.eq(TableSchema.UUID_COLUMN, uuid);
    }
}
