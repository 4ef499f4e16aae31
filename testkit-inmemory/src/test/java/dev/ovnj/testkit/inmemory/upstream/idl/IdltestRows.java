package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The per-table row printers of OVS's {@code test-ovsdb.py} for the {@code idltest} schema, fed
 * with what the ovnj cache holds: each column as the Python IDL would return it (a bare atom for
 * a scalar, a list for an optional or set column, a dict for a map; references to rows the view
 * does not hold dropped, as the Python IDL drops them), printed with Python's {@code str()} and
 * the driver's clean-up.
 */
final class IdltestRows {
    /** The tables print_idl walks, in its order, with the columns of their printers. */
    static final Map<String, List<String>> PRINTED = printed();

    private static Map<String, List<String>> printed() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("simple", List.of("i", "r", "b", "s", "u", "ia", "ra", "ba", "sa", "ua"));
        m.put("simple2", List.of("name", "smap", "imap"));
        m.put("simple3", List.of("name", "uset", "uref"));
        m.put("simple4", List.of("name"));
        m.put("simple5", List.of("name", "irefmap"));
        m.put("simple6", List.of("name", "weak_ref"));
        m.put("link1", List.of());
        m.put("link2", List.of());
        m.put("singleton", List.of());
        return m;
    }

    private final DatabaseSchema schema;
    private final Map<String, Set<String>> registered;
    private final IdlView view;

    /**
     * @param registered the columns the IDL registered per table (what {@code hasattr} sees)
     */
    IdltestRows(DatabaseSchema schema, Map<String, Set<String>> registered, IdlView view) {
        this.schema = schema;
        this.registered = registered;
        this.view = view;
    }

    boolean hasTable(String table) {
        return registered.containsKey(table);
    }

    /** {@code print_idl}: every row of the printed tables, or {@code empty}. */
    List<String> print(int step, boolean terse) {
        List<String> lines = new ArrayList<>();
        for (String table : PRINTED.keySet()) {
            if (!hasTable(table)) {
                continue;
            }
            for (Row row : view.rows(table)) {
                lines.add(terse ? String.format("%03d: table %s", step, table)
                        : String.format("%03d: table %s: %s %s", step, table, contents(table, row), uuid(row)));
            }
        }
        if (lines.isEmpty()) {
            lines.add(String.format("%03d: empty", step));
        }
        return lines;
    }

    String uuid(Row row) {
        return PyText.cleanRow(Map.of("uuid", row.uuid()));
    }

    private String contents(String table, Row row) {
        return switch (table) {
            case "link1" -> link1(row);
            case "link2" -> "i=" + row.get("i") + " l1=" + refI(row, "l1");
            case "singleton" -> "name=" + row.get("name");
            default -> simple(table, row, PRINTED.get(table));
        };
    }

    private String link1(Row row) {
        StringBuilder s = new StringBuilder("i=" + row.get("i") + " k=");
        if (has("link1", "k")) {
            s.append(refI(row, "k"));
        }
        if (has("link1", "ka")) {
            List<String> is = new ArrayList<>();
            for (Object ref : elements(row.get("ka"))) {
                view.get("link1", (UUID) ref).ifPresent(r -> is.add(String.valueOf(r.get("i"))));
            }
            s.append(" ka=[").append(is.stream().sorted().collect(Collectors.joining(" "))).append("] l2=");
        }
        if (has("link1", "l2")) {
            s.append(refI(row, "l2"));
        }
        return s.toString();
    }

    /** The {@code i} of the first row a reference column points to, when the view holds it. */
    private String refI(Row row, String column) {
        if (!has(row.table().name(), column)) {
            return "";
        }
        String target = row.table().column(column).type().key().refTable().orElseThrow();
        return elements(row.get(column)).stream().findFirst()
                .flatMap(u -> view.get(target, (UUID) u)).map(r -> String.valueOf(r.get("i"))).orElse("");
    }

    /** {@code get_simple_printable_row_string} over the given columns that the IDL registered. */
    String simple(String table, Row row, List<String> columns) {
        Map<String, Object> pairs = new LinkedHashMap<>();
        for (String c : columns) {
            if (has(table, c)) {
                pairs.put(c, python(row, c));
            }
        }
        return PyText.cleanRow(pairs);
    }

    boolean has(String table, String column) {
        return registered.getOrDefault(table, Set.of()).contains(column);
    }

    /** The column's value as the Python IDL returns it, maps and sets sorted as the driver sorts them. */
    Object python(Row row, String column) {
        ColumnType type = row.table().column(column).type();
        Object v = row.get(column);
        if (type.isMap()) {
            List<Object> entries = new ArrayList<>();
            ((Map<?, ?>) v).forEach((k, val) -> {
                Object key = atom(type.key(), k);
                Object value = atom(type.value().orElseThrow(), val);
                if (key != null && value != null) {
                    entries.add(new PyText.Tuple(key, value));
                }
            });
            return PyText.sorted(entries);
        }
        if (type.isScalar()) {
            return atom(type.key(), v);
        }
        List<Object> list = new ArrayList<>();
        for (Object e : elements(v)) {
            Object a = atom(type.key(), e);
            if (a != null) {
                list.add(a);
            }
        }
        return PyText.sorted(list);
    }

    /** A reference to a row the view does not hold is dropped (null), as the Python IDL drops it. */
    private Object atom(BaseType base, Object atom) {
        Optional<String> ref = base.refTable();
        if (ref.isPresent() && view.get(ref.get(), (UUID) atom).isEmpty()) {
            return null;
        }
        return atom;
    }

    private static List<Object> elements(Object v) {
        if (v instanceof Set<?> s) {
            return new ArrayList<>(s);
        }
        return v == null ? List.of() : List.of(v);
    }
}
