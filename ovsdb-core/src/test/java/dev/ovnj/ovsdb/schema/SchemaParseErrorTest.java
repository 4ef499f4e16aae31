package dev.ovnj.ovsdb.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class SchemaParseErrorTest {

    private static String oneColumn(String columnSchema) {
        return "{\"name\":\"D\",\"tables\":{\"T\":{\"columns\":{\"c\":" + columnSchema + "}}}}";
    }

    private static void rejects(String columnSchema, String message) {
        assertThatThrownBy(() -> DatabaseSchema.parse(oneColumn(columnSchema)))
                .isInstanceOf(SchemaParseException.class)
                .hasMessageStartingWith("T.c: ")
                .hasMessageContaining(message);
    }

    @Test
    void unknownAtomicType() {
        rejects("{\"type\":\"float\"}", "\"float\" is not an atomic type");
        SchemaParseException e = catchThrowableOfType(SchemaParseException.class,
                () -> DatabaseSchema.parse(oneColumn("{\"type\":\"float\"}")));
        assertThat(e.location()).contains("T.c");
    }

    @Test
    void missingType() {
        rejects("{\"ephemeral\":true}", "missing \"type\"");
    }

    @Test
    void badMinAndMax() {
        rejects("{\"type\":{\"key\":\"string\",\"min\":2,\"max\":3}}", "\"min\" must be 0 or 1");
        rejects("{\"type\":{\"key\":\"string\",\"max\":0}}", "\"max\" must be a positive integer or \"unlimited\"");
        rejects("{\"type\":{\"key\":\"string\",\"max\":\"many\"}}", "\"max\" must be a positive integer");
    }

    @Test
    void constraintOnWrongType() {
        rejects("{\"type\":{\"key\":{\"type\":\"string\",\"minInteger\":1}}}",
                "\"minInteger\" is only allowed for integer, not string");
        rejects("{\"type\":{\"key\":{\"type\":\"integer\",\"maxLength\":1}}}",
                "\"maxLength\" is only allowed for string, not integer");
        rejects("{\"type\":{\"key\":{\"type\":\"string\",\"refTable\":\"T\"}}}", "\"refTable\" must be a table name on a uuid type");
    }

    @Test
    void enumAtomOfWrongType() {
        rejects("{\"type\":{\"key\":{\"type\":\"integer\",\"enum\":[\"set\",[1,\"x\"]]}}}",
                "enum value \"x\" is not a integer");
    }

    @Test
    void badRefType() {
        rejects("{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"T\",\"refType\":\"soft\"}}}",
                "\"refType\" must be \"strong\" or \"weak\"");
    }

    @Test
    void unknownRefTable() {
        rejects("{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"Nope\"}}}", "\"refTable\" names unknown table Nope");
    }

    @Test
    void reservedColumnName() {
        assertThatThrownBy(() -> DatabaseSchema.parse(
                "{\"name\":\"D\",\"tables\":{\"T\":{\"columns\":{\"_x\":{\"type\":\"string\"}}}}}"))
                .isInstanceOf(SchemaParseException.class)
                .hasMessage("T._x: column name is not an <id> or starts with \"_\"");
    }

    @Test
    void indexOnUnknownColumnNamesTable() {
        assertThatThrownBy(() -> DatabaseSchema.parse(
                "{\"name\":\"D\",\"tables\":{\"T\":{\"columns\":{\"c\":{\"type\":\"string\"}},\"indexes\":[[\"d\"]]}}}"))
                .isInstanceOf(SchemaParseException.class)
                .hasMessage("T: index [\"d\"] names unknown column \"d\"");
    }

    @Test
    void badVersionAndMissingName() {
        assertThatThrownBy(() -> DatabaseSchema.parse("{\"name\":\"D\",\"version\":\"7\",\"tables\":{}}"))
                .hasMessage("version \"7\" is not of the form x.y.z");
        assertThatThrownBy(() -> DatabaseSchema.parse("{\"tables\":{}}"))
                .hasMessage("missing string member \"name\"");
        assertThatThrownBy(() -> DatabaseSchema.parse("{not json"))
                .isInstanceOf(SchemaParseException.class)
                .hasMessageStartingWith("schema is not valid JSON");
    }
}
