package dev.ovnj.ovsdb.typed;

import java.util.Objects;
import java.util.Optional;

/**
 * One table or column that a {@link DatabaseModel} uses and a server's schema does not provide
 * as the model expects.
 *
 * @param kind what is wrong
 * @param table the table name
 * @param column the column name, empty for a whole missing table
 * @param detail what the server has instead, for a type mismatch; empty otherwise
 */
public record Incompatibility(Kind kind, String table, Optional<String> column, Optional<String> detail) {

    /** What is wrong. */
    public enum Kind {
        /** The server has no such table. */
        MISSING_TABLE,
        /** The server's table has no such column. */
        MISSING_COLUMN,
        /** The server's column has another shape or atomic type. */
        TYPE_MISMATCH
    }

    /**
     * Checks the components.
     *
     * @param kind what is wrong
     * @param table the table name
     * @param column the column name
     * @param detail the server's type, for a mismatch
     */
    public Incompatibility {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(detail, "detail");
        if (column.isEmpty() != (kind == Kind.MISSING_TABLE)) {
            throw new IllegalArgumentException(kind + " needs " + (column.isEmpty() ? "a column" : "no column"));
        }
    }

    /**
     * Returns what the model uses: {@code table} or {@code table.column}.
     *
     * @return e.g. {@code "Load_Balancer.selection_fields"}
     */
    public String name() {
        return column.map(c -> table + "." + c).orElse(table);
    }

    /**
     * Describes the problem in one phrase.
     *
     * @return e.g. {@code "Load_Balancer.selection_fields missing on server"}
     */
    public String describe() {
        return switch (kind) {
            case MISSING_TABLE -> "table " + name() + " missing on server";
            case MISSING_COLUMN -> name() + " missing on server";
            case TYPE_MISMATCH -> name() + " has another type on server (" + detail.orElse("?") + ")";
        };
    }
}
