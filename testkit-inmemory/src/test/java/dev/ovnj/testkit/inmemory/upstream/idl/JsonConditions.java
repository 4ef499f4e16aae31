package dev.ovnj.testkit.inmemory.upstream.idl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A monitor condition written in OVSDB JSON (as the {@code condition} step gives it) as ovnj
 * {@link Condition}s. As in the OVS IDLs' {@code cond_change}, the empty condition {@code []}
 * matches no row: it is {@code [false]}.
 */
final class JsonConditions {
    private JsonConditions() {
    }

    static List<Condition> parse(TableSchema table, JsonNode json) {
        if (!json.isArray()) {
            throw new IllegalArgumentException("a condition is a JSON array, not " + json);
        }
        List<Condition> out = new ArrayList<>();
        for (JsonNode clause : json) {
            if (clause.isBoolean()) {
                out.add(clause.booleanValue() ? Condition.TRUE : Condition.FALSE);
                continue;
            }
            if (!clause.isArray() || clause.size() != 3) {
                throw new IllegalArgumentException("a clause is [column, function, value] or a boolean, not " + clause);
            }
            String column = clause.get(0).asText();
            String symbol = clause.get(1).asText();
            Condition.Function function = Arrays.stream(Condition.Function.values()).filter(f -> f.symbol().equals(symbol))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("unknown function " + symbol));
            ColumnType type = table.column(column).type();
            ColumnType argument = function == Condition.Function.INCLUDES || function == Condition.Function.EXCLUDES
                    ? type.withBounds(0, ColumnType.UNLIMITED) : type;
            out.add(new Condition.Comparison(column, function, ValueCodec.fromJson(argument, clause.get(2))));
        }
        return out.isEmpty() ? List.of(Condition.FALSE) : out;
    }
}
