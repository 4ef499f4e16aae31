package dev.ovnj.nb.command;

import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * ovn-nbctl's database commands ({@code create}, {@code set}, {@code add}, {@code remove},
 * {@code clear}, {@code destroy}, {@code get}, {@code find}, {@code list}) on one command list:
 * records are named by UUID (or a unique prefix of at least 4 characters), by the columns
 * ovn-nbctl names rows by ({@code name} for switches, routers, ports, port groups, load
 * balancers, ...; {@code external_ip} for NAT), or {@code .} for a table's only row; values use
 * ovn-nbctl's syntax; {@code @name} symbols come from {@code --id=@name}.
 */
public final class DatabaseCommands {
    // The columns ovn-nbctl identifies records of each table by (its tables[].row_ids).
    private static final Map<String, List<String>> ROW_IDS = Map.ofEntries(
            Map.entry("Logical_Switch", List.of("name", "external_ids:neutron:network_name")),
            Map.entry("Logical_Switch_Port", List.of("name", "external_ids:neutron:port_name")),
            Map.entry("Logical_Router", List.of("name", "external_ids:neutron:router_name")),
            Map.entry("Logical_Router_Port", List.of("name")),
            Map.entry("Address_Set", List.of("name")),
            Map.entry("Port_Group", List.of("name")),
            Map.entry("ACL", List.of("name")),
            Map.entry("HA_Chassis", List.of("chassis_name")),
            Map.entry("HA_Chassis_Group", List.of("name")),
            Map.entry("Load_Balancer", List.of("name")),
            Map.entry("Load_Balancer_Group", List.of("name")),
            Map.entry("Load_Balancer_Health_Check", List.of("vip")),
            Map.entry("Forwarding_Group", List.of("name")),
            Map.entry("Meter", List.of("name")),
            Map.entry("NAT", List.of("external_ip")),
            Map.entry("Chassis_Template_Var", List.of("chassis")),
            Map.entry("Connection", List.of("target")),
            Map.entry("Mirror", List.of("name")),
            Map.entry("Gateway_Chassis", List.of("name")));

    private final Workspace ws;
    private final Map<String, UUID> symbols = new HashMap<>();
    private final Set<String> referenced = new LinkedHashSet<>();

    DatabaseCommands(Workspace ws) {
        this.ws = ws;
    }

    private UUID symbol(String name) {
        referenced.add(name);
        return symbols.computeIfAbsent(name, n -> UUID.randomUUID());
    }

    /** Fails when a symbol was used but no {@code create} or {@code get --id} defined it. */
    void checkSymbols() {
        for (String name : referenced) {
            UUID u = symbols.get(name);
            if (ws.tableOf(u) == null) {
                throw new NbctlException("row id \"" + name + "\" is referenced but never created (e.g. with \"-- --id="
                        + name + " create ...\")");
            }
        }
    }

