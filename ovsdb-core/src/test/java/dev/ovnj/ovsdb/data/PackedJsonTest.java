package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Rows decoded straight from JSON into packed bytes must read back exactly what
 * {@link ValueCodec#fromJson} decodes, and fail with exactly its errors, for every column shape.
 */
class PackedJsonTest {

    private static final UUID ROW = UUID.fromString("aaaaaaaa-0000-0000-0000-000000000001");
    private static final String U1 = "0123abcd-4567-89ef-0123-456789abcdef";
    private static final String U1_UPPER = "0123ABCD-4567-89EF-0123-456789ABCDEF";
    private static final String U2 = "ffffffff-ffff-ffff-ffff-fffffffffffe";
    private static final String ZERO = "00000000-0000-0000-0000-000000000000";

    private static final TableSchema T = DatabaseSchema.parse("""
            {"name": "Shapes", "version": "1.0.0", "tables": {"T": {"columns": {
              "i": {"type": "integer"},
              "r": {"type": "real"},
              "b": {"type": "boolean"},
              "s": {"type": "string"},
              "u": {"type": "uuid"},
              "oi": {"type": {"key": "integer", "min": 0, "max": 1}},
              "or": {"type": {"key": "real", "min": 0, "max": 1}},
              "ob": {"type": {"key": "boolean", "min": 0, "max": 1}},
              "os": {"type": {"key": "string", "min": 0, "max": 1}},
              "ou": {"type": {"key": "uuid", "min": 0, "max": 1}},
              "si": {"type": {"key": "integer", "min": 0, "max": "unlimited"}},
              "sr": {"type": {"key": "real", "min": 0, "max": "unlimited"}},
              "sb": {"type": {"key": "boolean", "min": 0, "max": "unlimited"}},
              "ss": {"type": {"key": "string", "min": 0, "max": "unlimited"}},
              "su": {"type": {"key": "uuid", "min": 0, "max": "unlimited"}},
              "s13": {"type": {"key": "integer", "min": 1, "max": 3}},
              "s1u": {"type": {"key": "uuid", "min": 1, "max": "unlimited"}},
              "mss": {"type": {"key": "string", "value": "string", "min": 0, "max": "unlimited"}},
              "mir": {"type": {"key": "integer", "value": "real", "min": 0, "max": "unlimited"}},
              "mub": {"type": {"key": "uuid", "value": "boolean", "min": 0, "max": "unlimited"}},
              "mbu": {"type": {"key": "boolean", "value": "uuid", "min": 0, "max": 2}},
              "m1": {"type": {"key": "string", "value": "integer", "min": 1, "max": 1}}
            }}}}
            """).table("T");

    /** Valid values of every column, including the edges of each encoding. */
    private static final Map<String, List<String>> VALID = Map.ofEntries(
            Map.entry("i", List.of("0", "1", "-1", "63", "64", "-65", "9223372036854775807", "-9223372036854775808")),
            Map.entry("r", List.of("0", "0.0", "-0.0", "1", "2.5", "-1e300", "4.9e-324")),
            Map.entry("b", List.of("true", "false")),
            Map.entry("s", List.of("''", "'a'", "'10.0.0.1:80'", "'1'", "'caf\u00e9'", "'\u65e5\u672c'", "'\\ud800x'",
                    "'" + "x".repeat(300) + "'", "'10.0.0.1:80,10.0.0.2:80 - /'")),
            Map.entry("u", List.of("['uuid','" + U1 + "']", "['uuid','" + U1_UPPER + "']", "['uuid','" + ZERO + "']")),
            Map.entry("oi", List.of("['set',[]]", "7", "['set',[0]]", "['set',[-300]]")),
            Map.entry("or", List.of("['set',[]]", "0.5", "['set',[0]]")),
            Map.entry("ob", List.of("['set',[]]", "false", "['set',[true]]")),
            Map.entry("os", List.of("['set',[]]", "''", "'x'", "['set',['y']]")),
            Map.entry("ou", List.of("['set',[]]", "['uuid','" + U2 + "']", "['set',[['uuid','" + ZERO + "']]]",
                    "['named-uuid','row1']")),
            Map.entry("si", List.of("['set',[]]", "5", "['set',[1,2,3,-4000000000]]", many("", 32), many("", 33))),
            Map.entry("sr", List.of("['set',[0.0,-0.0]]", "['set',[1,1.5]]")),
            Map.entry("sb", List.of("['set',[true,false]]", "true")),
            Map.entry("ss", List.of("['set',['a','b','']]", "'solo'", many("'s", 32), many("'s", 40))),
            Map.entry("su", List.of("['set',[['uuid','" + U1 + "'],['uuid','" + U2 + "']]]", "['uuid','" + U1 + "']",
                    "['set',[['named-uuid','a'],['uuid','" + U2 + "']]]")),
            Map.entry("s13", List.of("0", "['set',[0]]", "['set',[1,2,3]]", "5")),
            Map.entry("s1u", List.of("['uuid','" + ZERO + "']", "['set',[['uuid','" + U1 + "'],['uuid','" + U2 + "']]]")),
            Map.entry("mss", List.of("['map',[]]", "['map',[['k','v']]]", "['map',[['a',''],['b','2'],['','c']]]",
                    manyPairs(32), manyPairs(33))),
            Map.entry("mir", List.of("['map',[[1,0.5],[-1,0],[2,-0.0]]]")),
            Map.entry("mub", List.of("['map',[[['uuid','" + U1 + "'],true],[['uuid','" + U2 + "'],false]]]")),
            Map.entry("mbu", List.of("['map',[[false,['uuid','" + ZERO + "']]]]",
                    "['map',[[true,['uuid','" + U1 + "']],[false,['uuid','" + U2 + "']]]]")),
            Map.entry("m1", List.of("['map',[['',0]]]", "['map',[['k',1]]]")));

    /** Values that break their column's type; each must fail as ValueCodec fails. */
    private static final Map<String, List<String>> INVALID = Map.ofEntries(
            Map.entry("i", List.of("1.5", "'1'", "true", "['set',[]]", "['set',[1,2]]", "99999999999999999999", "null")),
            Map.entry("r", List.of("'x'", "false", "['set',[1,2]]")),
            Map.entry("b", List.of("0", "'true'")),
            Map.entry("s", List.of("5", "['set',['a','b']]", "{}")),
            Map.entry("u", List.of("'" + U1 + "'", "['uuid','1-1-1-1-1']", "['uuid', 5]", "['uuid']",
                    "['uuid','" + U1 + "', 1]", "['named-uuid', '']")),
            Map.entry("oi", List.of("['set',[1,2]]", "['set',5]", "'x'")),
            Map.entry("si", List.of("['set',[1,1]]", "['set',[1,'x']]", "['map',[]]", "['set']")),
            Map.entry("sr", List.of("['set',[1,1.0]]")),
            Map.entry("sb", List.of("['set',[true,true]]")),
            Map.entry("ss", List.of("['set',['a','a']]", many("'s", 33).replace("s1'", "s0'"))),
            Map.entry("su", List.of("['set',[['uuid','" + U1 + "'],['uuid','" + U1_UPPER + "']]]",
                    "['set',[['uuid','x']]]")),
            Map.entry("s13", List.of("['set',[]]", "['set',[1,2,3,4]]")),
            Map.entry("s1u", List.of("['set',[]]")),
            Map.entry("mss", List.of("['map',[['a','1'],['a','2']]]", "['map',[['a']]]", "['map',[['a','b','c']]]",
                    "['map',[[1,'b']]]", "['map',[['a',2]]]", "['map',{}]", "['set',[]]", "'x'",
                    "['map',[['a','b'],5]]")),
            Map.entry("mbu", List.of("['map',[[true,['uuid','" + U1 + "']],[false,['uuid','" + U1 + "']],"
                    + "[true,['uuid','" + U2 + "']]]]")),
            Map.entry("m1", List.of("['map',[]]", "['map',[['a',1],['b',2]]]")));

    private static String many(String prefix, int count) {
        List<String> atoms = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            atoms.add(prefix.isEmpty() ? String.valueOf(k * 1000) : prefix + k + "'");
        }
        return "['set',[" + String.join(",", atoms) + "]]";
    }

    private static String manyPairs(int count) {
        List<String> pairs = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            pairs.add("['k" + k + "','10.0.0." + k + ":80']");
        }
        return "['map',[" + String.join(",", pairs) + "]]";
    }

    private static ObjectNode row(String column, JsonNode value) {
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        row.set(column, value);
        return row;
    }

    @Test
    void everyShapeReadsBackWhatValueCodecDecodes() {
        VALID.forEach((column, values) -> {
            ColumnType type = T.column(column).type();
            for (String text : values) {
                JsonNode json = parse(text);
                Object expected = ValueCodec.fromJson(type, json);
                Row complete = Row.fromJson(T, ROW, row(column, json));
                Row partial = Row.fromPartialJson(T, row(column, json));
                assertThat((Object) complete.get(column)).as("%s = %s", column, text).isEqualTo(expected);
                assertThat((Object) partial.get(column)).as("partial %s = %s", column, text).isEqualTo(expected);
                assertThat(partial.presentColumns()).containsExactly(column);
                // The same row built from Java values is equal, hashes alike and has the same JSON.
                Row fromValues = Row.fromJson(T, ROW, JsonNodeFactory.instance.objectNode()).with(Map.of(column, expected));
                assertThat(complete).as("%s = %s", column, text).isEqualTo(fromValues);
                assertThat(complete.hashCode()).isEqualTo(fromValues.hashCode());
                assertThat(complete.toJson()).isEqualTo(fromValues.toJson());
                // The other columns keep their defaults.
                for (var other : T.columns()) {
                    if (!other.name().equals(column) && !other.name().startsWith("_")) {
                        assertThat((Object) complete.get(other.name())).isEqualTo(ValueCodec.defaultValue(other.type()));
                    }
                }
            }
        });
    }

    @Test
    void aRowOfManyColumnsReadsBackEveryColumn() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        VALID.forEach((column, values) -> json.set(column, parse(values.get(values.size() - 1))));
        json.set("_version", parse("['uuid','" + U2 + "']"));
        json.set("_uuid", parse("['uuid','" + ROW + "']"));
        Row complete = Row.fromJson(T, ROW, json);
        Row partial = Row.fromPartialJson(T, json);
        assertThat(partial.uuid()).isEqualTo(ROW);
        assertThat(complete.version()).contains(UUID.fromString(U2));
        VALID.forEach((column, values) -> {
            Object expected = ValueCodec.fromJson(T.column(column).type(), json.get(column));
            assertThat((Object) complete.get(column)).as(column).isEqualTo(expected);
            assertThat((Object) partial.get(column)).as(column).isEqualTo(expected);
        });
    }

    @Test
    void everyBrokenValueFailsAsValueCodecFails() {
        INVALID.forEach((column, values) -> {
            ColumnType type = T.column(column).type();
            for (String text : values) {
                JsonNode json = parse(text);
                Throwable expected = catchThrowable(() -> ValueCodec.fromJson(type, json));
                assertThat(expected).as("%s = %s", column, text).isInstanceOf(ValueTypeException.class);
                String message = "T." + column + ": " + expected.getMessage();
                assertThatThrownBy(() -> Row.fromJson(T, ROW, row(column, json)))
                        .as("%s = %s", column, text)
                        .isInstanceOf(ValueTypeException.class).hasMessage(message);
                assertThatThrownBy(() -> Row.fromPartialJson(T, row(column, json)))
                        .isInstanceOf(ValueTypeException.class).hasMessage(message);
            }
        });
    }

    @Test
    void theFirstBrokenColumnInTheJsonIsTheOneReported() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.set("s", parse("'fine'"));
        json.set("si", parse("['set',[1,1]]"));
        json.set("i", parse("'x'"));
        assertThatThrownBy(() -> Row.fromJson(T, ROW, json)).hasMessageStartingWith("T.si: ");
    }

    @Test
    void defaultsAreNotStoredInACompleteRowButAreInAPartialOne() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        for (String column : List.of("i", "r", "b", "s", "u", "si", "mss", "s13", "s1u", "m1")) {
            json.set(column, parse(switch (column) {
                case "i", "r", "s13" -> "0";
                case "b" -> "false";
                case "s" -> "''";
                case "u", "s1u" -> "['uuid','" + ZERO + "']";
                case "m1" -> "['map',[['',0]]]";
                case "si" -> "['set',[]]";
                default -> "['map',[]]";
            }));
        }
        Row complete = Row.fromJson(T, ROW, json);
        Row empty = Row.fromJson(T, ROW, JsonNodeFactory.instance.objectNode());
        assertThat(PackedColumns.bytes(dataOf(complete))).isEqualTo(PackedColumns.bytes(dataOf(empty)));
        Row partial = Row.fromPartialJson(T, json);
        assertThat(partial.presentColumns()).hasSize(10);
        assertThat((Object) partial.get("s1u")).isEqualTo(Set.of(new UUID(0, 0)));
        assertThat((Object) partial.get("m1")).isEqualTo(Map.of("", 0L));
        // -0.0 is not the default 0.0.
        assertThat((Object) Row.fromJson(T, ROW, row("r", parse("-0.0"))).get("r")).isEqualTo(-0.0);
    }

    private static Object dataOf(Row row) {
        try {
            var field = Row.class.getDeclaredField("data");
            field.setAccessible(true);
            return field.get(row);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aDiffRepacksOnlyItsColumnsAndTheRowReadsAsIfBuiltAfresh() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        VALID.forEach((column, values) -> json.set(column, parse(values.get(values.size() - 1))));
        json.set("_version", parse("['uuid','" + U2 + "']"));
        Row before = Row.fromJson(T, ROW, json);
        ObjectNode diff = JsonNodeFactory.instance.objectNode();
        diff.set("s", parse("'renamed'"));
        diff.set("si", parse(many("", 33)));                      // every element toggled out: back to the default
        diff.set("sr", parse("['set',[1,3]]"));                  // a set loses one element, gains one; ss, big, is untouched
        diff.set("mss", parse("['map',[['k0','10.0.0.0:80'],['k1','changed'],['added','x']]]"));
        diff.set("ou", parse("['set',[]]"));
        diff.set("_version", parse("['uuid','" + U1 + "']"));
        Row after = before.applyDiff(diff);

        Map<String, Object> expected = new java.util.HashMap<>();
        for (var column : T.columns()) {
            expected.put(column.name(), before.get(column.name()));
        }
        expected.put("s", "renamed");
        expected.put("si", Set.of());
        expected.put("sr", Set.of(1.5, 3.0));
        Map<Object, Object> mss = new java.util.HashMap<>((Map<?, ?>) before.get("mss"));
        mss.remove("k0");
        mss.put("k1", "changed");
        mss.put("added", "x");
        expected.put("mss", Map.copyOf(mss));
        expected.put("ou", Set.of());
        expected.put("_version", UUID.fromString(U1));
        for (var column : T.columns()) {
            assertThat((Object) after.get(column.name())).as(column.name()).isEqualTo(expected.get(column.name()));
        }
        // Untouched columns, inline or kept as objects, read as before; the row equals one decoded afresh.
        Row afresh = Row.fromJson(T, ROW, after.toJson());
        assertThat(after).isEqualTo(afresh);
        assertThat(after.hashCode()).isEqualTo(afresh.hashCode());
        assertThat(after.toJson()).isEqualTo(afresh.toJson());
        assertThat(PackedColumns.bytes(dataOf(after)).length).isEqualTo(PackedColumns.bytes(dataOf(afresh)).length);
        // The original is untouched.
        assertThat((Object) before.get("s")).isEqualTo(ValueCodec.fromJson(T.column("s").type(), json.get("s")));

        // A partial row keeps its kind, and a default value stays stored in it.
        ObjectNode some = JsonNodeFactory.instance.objectNode();
        some.set("si", parse("['set',[1,2]]"));
        some.set("i", parse("5"));
        Row partial = Row.fromPartialJson(T, some);
        Row partialAfter = partial.applyDiff(Json.object("{'si':['set',[1,2]],'b':true}"));
        assertThat(partialAfter.presentColumns()).containsExactly("i", "b", "si");
        assertThat((Object) partialAfter.get("si")).isEqualTo(Set.of());
        assertThat((Object) partialAfter.get("i")).isEqualTo(5L);
        assertThatThrownBy(() -> partial.applyDiff(Json.object("{'ss':['set',['a']]}")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDifferentUuidAndAnUnknownColumnAreStillRejected() {
        assertThatThrownBy(() -> Row.fromJson(T, ROW, row("_uuid", parse("['uuid','" + U1 + "']"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("T row " + ROW + " carries a different _uuid " + U1);
        assertThatThrownBy(() -> Row.fromJson(T, ROW, row("nope", parse("1"))))
                .hasMessage("table T has no column \"nope\"");
    }
}
