package dev.ovnj.ovsdb.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SchemaCompatibilityTest {

    private static final ScalarColumn<String> NAME = ScalarColumn.of("name", AtomMapping.STRING);
    private static final SetColumn<String> TAGS = SetColumn.of("tags", AtomMapping.STRING);
    private static final OptionalColumn<Long> LIMIT = OptionalColumn.of("limit", AtomMapping.INTEGER);
    private static final MapColumn<String, String> IDS = MapColumn.of("ids", AtomMapping.STRING, AtomMapping.STRING);

    /** A minimal value type; conversion is never exercised here. */
    private record Thing() implements TypedRow {
        @Override
        public Optional<UUID> uuid() {
            return Optional.empty();
        }

        @Override
        public Optional<UUID> version() {
            return Optional.empty();
        }

        @Override
        public TableModel<?> tableModel() {
            return THING;
        }

        @Override
        public Map<String, Object> toColumns() {
            return Map.of();
        }
    }

    private static final TableModel<Thing> THING = TableModel.of("Thing", Thing.class, row -> new Thing(),
            NAME, TAGS, LIMIT, IDS);
    private static final DatabaseModel MODEL = new DatabaseModel("Db", "2.0.0", List.of(THING));

    private static DatabaseSchema schema(String version, String columns) {
        return DatabaseSchema.parse("{\"name\":\"Db\",\"version\":\"" + version + "\",\"tables\":{\"Thing\":{\"columns\":{"
                + columns + "}}}}");
    }

    @Test
    void extraColumnsAndTablesOnANewerServerAreIgnored() {
        DatabaseSchema newer = DatabaseSchema.parse("{\"name\":\"Db\",\"version\":\"3.0.0\",\"tables\":{"
                + "\"Thing\":{\"columns\":{\"name\":{\"type\":\"string\"},"
                + "\"tags\":{\"type\":{\"key\":\"string\",\"min\":0,\"max\":\"unlimited\"}},"
                + "\"limit\":{\"type\":{\"key\":\"integer\",\"min\":0,\"max\":1}},"
                + "\"ids\":{\"type\":{\"key\":\"string\",\"value\":\"string\",\"min\":0,\"max\":\"unlimited\"}},"
                + "\"added\":{\"type\":\"boolean\"}}},"
                + "\"Other\":{\"columns\":{\"x\":{\"type\":\"string\"}}}}}");
        CompatibilityReport report = SchemaCompatibility.check(MODEL, newer);
        assertThat(report.isCompatible()).isTrue();
        assertThat(report.describe()).isEqualTo("server schema fits the model (Db schema 3.0.0, model 2.0.0)");
    }

    @Test
    void missingColumnsAndTypeChangesAreNamed() {
        DatabaseSchema older = schema("1.0.0", "\"name\":{\"type\":\"integer\"},"
                + "\"tags\":{\"type\":{\"key\":\"string\",\"min\":0,\"max\":1}},"
                + "\"limit\":{\"type\":{\"key\":\"integer\",\"min\":0,\"max\":\"unlimited\"}}");
        CompatibilityReport report = SchemaCompatibility.check(MODEL, older);
        assertThat(report.unusableColumns()).containsExactly("Thing.name", "Thing.limit", "Thing.ids");
        assertThat(report.problems()).extracting(Incompatibility::kind).containsExactly(
                Incompatibility.Kind.TYPE_MISMATCH, Incompatibility.Kind.TYPE_MISMATCH, Incompatibility.Kind.MISSING_COLUMN);
        assertThat(report.describe()).startsWith("Thing.name has another type on server (expected string, server has ")
                .contains("Thing.ids missing on server").endsWith("(Db schema 1.0.0, model 2.0.0)");
    }

    @Test
    void aMissingTableIsReportedOnce() {
        DatabaseSchema none = DatabaseSchema.parse("{\"name\":\"Db\",\"tables\":{\"Other\":{\"columns\":{\"x\":{\"type\":\"string\"}}}}}");
        CompatibilityReport report = SchemaCompatibility.check(MODEL, none);
        assertThat(report.missingTables()).containsExactly("Thing");
        assertThat(report.unusableColumns()).isEmpty();
        assertThat(report.hasTable("Thing")).isFalse();
        assertThat(report.describe()).isEqualTo("table Thing missing on server (Db schema without version, model 2.0.0)");
    }

    @Test
    void anotherDatabaseIsRefused() {
        assertThatThrownBy(() -> SchemaCompatibility.check(MODEL, DatabaseSchema.parse("{\"name\":\"Else\",\"tables\":{}}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Else");
    }
}
