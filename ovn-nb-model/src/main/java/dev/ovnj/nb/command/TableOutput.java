package dev.ovnj.nb.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * How {@code list} and {@code find} print rows: ovn-nbctl's {@code --format}
 * ({@code list}, {@code table}, {@code csv}, {@code json}), {@code --bare} and
 * {@code --no-headings}.
 *
 * @param format {@code list} (the default), {@code table}, {@code csv} or {@code json}
 * @param bare {@code --bare} (list format, bare values, no headings)
 * @param headings false with {@code --no-headings}
 */
public record TableOutput(String format, boolean bare, boolean headings) {
    /** ovn-nbctl's defaults. */
    public static final TableOutput DEFAULT = new TableOutput("list", false, true);

    /** One printed column: its name and type. */
    record Col(String name, ColumnType type) {
    }

    String print(List<Col> columns, List<List<Object>> rows) {
        String fmt = bare ? "list" : format;
        boolean heads = headings && !bare;
        return switch (fmt) {
            case "table" -> table(columns, rows, heads);
            case "csv" -> csv(columns, rows, heads);
            case "json" -> json(columns, rows);
            default -> list(columns, rows, heads);
        };
    }

    private String cell(Col c, Object value) {
        return bare ? DatumSyntax.toBare(value) : DatumSyntax.toString(c.type(), value);
    }

    private String list(List<Col> columns, List<List<Object>> rows, boolean heads) {
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            if (r > 0) {
                out.append('\n');
            }
            for (int i = 0; i < columns.size(); i++) {
                if (heads) {
                    out.append(Listings.left(columns.get(i).name(), 20, Integer.MAX_VALUE)).append(": ");
                }
                out.append(cell(columns.get(i), rows.get(r).get(i))).append('\n');
            }
        }
        return out.toString();
    }

    private String table(List<Col> columns, List<List<Object>> rows, boolean heads) {
        int[] widths = new int[columns.size()];
        String[][] cells = new String[rows.size()][columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            widths[i] = heads ? columns.get(i).name().length() : 0;
            for (int r = 0; r < rows.size(); r++) {
                cells[r][i] = cell(columns.get(i), rows.get(r).get(i));
                widths[i] = Math.max(widths[i], cells[r][i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        if (heads) {
            line(out, columns.stream().map(Col::name).toArray(String[]::new), widths);
            String[] dashes = new String[widths.length];
            for (int i = 0; i < widths.length; i++) {
                dashes[i] = "-".repeat(widths[i]);
            }
            line(out, dashes, widths);
        }
        for (String[] row : cells) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] widths) {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                out.append(' ');
            }
            out.append(i == cells.length - 1 ? cells[i] : Listings.left(cells[i], widths[i], Integer.MAX_VALUE));
        }
        out.append('\n');
    }

    private String csv(List<Col> columns, List<List<Object>> rows, boolean heads) {
        StringBuilder out = new StringBuilder();
        if (heads) {
            out.append(String.join(",", columns.stream().map(c -> csvCell(c.name())).toList())).append('\n');
        }
        for (List<Object> row : rows) {
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(csvCell(cell(columns.get(i), row.get(i))));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String csvCell(String s) {
        if (s.indexOf('"') < 0 && s.indexOf(',') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String json(List<Col> columns, List<List<Object>> rows) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ArrayNode data = root.putArray("data");
        for (List<Object> row : rows) {
            ArrayNode r = data.addArray();
            for (int i = 0; i < columns.size(); i++) {
                r.add(jsonValue(columns.get(i).type(), row.get(i)));
            }
        }
        ArrayNode headings = root.putArray("headings");
        columns.forEach(c -> headings.add(c.name()));
        return root + "\n";
    }

    private static JsonNode jsonAtom(Object atom) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (atom instanceof UUID u) {
            return f.arrayNode().add("uuid").add(u.toString());
        }
        if (atom instanceof Long l) {
            return f.numberNode(l);
        }
        if (atom instanceof Double d) {
            return f.numberNode(d);
        }
        if (atom instanceof Boolean b) {
            return f.booleanNode(b);
        }
        return f.textNode(atom.toString());
    }

    private static JsonNode jsonValue(ColumnType type, Object value) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (value instanceof Map<?, ?> m) {
            ArrayNode pairs = f.arrayNode();
            DatumSyntax.sortedEntries(m).forEach(e -> pairs.addArray().add(jsonAtom(e.getKey())).add(jsonAtom(e.getValue())));
            return f.arrayNode().add("map").add(pairs);
        }
        if (value instanceof Set<?> s) {
            if (s.size() == 1) {
                return jsonAtom(s.iterator().next());
            }
            ArrayNode atoms = f.arrayNode();
            DatumSyntax.sorted(s).forEach(a -> atoms.add(jsonAtom(a)));
            return f.arrayNode().add("set").add(atoms);
        }
        return jsonAtom(value);
    }
}
