package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code insert} operation (RFC 7047 section 5.2.1). Columns left out get their defaults.
 *
 * @param table the table name
 * @param row the column values, in the Java representation of {@link dev.ovnj.ovsdb.data.ValueCodec}
 * @param uuidName the name by which other operations of the transaction refer to the new row
 * @param uuid the UUID the caller chooses for the new row, an extension of ovsdb-server 2.13
 */
public record Insert(String table, Map<String, Object> row, Optional<String> uuidName, Optional<UUID> uuid)
        implements Operation {

    /**
     * Validates the components and freezes the row, keeping column order for readable JSON.
     *
     * @param table the table name
     * @param row the column values
     * @param uuidName the uuid-name
     * @param uuid the chosen UUID
     */
    public Insert {
        Objects.requireNonNull(table, "table");
        row = Collections.unmodifiableMap(new LinkedHashMap<>(row));
        // NamedUuid's constructor is where the <id> syntax of uuid-names is checked.
        Objects.requireNonNull(uuidName, "uuidName").ifPresent(NamedUuid::new);
        Objects.requireNonNull(uuid, "uuid");
    }

    /**
     * Returns a copy that also sets a column.
     *
     * @param column the column name
     * @param value the value
     * @return the extended insert
     */
    public Insert value(String column, Object value) {
        Map<String, Object> extended = new LinkedHashMap<>(row);
        extended.put(column, value);
        return new Insert(table, extended, uuidName, uuid);
    }

    /**
     * Returns a copy with a uuid-name.
     *
     * @param name an {@code <id>} unique within the transaction
     * @return the named insert
     */
    public Insert uuidName(String name) {
        return new Insert(table, row, Optional.of(name), uuid);
    }

    /**
     * Returns a copy that asks the server to use the given UUID for the new row.
     *
     * @param chosen the UUID
     * @return the insert with a chosen UUID
     */
    public Insert uuid(UUID chosen) {
        return new Insert(table, row, uuidName, Optional.of(chosen));
    }

    /**
     * Returns the value by which other operations refer to the new row.
     *
     * @return the named uuid
     * @throws IllegalStateException if this insert has no uuid-name
     */
    public NamedUuid reference() {
        return new NamedUuid(uuidName.orElseThrow(() ->
                new IllegalStateException("insert into " + table + " has no uuid-name to refer to")));
    }

    @Override
    public String op() {
        return "insert";
    }

    @Override
    public String summary() {
        return "insert " + table + uuidName.map(name -> " as " + name).orElse("");
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        ObjectNode json = OperationEncoder.start(op(), table);
        json.set("row", OperationEncoder.row(schema.table(table), row, OperationEncoder.RowPurpose.INSERT));
        uuidName.ifPresent(name -> json.put("uuid-name", name));
        // ovsdb-server parses this member as a plain UUID string, not as ["uuid", ...].
        uuid.ifPresent(chosen -> json.put("uuid", chosen.toString()));
        return json;
    }
}
