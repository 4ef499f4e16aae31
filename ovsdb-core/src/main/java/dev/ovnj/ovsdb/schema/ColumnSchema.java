package dev.ovnj.ovsdb.schema;

import java.util.Objects;

/**
 * One column of a table (RFC 7047 section 3.2 {@code <column-schema>}).
 *
 * @param name the column name
 * @param type the column type
 * @param ephemeral true if the server need not persist the column
 * @param mutable false if the column may only be set by {@code insert}
 */
public record ColumnSchema(String name, ColumnType type, boolean ephemeral, boolean mutable) {

    /**
     * Validates the components.
     *
     * @param name the column name
     * @param type the column type
     * @param ephemeral whether the column is ephemeral
     * @param mutable whether the column is mutable
     */
    public ColumnSchema {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /**
     * Tells whether this is one of the columns every table has implicitly, {@code _uuid} and
     * {@code _version}, which clients may read but never write.
     *
     * @return true for {@code _uuid} and {@code _version}
     */
    public boolean isImplicit() {
        return TableSchema.UUID_COLUMN.equals(name) || TableSchema.VERSION_COLUMN.equals(name);
    }
}
