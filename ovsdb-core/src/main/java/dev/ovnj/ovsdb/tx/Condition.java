package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.data.ValueChecker;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code <condition>} of a {@code where} clause (RFC 7047 section 5.1): either a comparison of
 * a column with a value, or one of the literal conditions {@link #TRUE} and {@link #FALSE} that
 * ovsdb-server accepts (ovsdb-server(7) section 5.1).
 */
public sealed interface Condition permits Condition.Comparison, Condition.Literal {

    /** The condition that every row satisfies. */
    Condition TRUE = Literal.TRUE;

    /** The condition that no row satisfies. */
    Condition FALSE = Literal.FALSE;

    /**
     * Encodes the condition, checking the value against the column type of the table.
     *
     * @param table the table the condition applies to
     * @return {@code [column, function, value]} or a JSON boolean
     * @throws IllegalArgumentException if the column does not exist or the function does not apply
     *     to its type
     * @throws dev.ovnj.ovsdb.data.ValueConstraintException if the value does not fit the column
     */
    JsonNode toJson(TableSchema table);

    /**
     * Returns {@code column == value}.
     *
     * @param column the column name
     * @param value a value of the column type
     * @return the condition
     */
    static Comparison eq(String column, Object value) {
        return new Comparison(column, Function.EQ, value);
    }

    /**
     * Returns {@code column != value}.
     *
     * @param column the column name
     * @param value a value of the column type
     * @return the condition
     */
    static Comparison ne(String column, Object value) {
        return new Comparison(column, Function.NE, value);
    }

    /**
     * Returns {@code column < value} for an integer or real column holding at most one atom.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double} atom
     * @return the condition
     */
    static Comparison lt(String column, Object value) {
        return new Comparison(column, Function.LT, value);
    }

    /**
     * Returns {@code column <= value} for an integer or real column holding at most one atom.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double} atom
     * @return the condition
     */
    static Comparison le(String column, Object value) {
        return new Comparison(column, Function.LE, value);
    }

    /**
     * Returns {@code column > value} for an integer or real column holding at most one atom.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double} atom
     * @return the condition
     */
    static Comparison gt(String column, Object value) {
        return new Comparison(column, Function.GT, value);
    }

    /**
     * Returns {@code column >= value} for an integer or real column holding at most one atom.
     *
     * @param column the column name
     * @param value a {@link Long} or {@link Double} atom
     * @return the condition
     */
    static Comparison ge(String column, Object value) {
        return new Comparison(column, Function.GE, value);
    }

    /**
     * Returns the condition that the column contains every element (or map entry) of the value.
     *
     * @param column the column name
     * @param value a set or map of any size, or a single atom standing for a set of one
     * @return the condition
     */
    static Comparison includes(String column, Object value) {
        return new Comparison(column, Function.INCLUDES, value);
    }

    /**
     * Returns the condition that the column contains no element (or map entry) of the value.
     *
     * @param column the column name
     * @param value a set or map of any size, or a single atom standing for a set of one
     * @return the condition
     */
    static Comparison excludes(String column, Object value) {
        return new Comparison(column, Function.EXCLUDES, value);
    }

    /** The {@code <function>} of a comparison. */
    enum Function {
        /** Less than; integer and real only. */
        LT("<"),
        /** Less than or equal; integer and real only. */
        LE("<="),
        /** Equal. */
        EQ("=="),
        /** Not equal. */
        NE("!="),
        /** Greater than or equal; integer and real only. */
        GE(">="),
        /** Greater than; integer and real only. */
        GT(">"),
        /** The column contains all of the value. */
        INCLUDES("includes"),
        /** The column contains none of the value. */
        EXCLUDES("excludes");

        private final String symbol;

        Function(String symbol) {
            this.symbol = symbol;
        }

        /**
         * Returns the function as written in JSON.
         *
         * @return e.g. {@code "<="} or {@code "includes"}
         */
        public String symbol() {
            return symbol;
        }

        private boolean isOrdering() {
            return this == LT || this == LE || this == GE || this == GT;
        }
    }

    /**
     * A comparison of a column with a value. Where the column (or, for {@code includes} and
     * {@code excludes}, the argument) is a set, a bare atom stands for the set of that atom.
     *
     * @param column the column name
     * @param function the comparison function
     * @param value the value, in the Java representation of {@link ValueCodec}
     */
    record Comparison(String column, Function function, Object value) implements Condition {

        /**
         * Validates the components.
         *
         * @param column the column name
         * @param function the function
         * @param value the value
         */
        public Comparison {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(function, "function");
        }

        @Override
        public JsonNode toJson(TableSchema table) {
            ColumnType type = argumentType(table, table.column(column).type());
            Object argument = type.isSet() && value != null && !(value instanceof Set<?>) ? Set.of(value) : value;
            ValueChecker.check(table.name(), column, type, argument);
            return JsonNodeFactory.instance.arrayNode()
                    .add(column)
                    .add(function.symbol())
                    .add(ValueCodec.toJson(type, argument));
        }

        private ColumnType argumentType(TableSchema table, ColumnType columnType) {
            if (function.isOrdering()) {
                AtomicType atomic = columnType.key().type();
                if (columnType.isMap() || columnType.max() > 1
                        || atomic != AtomicType.INTEGER && atomic != AtomicType.REAL) {
                    throw new IllegalArgumentException(table.name() + "." + column + ": \"" + function.symbol()
                            + "\" applies only to integer or real columns with at most one element, not "
                            + columnType);
                }
                // Ordering compares against a plain atom, whatever the column's own bounds are.
                return new ColumnType(columnType.key().withoutConstraints(), Optional.empty(), 1, 1);
            }
            if (function == Function.INCLUDES || function == Function.EXCLUDES) {
                return columnType.withBounds(0, ColumnType.UNLIMITED);
            }
            return columnType;
        }
    }

    /** The literal conditions {@code true} and {@code false}. */
    enum Literal implements Condition {
        /** Matches every row. */
        TRUE,
        /** Matches no row. */
        FALSE;

        @Override
        public JsonNode toJson(TableSchema table) {
            return JsonNodeFactory.instance.booleanNode(this == TRUE);
        }
    }
}