    private TableSchema table(String name) {
        // ovn-nbctl accepts a unique case-insensitive prefix of a table name.
        if (ws.schema().findTable(name).isPresent()) {
            return ws.schema().table(name);
        }
        List<TableSchema> matches = new ArrayList<>();
        for (TableSchema t : ws.schema().tables().values()) {
            if (t.name().toLowerCase().startsWith(name.toLowerCase())) {
                matches.add(t);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.size() > 1) {
            throw new NbctlException("multiple table names match \"" + name + "\"");
        }
        throw new NbctlException("unknown table \"" + name + "\"");
    }

    private ColumnSchema column(TableSchema t, String name) {
        if (name.equals("_uuid")) {
            return new ColumnSchema("_uuid", ColumnType.scalar(dev.ovnj.ovsdb.schema.AtomicType.UUID), false, false);
        }
        return t.findColumn(name).filter(c -> !c.isImplicit()).orElseThrow(() -> new NbctlException(
                t.name() + " does not contain a column whose name matches \"" + name + "\""));
    }

    /** The row a record argument names, or null when absent and {@code !mustExist}. */
    UUID record(TableSchema t, String id, boolean mustExist) {
        String table = t.name();
        if (DatumSyntax.isUuid(id)) {
            UUID u = UUID.fromString(id);
            if (ws.exists(table, u)) {
                return u;
            }
        }
        List<UUID> rows = ws.uuids(table);
        if (id.equals(".")) {
            if (rows.size() == 1) {
                return rows.get(0);
            }
        }
        for (String rowId : ROW_IDS.getOrDefault(table, List.of())) {
            String col = rowId;
            String key = null;
            int colon = rowId.indexOf(':');
            if (colon >= 0) {
                col = rowId.substring(0, colon);
                key = rowId.substring(colon + 1);
            }
            if (!ws.hasColumn(table, col)) {
                continue;
            }
            UUID found = null;
            for (UUID u : rows) {
                Object v = key == null ? ws.get(table, u, col) : ws.map(table, u, col).get(key);
                if (v instanceof Set<?> s && s.size() == 1) {
                    v = s.iterator().next();
                }
                if (id.equals(v)) {
                    if (found != null) {
                        throw new NbctlException("multiple rows in " + table + " match \"" + id + "\"");
                    }
                    found = u;
                }
            }
            if (found != null) {
                return found;
            }
        }
        if (id.length() >= 4) {
            UUID found = null;
            for (UUID u : rows) {
                if (u.toString().startsWith(id)) {
                    if (found != null) {
                        throw new NbctlException("multiple rows in " + table + " match \"" + id + "\"");
                    }
                    found = u;
                }
            }
            if (found != null) {
                return found;
            }
        }
        if (mustExist) {
            throw new NbctlException("no row \"" + id + "\" in table " + table);
        }
        return null;
    }

    private Object parse(ColumnType type, String text) {
        return DatumSyntax.parseDatum(type, text, s -> symbol(s));
    }

    private Object parseAtom(dev.ovnj.ovsdb.schema.BaseType base, String text) {
        return DatumSyntax.parseAtom(base, text, s -> symbol(s));
    }

    /** Applies one {@code COLUMN[:KEY]=VALUE} argument to a row (set, create, lrp-add's settings). */
    void setColumn(String table, UUID row, String arg) {
        TableSchema t = table(table);
        int eq = arg.indexOf('=');
        if (eq < 0) {
            int colon = arg.indexOf(':');
            column(t, colon < 0 ? arg : arg.substring(0, colon));
            throw new NbctlException(arg + ": argument does not end in \"=\" followed by a value.");
        }
        String lhs = arg.substring(0, eq);
        String value = arg.substring(eq + 1);
        int colon = lhs.indexOf(':');
        String colName = colon < 0 ? lhs : lhs.substring(0, colon);
        ColumnSchema c = column(t, colName);
        if (colon >= 0) {
            if (!c.type().isMap()) {
                throw new NbctlException("cannot specify key to set for non-map column " + c.name());
            }
            Object key = parseAtom(c.type().key(), lhs.substring(colon + 1));
            Object v = parseAtom(c.type().value().orElseThrow(), value);
            Map<Object, Object> m = new LinkedHashMap<>(ws.map(table, row, c.name()));
            m.put(key, v);
            ws.write(table, row, c.name(), Map.copyOf(m));
        } else {
            ws.write(table, row, c.name(), parse(c.type(), value));
        }
    }

    /**
     * {@code ovn-nbctl [--id=@NAME] create TABLE COLUMN[:KEY]=VALUE...}.
     *
     * @param id the {@code --id=@NAME} symbol, or null
     * @param table the table
     * @param settings the column settings
     * @return the provisional UUID printed (the real one is known after commit)
     */
    public UUID create(String id, String table, List<String> settings) {
        TableSchema t = table(table);
        UUID row;
        if (id != null) {
            if (!id.startsWith("@")) {
                throw new NbctlException("row id \"" + id + "\" does not begin with \"@\"");
            }
            if (symbols.containsKey(id) && ws.tableOf(symbols.get(id)) != null) {
                throw new NbctlException("row id \"" + id + "\" may only be specified on one --id option");
            }
            // References made before this create already point to the symbol's UUID.
            row = ws.insert(t.name(), Map.of(), symbols.computeIfAbsent(id, n -> UUID.randomUUID()));
        } else {
            row = ws.insert(t.name(), Map.of());
        }
        for (String s : settings) {
            setColumn(t.name(), row, s);
        }
        return row;
    }

    /**
     * {@code ovn-nbctl [--if-exists] set TABLE RECORD COLUMN[:KEY]=VALUE...}.
     *
     * @param ifExists {@code --if-exists}
     * @param table the table
     * @param record the record
     * @param settings the settings
     */
    public void set(boolean ifExists, String table, String record, List<String> settings) {
        TableSchema t = table(table);
        UUID row = record(t, record, !ifExists);
        if (row == null) {
            return;
        }
        for (String s : settings) {
            setColumn(t.name(), row, s);
        }
    }

    /**
     * {@code ovn-nbctl [--if-exists] add TABLE RECORD COLUMN [KEY=]VALUE...}.
     *
     * @param ifExists {@code --if-exists}
     * @param table the table
     * @param record the record
     * @param column the set or map column
     * @param values the values to add
     */
    public void add(boolean ifExists, String table, String record, String column, List<String> values) {
        TableSchema t = table(table);
        UUID row = record(t, record, !ifExists);
        if (row == null) {
            return;
        }
        ColumnSchema c = column(t, column);
        ColumnType wide = c.type().withBounds(0, ColumnType.UNLIMITED);
        if (c.type().isMap()) {
            Map<Object, Object> m = new LinkedHashMap<>(ws.map(t.name(), row, c.name()));
            for (String v : values) {
                m.putAll((Map<?, ?>) parse(wide, v));
            }
            checkSize(t, c, m.size());
            ws.write(t.name(), row, c.name(), Map.copyOf(m));
        } else {
            Set<Object> s = new LinkedHashSet<>(current(t.name(), row, c));
            for (String v : values) {
                s.addAll((Set<?>) parse(wide, v));
            }
            checkSize(t, c, s.size());
            ws.write(t.name(), row, c.name(), store(c.type(), s));
        }
    }

    private Set<Object> current(String table, UUID row, ColumnSchema c) {
        Object v = ws.get(table, row, c.name());
        return v instanceof Set<?> s ? new LinkedHashSet<>(s) : new LinkedHashSet<>(Set.of(v));
    }

    private static Object store(ColumnType type, Set<Object> atoms) {
        return type.isScalar() ? atoms.iterator().next() : Set.copyOf(atoms);
    }

    private static void checkSize(TableSchema t, ColumnSchema c, int n) {
        if (n > c.type().max()) {
            throw new NbctlException("\"add\" operation would put " + n + " values in column " + c.name() + " of table "
                    + t.name() + " but the maximum number is " + c.type().max());
        }
    }

    /**
     * {@code ovn-nbctl [--if-exists] remove TABLE RECORD COLUMN VALUE|KEY|KEY=VALUE...}.
     *
     * @param ifExists {@code --if-exists}
     * @param table the table
     * @param record the record
     * @param column the set or map column
     * @param values what to remove
     */
    public void remove(boolean ifExists, String table, String record, String column, List<String> values) {
        TableSchema t = table(table);
        UUID row = record(t, record, !ifExists);
        if (row == null) {
            return;
        }
        ColumnSchema c = column(t, column);
        ColumnType wide = c.type().withBounds(0, ColumnType.UNLIMITED);
        if (c.type().isMap()) {
            Map<Object, Object> m = new LinkedHashMap<>(ws.map(t.name(), row, c.name()));
            for (String v : values) {
                Map<?, ?> pairs;
                try {
                    pairs = (Map<?, ?>) parse(wide, v);
                } catch (NbctlException notPairs) {
                    ColumnType keys = new ColumnType(c.type().key(), java.util.Optional.empty(), 0, ColumnType.UNLIMITED);
                    for (Object k : (Set<?>) parse(keys, v)) {
                        m.remove(k);
                    }
                    continue;
                }
                pairs.forEach((k, val) -> m.remove(k, val));
            }
            if (m.size() < c.type().min()) {
                throw new NbctlException("\"remove\" operation would put " + m.size() + " values in column " + c.name()
                        + " of table " + t.name() + " but the minimum number is " + c.type().min());
            }
            ws.write(t.name(), row, c.name(), Map.copyOf(m));
        } else {
            Set<Object> s = current(t.name(), row, c);
            for (String v : values) {
                s.removeAll((Set<?>) parse(wide, v));
            }
            if (s.size() < c.type().min()) {
                throw new NbctlException("\"remove\" operation would put " + s.size() + " values in column " + c.name()
                        + " of table " + t.name() + " but the minimum number is " + c.type().min());
            }
            ws.write(t.name(), row, c.name(), store(c.type(), s));
        }
    }

    /**
     * {@code ovn-nbctl [--if-exists] clear TABLE RECORD COLUMN...}.
     *
     * @param ifExists {@code --if-exists}
     * @param table the table
     * @param record the record
     * @param columns the columns to empty
     */
    public void clear(boolean ifExists, String table, String record, List<String> columns) {
        TableSchema t = table(table);
        UUID row = record(t, record, !ifExists);
        if (row == null) {
            return;
        }
        for (String column : columns) {
            ColumnSchema c = column(t, column);
            if (c.type().min() > 0) {
                throw new NbctlException("\"clear\" operation cannot be applied to column " + c.name() + " of table "
                        + t.name() + ", which is not allowed to be empty");
            }
            ws.write(t.name(), row, c.name(), ValueCodec.defaultValue(c.type()));
        }
    }

    /**
     * {@code ovn-nbctl [--if-exists] [--all] destroy TABLE [RECORD]...}.
     *
     * @param ifExists {@code --if-exists}
     * @param all {@code --all}
     * @param table the table
     * @param records the records
     */
    public void destroy(boolean ifExists, boolean all, String table, List<String> records) {
        TableSchema t = table(table);
        if (all && !records.isEmpty()) {
            throw new NbctlException("--all and records argument should not be specified together");
        }
        if (all && !t.isRoot()) {
            throw new NbctlException("--all option not supported for non-root tables");
        }
        if (all) {
            ws.uuids(t.name()).forEach(u -> ws.delete(t.name(), u));
            return;
        }
        for (String r : records) {
            UUID row = record(t, r, !ifExists);
            if (row != null) {
                ws.delete(t.name(), row);
            }
        }
    }

    /**
     * {@code ovn-nbctl [--if-exists] [--id=@NAME] get TABLE RECORD [COLUMN[:KEY]]...}.
     *
     * @param ifExists {@code --if-exists}
     * @param id the symbol to define as the record's UUID, or null
     * @param table the table
     * @param record the record
     * @param columns the columns (with optional map keys)
     * @param bare {@code --bare}
     * @return the output, one line per column
     */
    public String get(boolean ifExists, String id, String table, String record, List<String> columns, boolean bare) {
        TableSchema t = table(table);
        UUID row = record(t, record, !ifExists);
        if (row == null) {
            return "";
        }
        if (id != null) {
            if (!id.startsWith("@")) {
                throw new NbctlException("row id \"" + id + "\" does not begin with \"@\"");
            }
            if (symbols.containsKey(id) && ws.tableOf(symbols.get(id)) != null) {
                throw new NbctlException("row id \"" + id + "\" may only be specified on one --id option");
            }
            symbols.put(id, row);
        }
        StringBuilder out = new StringBuilder();
        for (String spec : columns) {
            int colon = spec.indexOf(':');
            ColumnSchema c = column(t, colon < 0 ? spec : spec.substring(0, colon));
            Object value = ws.get(t.name(), row, c.name());
            if (colon >= 0) {
                if (!c.type().isMap()) {
                    throw new NbctlException("cannot specify key to get for non-map column " + c.name());
                }
                Object key = parseAtom(c.type().key(), spec.substring(colon + 1));
                Object v = ((Map<?, ?>) value).get(key);
                if (v == null) {
                    if (ifExists) {
                        out.append('\n');
                        continue;
                    }
                    throw new NbctlException("no key \"" + spec.substring(colon + 1) + "\" in " + t.name() + " record \""
                            + record + "\" column " + c.name());
                }
                out.append(bare ? DatumSyntax.atomToBare(v) : DatumSyntax.atomToString(v)).append('\n');
            } else {
                out.append(bare ? DatumSyntax.toBare(value) : DatumSyntax.toString(c.type(), value)).append('\n');
            }
        }
        return out.toString();
    }

    private List<TableOutput.Col> outputColumns(TableSchema t, List<String> columns) {
        List<TableOutput.Col> out = new ArrayList<>();
        if (columns == null || columns.isEmpty()) {
            out.add(new TableOutput.Col("_uuid", column(t, "_uuid").type()));
            t.columns().stream().filter(c -> !c.isImplicit()).map(ColumnSchema::name).sorted()
                    .forEach(n -> out.add(new TableOutput.Col(n, t.column(n).type())));
            return out;
        }
        for (String name : columns) {
            ColumnSchema c = column(t, name);
            out.add(new TableOutput.Col(c.name(), c.type()));
        }
        return out;
    }

    private String print(TableSchema t, List<UUID> rows, List<String> columns, TableOutput output) {
        List<TableOutput.Col> cols = outputColumns(t, columns);
        List<List<Object>> values = new ArrayList<>();
        for (UUID u : rows) {
            List<Object> row = new ArrayList<>();
            cols.forEach(c -> row.add(ws.get(t.name(), u, c.name())));
            values.add(row);
        }
        return output.print(cols, values);
    }

    /**
     * {@code ovn-nbctl [--if-exists] [--columns=C,...] list TABLE [RECORD]...}.
     *
     * @param ifExists {@code --if-exists}: records that do not exist are skipped
     * @param columns the columns, or empty for all
     * @param table the table
     * @param records the records, or empty for all rows
     * @param output the output format
     * @return the output
     */
    public String list(boolean ifExists, List<String> columns, String table, List<String> records, TableOutput output) {
        TableSchema t = table(table);
        List<UUID> rows = new ArrayList<>();
        if (records.isEmpty()) {
            rows.addAll(ws.uuids(t.name()));
        } else {
            for (String r : records) {
                UUID u = record(t, r, !ifExists);
                if (u != null) {
                    rows.add(u);
                }
            }
        }
        List<TableOutput.Col> check = outputColumns(t, columns);
        if (check.isEmpty()) {
            return "";
        }
        return print(t, rows, columns, output);
    }

    /**
     * {@code ovn-nbctl [--columns=C,...] find TABLE [COLUMN[:KEY]=VALUE]...} (also {@code !=},
     * {@code <}, {@code >}, {@code <=}, {@code >=} and their set forms {@code {=}}, {@code {!=}},
     * {@code {<=}}, {@code {>=}}, {@code {<}}, {@code {>}}).
     *
     * @param columns the columns, or empty for all
     * @param table the table
     * @param conditions the conditions
     * @param output the output format
     * @return the output
     */
    public String find(List<String> columns, String table, List<String> conditions, TableOutput output) {
        TableSchema t = table(table);
        List<Condition> parsed = new ArrayList<>();
        for (String c : conditions) {
            parsed.add(condition(t, c));
        }
        List<UUID> rows = new ArrayList<>();
        for (UUID u : ws.uuids(t.name())) {
            boolean all = true;
            for (Condition c : parsed) {
                if (!c.test(ws, t.name(), u)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                rows.add(u);
            }
        }
        return print(t, rows, columns, output);
    }

    private static final List<String> OPERATORS = List.of("{!=}", "{>=}", "{<=}", "{=}", "{<}", "{>}", "!=", "<=", ">=", "=",
            "<", ">");

    /** One {@code find} condition. */
    private record Condition(String column, Object key, boolean keyed, String op, Object value) {
        boolean test(Workspace ws, String table, UUID row) {
            Object actual = ws.get(table, row, column);
            if (keyed) {
                Object v = ((Map<?, ?>) actual).get(key);
                if (v == null) {
                    return false;
                }
                actual = v;
            }
            Set<Object> a = atoms(actual);
            Set<Object> b = atoms(value);
            return switch (op) {
                case "=", "{=}" -> a.equals(b);
                case "!=", "{!=}" -> !a.equals(b);
                case "{<=}" -> b.containsAll(a);
                case "{>=}" -> a.containsAll(b);
                case "{<}" -> b.containsAll(a) && !a.equals(b);
                case "{>}" -> a.containsAll(b) && !a.equals(b);
                default -> compare(a, b, op);
            };
        }

        private static boolean compare(Set<Object> a, Set<Object> b, String op) {
            if (a.size() != 1 || b.size() != 1) {
                return false;
            }
            int cmp = DatumSyntax.ATOM_ORDER.compare(a.iterator().next(), b.iterator().next());
            return switch (op) {
                case "<" -> cmp < 0;
                case ">" -> cmp > 0;
                case "<=" -> cmp <= 0;
                default -> cmp >= 0;
            };
        }

        private static Set<Object> atoms(Object v) {
            if (v instanceof Map<?, ?> m) {
                Set<Object> s = new LinkedHashSet<>();
                m.forEach((k, x) -> s.add(Map.entry(k, x)));
                return s;
            }
            if (v instanceof Set<?> s) {
                return new LinkedHashSet<>(s);
            }
            return Set.of(v);
        }
    }

    private Condition condition(TableSchema t, String text) {
        int best = -1;
        String op = null;
        for (int i = 0; i < text.length() && best < 0; i++) {
            for (String o : OPERATORS) {
                if (text.startsWith(o, i)) {
                    best = i;
                    op = o;
                    break;
                }
            }
        }
        if (best < 0) {
            throw new NbctlException(text + ": missing operator");
        }
        String lhs = text.substring(0, best);
        String rhs = text.substring(best + op.length());
        int colon = lhs.indexOf(':');
        ColumnSchema c = column(t, colon < 0 ? lhs : lhs.substring(0, colon));
        if (colon >= 0) {
            if (!c.type().isMap()) {
                throw new NbctlException("cannot specify key to check for non-map column " + c.name());
            }
            Object key = parseAtom(c.type().key(), lhs.substring(colon + 1));
            return new Condition(c.name(), key, true, op, parseAtom(c.type().value().orElseThrow(), rhs));
        }
        ColumnType wide = c.type().isScalar() ? c.type() : c.type().withBounds(0, ColumnType.UNLIMITED);
        return new Condition(c.name(), null, false, op, parse(wide, rhs));
    }
}
