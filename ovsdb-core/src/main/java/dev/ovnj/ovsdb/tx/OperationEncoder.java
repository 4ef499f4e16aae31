package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.ValueChecker;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Encodes the parts that several operations share: rows, where clauses and column lists. */
final class OperationEncoder {

    private OperationEncoder() {
    }

    static ObjectNode start(String op, String table) {
        return JsonNodeFactory.instance.objectNode().put("op", op).put("table", table);
    }

    /** How strictly a row's columns are checked: inserts may set immutable columns, updates may not. */
    enum RowPurpose {
        INSERT, UPDATE, MATCH
    }

    static ObjectNode row(TableSchema table, Map<String, Object> row, RowPurpose purpose) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, Object> entry : row.entrySet()) {
            ColumnSchema column = table.column(entry.getKey());
            if (purpose != RowPurpose.MATCH && column.isImplicit()) {
                throw new IllegalArgumentException(table.name() + "." + column.name() + " is maintained by the server"
                        + " and cannot be written");
            }
            if (purpose == RowPurpose.UPDATE && !column.mutable()) {
                throw new IllegalArgumentException(table.name() + "." + column.name() + " is immutable and cannot be"
                        + " updated");
            }
            ValueChecker.check(table.name(), column.name(), column.type(), entry.getValue());
            json.set(column.name(), ValueCodec.toJson(column.type(), entry.getValue()));
        }
        return json;
    }

    static ArrayNode where(TableSchema table, List<Condition> where) {
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        where.forEach(condition -> json.add(condition.toJson(table)));
        return json;
    }

    static ArrayNode columns(TableSchema table, List<String> columns) {
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        columns.forEach(column -> json.add(table.column(column).name()));
        return json;
    }

    static <T> List<T> append(List<T> list, List<T> more) {
        return Stream.concat(list.stream(), more.stream()).toList();
    }
}
