package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.List;
import java.util.Objects;

/**
 * The {@code delete} operation (RFC 7047 section 5.2.5).
 *
 * @param table the table name
 * @param where the conditions selecting the rows to delete; empty deletes all rows
 */
public record Delete(String table, List<Condition> where) implements Operation {

    /**
     * Validates and freezes the components.
     *
     * @param table the table name
     * @param where the conditions
     */
    public Delete {
        Objects.requireNonNull(table, "table");
        where = List.copyOf(where);
    }

    /**
     * Returns a copy with more conditions.
     *
     * @param conditions conditions to add
     * @return the narrowed delete
     */
    public Delete where(Condition... conditions) {
        return new Delete(table, OperationEncoder.append(where, List.of(conditions)));
    }

    @Override
    public String op() {
        return "delete";
    }

    @Override
    public String summary() {
        return "delete " + table;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        ObjectNode json = OperationEncoder.start(op(), table);
        json.set("where", OperationEncoder.where(schema.table(table), where));
        return json;
    }
}
