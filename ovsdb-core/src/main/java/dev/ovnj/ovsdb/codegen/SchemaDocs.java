package dev.ovnj.ovsdb.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The optional {@code doc} members of a schema's tables and columns. RFC 7047 does not define
 * them and the schema model drops them, so they are read from the schema JSON directly.
 */
final class SchemaDocs {

    private final JsonNode schema;

    /**
     * Wraps a schema document.
     *
     * @param schema the parsed {@code .ovsschema} JSON
     */
    SchemaDocs(JsonNode schema) {
        this.schema = schema;
    }

    /**
     * Returns a table's {@code doc} member.
     *
     * @param table the table name
     * @return the text, or empty if the schema has none
     */
    Optional<String> table(String table) {
        return text(schema.path("tables").path(table).path("doc"));
    }

    /**
     * Returns a column's {@code doc} member.
     *
     * @param table the table name
     * @param column the column name
     * @return the text, or empty if the schema has none
     */
    Optional<String> column(String table, String column) {
        return text(schema.path("tables").path(table).path("columns").path(column).path("doc"));
    }

    private static Optional<String> text(JsonNode doc) {
        return doc.isTextual() && !doc.textValue().isBlank() ? Optional.of(doc.textValue().strip()) : Optional.empty();
    }
}
