package dev.ovnj.ovsdb.monitor;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.tx.Condition;
import java.util.List;
import java.util.Objects;

/**
 * What to monitor in one table: which columns (all when empty), which rows (for
 * {@code monitor_cond} and later: the rows meeting <em>any</em> of the {@code where} conditions;
 * every row when empty), and which kinds of change.
 *
 * <p>A monitor's conditions are ORed, unlike a transaction's {@code where}, which is ANDed:
 * ovsdb-server(7) sends the rows "matching one of the conditions". {@code where(eq("name", "a"),
 * eq("name", "b"))} receives both rows; a row that must meet two conditions at once cannot be
 * asked for with a monitor condition, only filtered by the receiver.
 *
 * @param table table name
 * @param columns columns to receive; empty means every column
 * @param where conditions of which a row must meet at least one (ORed); empty means every row
 * @param select which changes to receive
 */
public record TableMonitor(String table, List<String> columns, List<Condition> where, Select select) {

    /**
     * The RFC 7047 {@code select} flags.
     *
     * @param initial rows present when the monitor starts
     * @param insert rows inserted later
     * @param delete rows deleted
     * @param modify rows modified
     */
    public record Select(boolean initial, boolean insert, boolean delete, boolean modify) {
        /** Every kind of change: what a cache needs. */
        public static final Select ALL = new Select(true, true, true, true);
    }

    /**
     * Copies the lists and checks the table name.
     *
     * @param columns columns to receive; empty means every column
     * @param select which changes to receive
     * @param table table name
     * @param where conditions of which a row must meet at least one (ORed); empty means every row
     */
    public TableMonitor {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        where = List.copyOf(where);
        Objects.requireNonNull(select, "select");
    }

    /**
     * Monitors every column and row of a table.
     *
     * @param table table name
     * @return the monitor
     */
    public static TableMonitor all(String table) {
        return new TableMonitor(table, List.of(), List.of(), Select.ALL);
    }

    /**
     * Returns a copy receiving only these columns.
     *
     * @param cols column names
     * @return the new monitor
     */
    public TableMonitor columns(String... cols) {
        return new TableMonitor(table, List.of(cols), where, select);
    }

    /**
     * Returns a copy receiving only rows that meet at least one of the conditions.
     *
     * @param conditions the conditions, ORed (ovsdb-server(7): rows "matching one of the conditions")
     * @return the new monitor
     */
    public TableMonitor where(Condition... conditions) {
        return new TableMonitor(table, columns, List.of(conditions), select);
    }

    /**
     * The monitor-request JSON for this table.
     *
     * @param schema the table's schema, used to check columns and encode condition values
     * @param conditional whether the method accepts {@code where} (monitor_cond and later)
     * @return the request object
     */
    public ObjectNode toJson(TableSchema schema, boolean conditional) {
        ObjectNode req = JsonNodeFactory.instance.objectNode();
        if (!columns.isEmpty()) {
            ArrayNode cols = req.putArray("columns");
            for (String c : columns) {
                schema.column(c);
                cols.add(c);
            }
        }
        if (conditional && !where.isEmpty()) {
            req.set("where", whereJson(schema));
        }
        ObjectNode sel = req.putObject("select");
        sel.put("initial", select.initial());
        sel.put("insert", select.insert());
        sel.put("delete", select.delete());
        sel.put("modify", select.modify());
        return req;
    }

    /**
     * The {@code where} clause as JSON, for {@code monitor_cond_change}.
     *
     * @param schema the table's schema
     * @return the conditions array
     */
    public ArrayNode whereJson(TableSchema schema) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (Condition c : where) {
            arr.add(c.toJson(schema));
        }
        return arr;
    }

    /**
     * Whether the server must filter rows, which only {@code monitor_cond} and later can do.
     *
     * @return true when there are conditions
     */
    public boolean conditional() {
        return !where.isEmpty();
    }
}
