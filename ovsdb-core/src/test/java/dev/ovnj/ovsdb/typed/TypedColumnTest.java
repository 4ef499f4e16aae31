package dev.ovnj.ovsdb.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.data.Json;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TypedColumnTest {

    private static final TableSchema VESSEL =
            DatabaseSchema.parse(Path.of("src/test/resources/codegen/fleet.ovsschema")).table("Vessel_Class");

    enum Kind implements WireEnum {
        CARGO("cargo"), TUG_BOAT("tug-boat");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        @Override
        public String wireValue() {
            return wire;
        }
    }

    private static final ScalarColumn<Kind> KIND = ScalarColumn.of("kind", AtomMapping.enumOf(Kind.values()));
    private static final OptionalColumn<String> CLASS = OptionalColumn.of("class", AtomMapping.STRING);
    private static final SetColumn<String> TAGS = SetColumn.of("tags", AtomMapping.STRING);
    private static final SetColumn<UUID> ESCORTS = SetColumn.of("escorts", AtomMapping.UUID);
    private static final MapColumn<String, String> LABELS =
            MapColumn.of("labels", AtomMapping.STRING, AtomMapping.STRING);

    private static String json(String text) {
        return Json.parse(text).toString();
    }

    @Test
    void enumEqualityUsesTheWireString() {
        assertThat(KIND.eq(Kind.TUG_BOAT).toJson(VESSEL).toString()).isEqualTo(json("['kind','==','tug-boat']"));
        assertThat(KIND.fromUntyped("cargo")).isEqualTo(Kind.CARGO);
        assertThatThrownBy(() -> KIND.fromUntyped("ferry"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"ferry\" is not a value of Kind");
    }

    @Test
    void mapKeyEqualityIsAnIncludesOfOneEntry() {
        assertThat(LABELS.key("owner").eq("ovnj").toJson(VESSEL).toString())
                .isEqualTo(json("['labels','includes',['map',[['owner','ovnj']]]]"));
        assertThat(LABELS.key("owner").ne("ovnj").toJson(VESSEL).toString())
                .isEqualTo(json("['labels','excludes',['map',[['owner','ovnj']]]]"));
    }

    @Test
    void setInsertAndDelete() {
        UUID escort = UUID.fromString("0b3c7f0e-5a43-4a3c-9a7e-3f6d2a1b9c00");
        assertThat(ESCORTS.insert(escort).toJson(VESSEL).toString())
                .isEqualTo(json("['escorts','insert',['set',[['uuid','" + escort + "']]]]"));
        assertThat(TAGS.delete("old").toJson(VESSEL).toString()).isEqualTo(json("['tags','delete',['set',['old']]]"));
        assertThat(TAGS.includes("fast").toJson(VESSEL).toString())
                .isEqualTo(json("['tags','includes',['set',['fast']]]"));
    }

    @Test
    void mapDeleteByKeysInsertAndDeleteEntries() {
        assertThat(LABELS.delete("owner").toJson(VESSEL).toString())
                .isEqualTo(json("['labels','delete',['set',['owner']]]"));
        assertThat(LABELS.insert(Map.of("owner", "ovnj")).toJson(VESSEL).toString())
                .isEqualTo(json("['labels','insert',['map',[['owner','ovnj']]]]"));
        assertThat(LABELS.deleteEntries(Map.of("owner", "ovnj")).toJson(VESSEL).toString())
                .isEqualTo(json("['labels','delete',['map',[['owner','ovnj']]]]"));
    }

    @Test
    void optionalColumnsAreSetsOfAtMostOne() {
        assertThat(CLASS.toUntyped(Optional.of("A"))).isEqualTo(Set.of("A"));
        assertThat(CLASS.toUntyped(Optional.empty())).isEqualTo(Set.of());
        assertThat(CLASS.fromUntyped(Set.of("A"))).contains("A");
        assertThat(CLASS.isEmpty().toJson(VESSEL).toString()).isEqualTo(json("['class','==',['set',[]]]"));
        assertThat(CLASS.is("A").toJson(VESSEL).toString()).isEqualTo(json("['class','==',['set',['A']]]"));
    }
}
