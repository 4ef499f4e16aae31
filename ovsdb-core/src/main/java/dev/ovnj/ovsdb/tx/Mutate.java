package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.List;
import java.util.Objects;

/**
 * The {@code mutate} operation (RFC 7047 section 5.2.4).
 *
 * @param table the table name
 * @param where the conditions selecting the rows to mutate; empty mutates all rows
 * @param mutations the mutations, applied in order
 */
public record Mutate(String table, List<Condition> where, List<Mutation> mutations) implements Operation {

    /**
     * Validates and freezes the components.
     *
     * @param table the table name
     * @param where the conditions
     * @param mutations the mutations
     */
    public Mutate {
        Objects.requireNonNull(table, "table");
        where = List.copyOf(where);
        mutations = List.copyOf(mutations);
    }

    /**
     * Returns a copy with more conditions.
     *
     * @param conditions conditions to add
     * @return the narrowed mutate
     */
    public Mutate where(Condition... conditions) {
        return new Mutate(table, OperationEncoder.append(where, List.of(conditions)), mutations);
    }

    /**
     * Returns a copy with more mutations.
     *
     * @param more mutations to add
     * @return the extended mutate
     */
    public Mutate mutation(Mutation... more) {
        return new Mutate(table, where, OperationEncoder.append(mutations, List.of(more)));
    }

    @Override
    public String op() {
        return "mutate";
    }

    @Override
    public String summary() {
        return "mutate " + table;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        TableSchema tableSchema = schema.table(table);
        ObjectNode json = OperationEncoder.start(op(), table);
        json.set("where", OperationEncoder.where(tableSchema, where));
        ArrayNode encoded = json.putArray("mutations");
        mutations.forEach(mutation -> encoded.add(mutation.toJson(tableSchema)));
        return json;
    }
}
