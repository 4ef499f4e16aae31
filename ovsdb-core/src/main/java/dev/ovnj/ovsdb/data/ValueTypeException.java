package dev.ovnj.ovsdb.data;

import dev.ovnj.ovsdb.OvsdbException;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.Optional;

/**
 * Thrown when a JSON value, or a Java value being encoded, does not have the shape of its column
 * type. The exception is immutable; {@link #withColumn(String, String)} returns a copy that also
 * names the column.
 */
public final class ValueTypeException extends OvsdbException {

    private static final long serialVersionUID = 1L;

    /** The expected column type in schema JSON. */
    private final String columnType;
    /** The offending JSON text or Java value description. */
    private final String offendingValue;
    /** What is wrong, without location and value. */
    private final String problem;
    /** {@code table.column}, or empty until named. */
    private final String location;

    /**
     * Creates the exception without a column name.
     *
     * @param columnType the type the value should have
     * @param offendingValue the JSON text or Java description of the value
     * @param problem what is wrong, e.g. {@code "expected an integer"}
     */
    public ValueTypeException(ColumnType columnType, String offendingValue, String problem) {
        this(columnType.toString(), offendingValue, problem, "", null);
    }

    private ValueTypeException(String columnType, String offendingValue, String problem, String location,
            Throwable cause) {
        super((location.isEmpty() ? "" : location + ": ") + problem + ", got " + offendingValue
                + " for column type " + columnType, cause);
        this.columnType = columnType;
        this.offendingValue = offendingValue;
        this.problem = problem;
        this.location = location;
    }

    /**
     * Returns a copy of this exception whose message starts with {@code table.column}.
     *
     * @param table the table name
     * @param column the column name
     * @return the located exception, caused by this one
     */
    public ValueTypeException withColumn(String table, String column) {
        return new ValueTypeException(columnType, offendingValue, problem, table + "." + column, this);
    }

    /**
     * Returns the column type in schema JSON.
     *
     * @return the expected type
     */
    public String columnType() {
        return columnType;
    }

    /**
     * Returns the offending value as JSON text, or as a Java description when encoding.
     *
     * @return the offending value
     */
    public String offendingValue() {
        return offendingValue;
    }

    /**
     * Returns {@code table.column} once {@link #withColumn(String, String)} has named it.
     *
     * @return the location, or empty
     */
    public Optional<String> location() {
        return location.isEmpty() ? Optional.empty() : Optional.of(location);
    }
}
