package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * One mutation of a {@code mutate} operation and its arithmetic, as ovsdb-server's mutation.c:
 * set and map insert/delete, and {@code += -= *= /= %=} on integers and reals with its range and
 * domain errors.
 *
 * @param column the column's index in its table
 * @param mutator the mutator; a map {@code delete} by keys only is {@code delete-keys}
 * @param arg the operand
 */
record ColumnMutation(int column, String mutator, Datum arg) {

    /**
     * Parses one {@code [column, mutator, value]} of a mutate operation, checking the mutator
     * against the column's type as ovsdb_mutation_from_json() does.
     *
     * @param symbols resolves the transaction's named UUIDs in the value
     */
    static ColumnMutation parse(TableSchema t, JsonNode json, Function<String, UUID> symbols) throws OvsdbError {
        if (!json.isArray() || json.size() != 3 || !json.get(0).isTextual() || !json.get(1).isTextual()) {
            throw OvsdbError.syntax(json, "Parse error in mutation.");
        }
        String name = json.get(0).textValue();
        if (t.findColumn(name).isEmpty()) {
            throw new OvsdbError("unknown column", "No column " + name + " in table " + t.name() + ".", json);
        }
        int idx = t.columnIndex(name);
        ColumnSchema col = t.columns().get(idx);
        if (!col.mutable() || idx == TableSchema.UUID_INDEX || idx == TableSchema.VERSION_INDEX) {
            throw new OvsdbError("constraint violation", "Cannot mutate immutable column " + name + " in table "
                    + t.name() + ".", json);
        }
        ColumnType type = col.type();
        String mutator = json.get(1).textValue();
        JsonNode arg = json.get(2);
        switch (mutator) {
            case "+=", "-=", "*=", "/=", "%=" -> {
                AtomicType k = type.key().type();
                boolean numeric = k == AtomicType.INTEGER || (k == AtomicType.REAL && !"%=".equals(mutator));
                if (type.isMap() || !numeric) {
                    throw Where.typeMismatch(json, mutator, name, type);
                }
                BaseType unconstrained = BaseType.of(k);
                return new ColumnMutation(idx, mutator, Datum.atom(Datum.atomFromJson(unconstrained, arg, symbols)));
            }
            case "insert", "delete" -> {
                if (type.isScalar()) {
                    throw Where.typeMismatch(json, mutator, name, type);
                }
                ColumnType argType = type.withBounds(0, "delete".equals(mutator) ? ColumnType.UNLIMITED : type.max());
                try {
                    return new ColumnMutation(idx, mutator, Datum.fromJson(argType, arg, symbols));
                } catch (OvsdbError e) {
                    if (type.isMap() && "delete".equals(mutator)) {
                        ColumnType keys = new ColumnType(type.key(), Optional.empty(), 0, ColumnType.UNLIMITED);
                        return new ColumnMutation(idx, "delete-keys", Datum.fromJson(keys, arg, symbols));
                    }
                    throw e;
                }
            }
            default -> throw new OvsdbError("unknown mutator", "No mutator named " + mutator + ".");
        }
    }

    /** The column's value after this mutation, checked against the column's type and size bounds. */
    Datum applyTo(ColumnSchema col, Datum value) throws OvsdbError {
        ColumnType type = col.type();
        TreeMap<Object, Object> out = new TreeMap<>(Datum.ATOM_ORDER);
        switch (mutator) {
            case "insert" -> {
                out.putAll(value.entries());
                arg.entries().forEach(out::putIfAbsent);
            }
            case "delete" -> {
                out.putAll(value.entries());
                arg.entries().forEach((k, v) -> {
                    if (out.containsKey(k) && (!value.isMap() || Datum.compareAtoms(out.get(k), v) == 0)) {
                        out.remove(k);
                    }
                });
            }
            case "delete-keys" -> {
                out.putAll(value.entries());
                arg.entries().keySet().forEach(out::remove);
            }
            default -> {
                Object operand = arg.single();
                for (Object atom : value.entries().keySet()) {
                    Object r = arithmetic(mutator, atom, operand);
                    Datum.checkConstraints(type.key(), r);
                    if (out.containsKey(r)) {
                        throw OvsdbError.constraint("Result of \"" + mutator + "\" operation contains duplicates.");
                    }
                    out.put(r, null);
                }
            }
        }
        if (out.size() < type.min() || out.size() > type.max()) {
            throw OvsdbError.constraint("Attempted to store " + out.size() + " elements in " + Where.english(type) + ".");
        }
        return value.with(out);
    }

    private static Object arithmetic(String mutator, Object atom, Object operand) throws OvsdbError {
        if (atom instanceof Long a) {
            long b = ((Number) operand).longValue();
            try {
                return switch (mutator) {
                    case "+=" -> Math.addExact(a, b);
                    case "-=" -> Math.subtractExact(a, b);
                    case "*=" -> Math.multiplyExact(a, b);
                    case "/=" -> {
                        if (b == 0) {
                            throw new OvsdbError("domain error", "Division by zero.");
                        }
                        if (a == Long.MIN_VALUE && b == -1) {
                            throw new ArithmeticException();
                        }
                        yield a / b;
                    }
                    default -> {
                        if (b == 0) {
                            throw new OvsdbError("domain error", "Division by zero.");
                        }
                        yield a % b;
                    }
                };
            } catch (ArithmeticException e) {
                throw new OvsdbError("range error", "Result of \"" + mutator + "\" operation is out of range.");
            }
        }
        double a = (Double) atom;
        double b = ((Number) operand).doubleValue();
        double r = switch (mutator) {
            case "+=" -> a + b;
            case "-=" -> a - b;
            case "*=" -> a * b;
            default -> {
                if (b == 0) {
                    throw new OvsdbError("domain error", "Division by zero.");
                }
                yield a / b;
            }
        };
        if (Double.isInfinite(r) || Double.isNaN(r)) {
            throw new OvsdbError("range error", "Result of \"" + mutator + "\" operation is out of range.");
        }
        return r;
    }
}
