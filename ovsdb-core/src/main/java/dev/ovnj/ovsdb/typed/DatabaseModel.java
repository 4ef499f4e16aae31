package dev.ovnj.ovsdb.typed;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed model of one database schema: its name and version and the descriptor of every table.
 *
 * @param name the database name, e.g. {@code "OVN_Northbound"}
 * @param version the schema version the model was generated from, e.g. {@code "7.0.0"}
 * @param tables the table descriptors, in schema order
 */
public record DatabaseModel(String name, String version, List<TableModel<?>> tables) {

    /**
     * Validates and freezes the components.
     *
     * @param name the database name
     * @param version the schema version
     * @param tables the table descriptors
     */
    public DatabaseModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        tables = List.copyOf(tables);
    }

    /**
     * Looks a table up by its value type.
     *
     * @param type the generated value type
     * @param <T> the value type
     * @return the descriptor
     * @throws IllegalArgumentException if the type belongs to no table of this database
     */
    @SuppressWarnings("unchecked") // the descriptor's type() is the class we matched
    public <T extends TypedRow> TableModel<T> table(Class<T> type) {
        for (TableModel<?> table : tables) {
            if (table.type() == type) {
                return (TableModel<T>) table;
            }
        }
        throw new IllegalArgumentException(type.getName() + " is no table of " + name);
    }

    /**
     * Looks a table up by its schema name.
     *
     * @param table the table name
     * @return the descriptor, or empty if the database has no such table
     */
    public Optional<TableModel<?>> findTable(String table) {
        return tables.stream().filter(t -> t.name().equals(table)).findFirst();
    }
}
