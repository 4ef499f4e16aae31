package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code update} operation (RFC 7047 section 5.2.3).
 *
 * @param table the table name
 * @param where the conditions selecting the rows to update; empty updates all rows
 * @param row the new column values
 */
public record Update(String table, List<Condition> where, Map<String, Object> row) implements Operation {

    /**
     * Validates and freezes the components.
     *
     * @param table the table name
     * @param where the conditions
     * @param row the new values
     */
    public Update {
        Objects.requireNonNull(table, "table");
        where = List.copyOf(where);
        row = Collections.unmodifiableMap(new LinkedHashMap<>(row));
    }

    /**
     * Returns a copy with more conditions.
     *
     * @param conditions conditions to add
     * @return the narrowed update
     */
    public Update where(Condition... conditions) {
        return new Update(table, OperationEncoder.append(where, List.of(conditions)), row);
    }

    /**
     * Returns a copy that also sets a column.
     *
     * @param column the column name
     * @param value the new value
     * @return the extended update
     */
    public Update set(String column, Object value) {
        Map<String, Object> extended = new LinkedHashMap<>(row);
        extended.put(column, value);
        return new Update(table, where, extended);
    }

    @Override
    public String op() {
        return "update";
    }

    @Override
    public String summary() {
        return "update " + table;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        TableSchema tableSchema = schema.table(table);
        ObjectNode json = OperationEncoder.start(op(), table);
        json.set("where", OperationEncoder.where(tableSchema, where));
        json.set("row", OperationEncoder.row(tableSchema, row, OperationEncoder.RowPurpose.UPDATE));
        return json;
    }
}
