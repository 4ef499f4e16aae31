package dev.ovnj.ovsdb.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A parsed database schema (RFC 7047 section 3.2 {@code <database-schema>}). */
public final class DatabaseSchema {

    private final String name;
    private final Optional<String> version;
    private final Optional<String> cksum;
    private final Map<String, TableSchema> tables;

    /**
     * Creates a schema.
     *
     * @param name the database name
     * @param version the schema version, absent in schemas that predate versioning
     * @param cksum the schema checksum, if given
     * @param tables the tables in schema order
     */
    public DatabaseSchema(String name, Optional<String> version, Optional<String> cksum,
            Map<String, TableSchema> tables) {
        this.name = Objects.requireNonNull(name, "name");
        this.version = Objects.requireNonNull(version, "version");
        this.cksum = Objects.requireNonNull(cksum, "cksum");
        this.tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    }

    /**
     * Parses a schema as returned by {@code get_schema} or stored in an {@code .ovsschema} file.
     *
     * @param json the schema object
     * @return the schema
     * @throws SchemaParseException naming the table and column of the first problem
     */
    public static DatabaseSchema parse(JsonNode json) {
        return SchemaParser.parse(json);
    }

    /**
     * Parses a schema from JSON text.
     *
     * @param json the schema text
     * @return the schema
     * @throws SchemaParseException if the text is not JSON or not a valid schema
     */
    public static DatabaseSchema parse(String json) {
        try {
            return parse(new ObjectMapper().readTree(json));
        } catch (JsonProcessingException e) {
            throw new SchemaParseException("", "schema is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Parses a schema file such as {@code ovn-nb.ovsschema}.
     *
     * @param file the file
     * @return the schema
     * @throws UncheckedIOException if the file cannot be read
     * @throws SchemaParseException if the file is not a valid schema
     */
    public static DatabaseSchema parse(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema " + file, e);
        }
    }

    /**
     * Returns the database name, e.g. {@code OVN_Northbound}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the schema version, e.g. {@code 7.0.0}.
     *
     * @return the version, or empty if the schema has none
     */
    public Optional<String> version() {
        return version;
    }

    /**
     * Returns the schema checksum.
     *
     * @return the {@code cksum} member, or empty if the schema has none
     */
    public Optional<String> cksum() {
        return cksum;
    }

    /**
     * Returns the tables keyed by name, in schema order.
     *
     * @return an immutable ordered map
     */
    public Map<String, TableSchema> tables() {
        return tables;
    }

    /**
     * Returns a table by name.
     *
     * @param table the table name
     * @return the table schema
     * @throws IllegalArgumentException naming the database and table if the table does not exist
     */
    public TableSchema table(String table) {
        TableSchema schema = tables.get(table);
        if (schema == null) {
            throw new IllegalArgumentException("database " + name + " has no table \"" + table + "\"");
        }
        return schema;
    }

    /**
     * Looks a table up without failing.
     *
     * @param table the table name
     * @return the table schema, or empty if absent
     */
    public Optional<TableSchema> findTable(String table) {
        return Optional.ofNullable(tables.get(table));
    }

    /**
     * Tells whether rows of a table survive without references. Per RFC 7047, when no table of a
     * schema sets {@code isRoot}, every table is a root table, which keeps old schemas free of
     * garbage collection.
     *
     * @param table the table name
     * @return the effective root status
     * @throws IllegalArgumentException if the table does not exist
     */
    public boolean isRootTable(String table) {
        return table(table).isRoot() || tables.values().stream().noneMatch(TableSchema::isRoot);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DatabaseSchema that
                && name.equals(that.name)
                && version.equals(that.version)
                && cksum.equals(that.cksum)
                && tables.equals(that.tables);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, version, cksum, tables);
    }

    @Override
    public String toString() {
        return "DatabaseSchema[" + name + " " + version.orElse("(no version)") + ", " + tables.size() + " tables]";
    }
}
