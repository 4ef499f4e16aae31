package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The {@code wait} operation (RFC 7047 section 5.2.6): holds the transaction until the rows
 * matching {@code where}, projected on {@code columns}, equal (or differ from) {@code rows}.
 * With a timeout of 0 it is the optimistic-concurrency check "the rows are still as I saw them".
 *
 * @param table the table name
 * @param where the conditions selecting the rows to compare
 * @param columns the columns to compare
 * @param until whether to wait for equality or inequality
 * @param rows the expected rows, each holding exactly the listed columns
 * @param timeout the longest wait in milliseconds; absent waits indefinitely
 */
public record Wait(String table, List<Condition> where, List<String> columns, Until until,
        List<Map<String, Object>> rows, OptionalLong timeout) implements Operation {

    /**
     * Validates and freezes the components.
     *
     * @param table the table name
     * @param where the conditions
     * @param columns the compared columns
     * @param until the awaited relation
     * @param rows the expected rows
     * @param timeout the timeout in milliseconds
     */
    public Wait {
        Objects.requireNonNull(table, "table");
        where = List.copyOf(where);
        columns = List.copyOf(columns);
        Objects.requireNonNull(until, "until");
        rows = rows.stream().map(row -> Collections.unmodifiableMap(new LinkedHashMap<>(row))).toList();
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isPresent() && timeout.getAsLong() < 0) {
            throw new IllegalArgumentException("wait timeout must not be negative, got " + timeout.getAsLong());
        }
    }

    /**
     * Returns a copy with more conditions.
     *
     * @param conditions conditions to add
     * @return the narrowed wait
     */
    public Wait where(Condition... conditions) {
        return new Wait(table, OperationEncoder.append(where, List.of(conditions)), columns, until, rows, timeout);
    }

    /**
     * Returns a copy comparing the given columns.
     *
     * @param names the column names
     * @return the wait
     */
    public Wait columns(String... names) {
        return new Wait(table, where, List.of(names), until, rows, timeout);
    }

    /**
     * Returns a copy waiting for the given relation.
     *
     * @param relation equality or inequality
     * @return the wait
     */
    public Wait until(Until relation) {
        return new Wait(table, where, columns, relation, rows, timeout);
    }

    /**
     * Returns a copy expecting one more row.
     *
     * @param row values of the compared columns
     * @return the wait
     */
    public Wait row(Map<String, Object> row) {
        return new Wait(table, where, columns, until, OperationEncoder.append(rows, List.of(row)), timeout);
    }

    /**
     * Returns a copy with a timeout.
     *
     * @param millis the longest wait in milliseconds; 0 fails at once if the rows differ
     * @return the wait
     */
    public Wait timeout(long millis) {
        return new Wait(table, where, columns, until, rows, OptionalLong.of(millis));
    }

    @Override
    public String op() {
        return "wait";
    }

    @Override
    public String summary() {
        return "wait " + table;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        TableSchema tableSchema = schema.table(table);
        ObjectNode json = OperationEncoder.start(op(), table);
        timeout.ifPresent(millis -> json.put("timeout", millis));
        json.set("where", OperationEncoder.where(tableSchema, where));
        json.set("columns", OperationEncoder.columns(tableSchema, columns));
        json.put("until", until.symbol());
        ArrayNode encodedRows = json.putArray("rows");
        Set<String> compared = Set.copyOf(columns);
        for (Map<String, Object> row : rows) {
            if (!compared.equals(row.keySet())) {
                throw new IllegalArgumentException("wait on " + table + ": row " + row.keySet()
                        + " must hold exactly the compared columns " + columns);
            }
            encodedRows.add(OperationEncoder.row(tableSchema, row, OperationEncoder.RowPurpose.MATCH));
        }
        return json;
    }

    /** The relation a {@code wait} awaits between the selected rows and the expected rows. */
    public enum Until {
        /** The rows are equal. */
        EQ("=="),
        /** The rows differ. */
        NE("!=");

        private final String symbol;

        Until(String symbol) {
            this.symbol = symbol;
        }

        /**
         * Returns the relation as written in JSON.
         *
         * @return {@code "=="} or {@code "!="}
         */
        public String symbol() {
            return symbol;
        }
    }
}
