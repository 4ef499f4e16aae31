package dev.ovnj.ovsdb.data;

/**
 * Thrown before sending when a Java value breaks its column's type or constraints; the message
 * reads like {@code Load_Balancer.protocol: "http" is not one of [tcp, udp, sctp]}.
 */
public final class ValueConstraintException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The table name. */
    private final String table;
    /** The column name. */
    private final String column;
    /** The broken constraint without the location prefix. */
    private final String constraint;

    /**
     * Creates the exception.
     *
     * @param table the table name
     * @param column the column name
     * @param constraint the broken constraint, phrased about the value
     */
    public ValueConstraintException(String table, String column, String constraint) {
        super(table + "." + column + ": " + constraint);
        this.table = table;
        this.column = column;
        this.constraint = constraint;
    }

    /**
     * Returns the table name.
     *
     * @return the table
     */
    public String table() {
        return table;
    }

    /**
     * Returns the column name.
     *
     * @return the column
     */
    public String column() {
        return column;
    }

    /**
     * Returns the broken constraint without the location prefix.
     *
     * @return the constraint description
     */
    public String constraint() {
        return constraint;
    }
}
