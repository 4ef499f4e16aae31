package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code select} operation (RFC 7047 section 5.2.2).
 *
 * @param table the table name
 * @param where the conditions every selected row satisfies; empty selects all rows
 * @param columns the columns to return; absent returns all columns
 */
public record Select(String table, List<Condition> where, Optional<List<String>> columns) implements Operation {

    /**
     * Validates and freezes the components.
     *
     * @param table the table name
     * @param where the conditions
     * @param columns the columns to return
     */
    public Select {
        Objects.requireNonNull(table, "table");
        where = List.copyOf(where);
        columns = columns.map(List::copyOf);
    }

    /**
     * Returns a copy with more conditions.
     *
     * @param conditions conditions to add
     * @return the narrowed select
     */
    public Select where(Condition... conditions) {
        return new Select(table, OperationEncoder.append(where, List.of(conditions)), columns);
    }

    /**
     * Returns a copy that returns only the given columns.
     *
     * @param names the column names
     * @return the select
     */
    public Select columns(String... names) {
        return new Select(table, where, Optional.of(List.of(names)));
    }

    @Override
    public String op() {
        return "select";
    }

    @Override
    public String summary() {
        return "select " + table;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        TableSchema tableSchema = schema.table(table);
        ObjectNode json = OperationEncoder.start(op(), table);
        json.set("where", OperationEncoder.where(tableSchema, where));
        columns.ifPresent(names -> json.set("columns", OperationEncoder.columns(tableSchema, names)));
        return json;
    }
}
