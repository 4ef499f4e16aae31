package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * A parsed "where": clauses, each a column, a function and a value, or a literal
 * {@code true}/{@code false}. A transaction's where is a conjunction ({@link #matches}); a
 * monitor_cond where is a disjunction ({@link #matchesAny}): ovsdb-server(7) sends the rows
 * "matching one of the conditions".
 */
final class Where {
    /** One clause; {@code column < 0} with a fixed {@code constant} is a boolean literal. */
    private record Clause(int column, String function, Datum arg, boolean constant) {
    }

    private final List<Clause> clauses;

    private Where(List<Clause> clauses) {
        this.clauses = clauses;
    }

    static final Where ALWAYS = new Where(List.of());

    static Where parse(TableSchema table, JsonNode where, Function<String, UUID> names) throws OvsdbError {
        List<Clause> out = new ArrayList<>();
        for (JsonNode c : where) {
            if (c.isBoolean()) {
                out.add(new Clause(-1, null, null, c.booleanValue()));
                continue;
            }
            if (!c.isArray() || c.size() != 3 || !c.get(0).isTextual() || !c.get(1).isTextual()) {
                throw OvsdbError.syntax(c, "Parse error in condition.");
            }
            String name = c.get(0).textValue();
            if (table.findColumn(name).isEmpty()) {
                throw new OvsdbError("unknown column", "No column " + name + " in table " + table.name() + ".", c);
            }
            int idx = table.columnIndex(name);
            ColumnSchema col = table.columns().get(idx);
            ColumnType type = col.type();
            String f = c.get(1).textValue();
            switch (f) {
                case "<", "<=", ">", ">=" -> {
                    // Like ovsdb-server, also on an optional scalar (a set of at most one), which
                    // compares false when empty; the argument is then a single value.
                    AtomicType k = type.key().type();
                    boolean optionalScalar = !type.isMap() && type.min() == 0 && type.max() == 1;
                    if (!(type.isScalar() || optionalScalar) || (k != AtomicType.INTEGER && k != AtomicType.REAL)) {
                        throw typeMismatch(c, f, name, type);
                    }
                    type = type.withBounds(1, 1);
                }
                case "==", "!=" -> {
                }
                case "includes", "excludes" -> {
                    if (!type.isScalar()) {
                        type = type.withBounds(0, ColumnType.UNLIMITED);
                    }
                }
                default -> throw new OvsdbError("unknown function", "No function named " + f + ".", c);
            }
            out.add(new Clause(idx, f, Datum.fromJson(type, c.get(2), names), false));
        }
        return new Where(out);
    }

    static OvsdbError typeMismatch(JsonNode json, String op, String column, ColumnType type) {
        return OvsdbError.syntax(json, "Type mismatch: \"" + op + "\" operator may not be applied to column "
                + column + " of type " + english(type) + ".");
    }

    /** ovsdb_type_to_english(). */
    static String english(ColumnType type) {
        String key = type.key().type().jsonName();
        if (type.isScalar()) {
            return key;
        }
        boolean set = !type.isMap();
        StringBuilder s = new StringBuilder(set ? "set" : "map");
        if (type.max() == ColumnType.UNLIMITED) {
            s.append(type.min() > 0 ? " of " + type.min() + " or more" : " of");
        } else if (type.min() > 0) {
            s.append(" of ").append(type.min()).append(" to ").append(type.max());
        } else {
            s.append(" of up to ").append(type.max());
        }
        if (set) {
            s.append(' ').append(key).append('s');
        } else {
            s.append(" (").append(key).append(", ").append(type.value().orElseThrow().type().jsonName()).append(") pairs");
        }
        return s.toString();
    }

    boolean isEmpty() {
        return clauses.isEmpty();
    }

    /** A _uuid the condition pins, so a query can look the row up instead of scanning. */
    UUID pinnedUuid() {
        for (Clause c : clauses) {
            if (c.column == TableSchema.UUID_INDEX && "==".equals(c.function) && c.arg.size() == 1) {
                return (UUID) c.arg.single();
            }
        }
        return null;
    }

    /** Whether every clause holds for the row; an empty condition matches every row. */
    boolean matches(Datum[] row) {
        for (Clause c : clauses) {
            if (!eval(c, row)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the row matches a monitor condition the way ovsdb-server 3.1 decides it
     * (ovsdb_condition_match_any_clause): an empty condition matches every row; otherwise any
     * clause that holds matches. ovsdb-server sorts the clauses (false, true, then by function)
     * and only looks at the first two for a {@code true} literal; when every clause is a literal
     * or {@code ==} it then compares only the {@code ==} clauses. So {@code [false, false, true,
     * ["name","==","x"]]} matches only the row named x, and the in-memory server does the same.
     */
    boolean matchesAny(Datum[] row) {
        if (clauses.isEmpty()) {
            return true;
        }
        int falses = 0;
        int trues = 0;
        boolean equalityOnly = true;
        for (Clause c : clauses) {
            if (c.column < 0) {
                falses += c.constant ? 0 : 1;
                trues += c.constant ? 1 : 0;
            } else if (!"==".equals(c.function)) {
                equalityOnly = false;
            }
        }
        if (trues > 0 && falses <= 1) {
            return true;
        }
        for (Clause c : clauses) {
            if (c.column < 0 ? c.constant && !equalityOnly : eval(c, row)) {
                return true;
            }
        }
        return false;
    }

    private static boolean eval(Clause c, Datum[] row) {
        if (c.column < 0) {
            return c.constant;
        }
        Datum v = row[c.column];
        return switch (c.function) {
            case "==" -> v.equals(c.arg);
            case "!=" -> !v.equals(c.arg);
            case "includes" -> includes(v, c.arg);
            case "excludes" -> excludes(v, c.arg);
            default -> {
                if (v.size() == 0) {
                    yield false;
                }
                int cmp = Datum.compareAtoms(v.single(), c.arg.single());
                yield switch (c.function) {
                    case "<" -> cmp < 0;
                    case "<=" -> cmp <= 0;
                    case ">" -> cmp > 0;
                    default -> cmp >= 0;
                };
            }
        };
    }

    private static boolean includes(Datum v, Datum arg) {
        for (Map.Entry<Object, Object> e : arg.entries().entrySet()) {
            if (!v.containsKey(e.getKey())) {
                return false;
            }
            if (v.isMap() && Datum.compareAtoms(v.entries().get(e.getKey()), e.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean excludes(Datum v, Datum arg) {
        for (Map.Entry<Object, Object> e : arg.entries().entrySet()) {
            if (v.containsKey(e.getKey())
                    && (!v.isMap() || Objects.equals(Datum.compareAtoms(v.entries().get(e.getKey()), e.getValue()), 0))) {
                return false;
            }
        }
        return true;
    }
}
