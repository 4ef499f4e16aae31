package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.data.ValueChecker;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code <mutation>} of a {@code mutate} operation (RFC 7047 section 5.1).
 *
 * <p>Arithmetic mutators take a bare integer or real atom and apply to every element of the
 * column. {@code insert} and {@code delete} take a set (a bare atom stands for a set of one) or,
 * on a map column, a map; {@code delete} on a map column also accepts a set of keys.
 *
 * @param column the column name
 * @param mutator the mutator
 * @param value the argument, in the Java representation of {@link ValueCodec}
 */
public record Mutation(String column, Mutator mutator, Object value) {

    /**
     * Validates the components.
     *
     * @param column the column name
     * @param mutator the mutator
     * @param value the argument
     */
    public Mutation {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(mutator, "mutator");
    }

    /**
     * Returns {@code column += value}.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double}
     * @return the mutation
     */
    public static Mutation add(String column, Object value) {
        return new Mutation(column, Mutator.ADD, value);
    }

    /**
     * Returns {@code column -= value}.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double}
     * @return the mutation
     */
    public static Mutation subtract(String column, Object value) {
        return new Mutation(column, Mutator.SUBTRACT, value);
    }

    /**
     * Returns {@code column *= value}.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double}
     * @return the mutation
     */
    public static Mutation multiply(String column, Object value) {
        return new Mutation(column, Mutator.MULTIPLY, value);
    }

    /**
     * Returns {@code column /= value}.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double}
     * @return the mutation
     */
    public static Mutation divide(String column, Object value) {
        return new Mutation(column, Mutator.DIVIDE, value);
    }

    /**
     * Returns {@code column %= value}.
     *
     * @param column the column name of an integer column
     * @param value a {@link Long}
     * @return the mutation
     */
    public static Mutation modulo(String column, Object value) {
        return new Mutation(column, Mutator.MODULO, value);
    }

    /**
     * Returns the mutation adding elements to a set or entries to a map; existing map keys keep
     * their values.
     *
     * @param column the column name
     * @param value a set, a single atom, or a map
     * @return the mutation
     */
    public static Mutation insert(String column, Object value) {
        return new Mutation(column, Mutator.INSERT, value);
    }

    /**
     * Returns the mutation removing elements from a set, or from a map either the given keys
     * (value is a set) or the given entries (value is a map).
     *
     * @param column the column name
     * @param value a set, a single atom, or a map
     * @return the mutation
     */
    public static Mutation delete(String column, Object value) {
        return new Mutation(column, Mutator.DELETE, value);
    }

    /**
     * Encodes the mutation, checking that the column may be mutated and the argument fits.
     *
     * @param table the table of the column
     * @return {@code [column, mutator, value]}
     * @throws IllegalArgumentException if the column does not exist, is immutable, or the
     *     mutator does not apply to its type
     * @throws dev.ovnj.ovsdb.data.ValueConstraintException if the argument does not fit
     */
    public JsonNode toJson(TableSchema table) {
        ColumnSchema schema = table.column(column);
        if (schema.isImplicit() || !schema.mutable()) {
            throw new IllegalArgumentException(table.name() + "." + column + " is immutable and cannot be mutated");
        }
        ColumnType type = argumentType(table.name(), schema.type());
        Object argument = type.isSet() && value != null && !(value instanceof Set<?>) ? Set.of(value) : value;
        ValueChecker.check(table.name(), column, type, argument);
        return JsonNodeFactory.instance.arrayNode()
                .add(column)
                .add(mutator.symbol())
                .add(ValueCodec.toJson(type, argument));
    }

    private ColumnType argumentType(String table, ColumnType columnType) {
        if (mutator.isArithmetic()) {
            AtomicType atomic = columnType.key().type();
            boolean numeric = atomic == AtomicType.INTEGER || atomic == AtomicType.REAL && mutator != Mutator.MODULO;
            if (columnType.isMap() || !numeric) {
                throw new IllegalArgumentException(table + "." + column + ": \"" + mutator.symbol()
                        + "\" does not apply to column type " + columnType);
            }
            // RFC 7047: the argument is a plain atom; the server checks the result against the constraints.
            return new ColumnType(columnType.key().withoutConstraints(), Optional.empty(), 1, 1);
        }
        if (columnType.isScalar()) {
            throw new IllegalArgumentException(table + "." + column + ": \"" + mutator.symbol()
                    + "\" applies only to set and map columns, not " + columnType);
        }
        if (mutator == Mutator.DELETE && columnType.isMap() && !(value instanceof Map<?, ?>)) {
            return new ColumnType(columnType.key(), Optional.empty(), 0, ColumnType.UNLIMITED);
        }
        return columnType.withBounds(0, ColumnType.UNLIMITED);
    }

    /** The {@code <mutator>} of a mutation. */
    public enum Mutator {
        /** Addition. */
        ADD("+="),
        /** Subtraction. */
        SUBTRACT("-="),
        /** Multiplication. */
        MULTIPLY("*="),
        /** Division. */
        DIVIDE("/="),
        /** Remainder; integer only. */
        MODULO("%="),
        /** Set or map insertion. */
        INSERT("insert"),
        /** Set or map deletion. */
        DELETE("delete");

        private final String symbol;

        Mutator(String symbol) {
            this.symbol = symbol;
        }

        /**
         * Returns the mutator as written in JSON.
         *
         * @return e.g. {@code "+="} or {@code "insert"}
         */
        public String symbol() {
            return symbol;
        }

        private boolean isArithmetic() {
            return this != INSERT && this != DELETE;
        }
    }
}
