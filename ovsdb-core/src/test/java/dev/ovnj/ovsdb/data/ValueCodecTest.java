package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValueCodecTest {

    private static final UUID U1 = UUID.fromString("36bbbbaf-5f4e-4c39-8d05-2a1b8c1e0001");
    private static final UUID U2 = UUID.fromString("36bbbbaf-5f4e-4c39-8d05-2a1b8c1e0002");

    private final TableSchema parent = SchemaFixtures.allShapes().table("Parent");

    private ColumnType type(String column) {
        return parent.column(column).type();
    }

    private void roundTrips(String column, Object value, String json) {
        assertThat(ValueCodec.toJson(type(column), value).toString()).isEqualTo(parse(json).toString());
        assertThat(ValueCodec.fromJson(type(column), parse(json))).isEqualTo(value);
    }

    @Test
    void scalarsRoundTrip() {
        roundTrips("count", 7L, "7");
        roundTrips("weight", 1.5, "1.5");
        roundTrips("flag", true, "true");
        roundTrips("name", "ab", "'ab'");
        roundTrips("id", U1, "['uuid','" + U1 + "']");
    }

    @Test
    void optionalRoundTrips() {
        roundTrips("nick", Set.of(), "['set',[]]");
        roundTrips("nick", Set.of("x"), "['set',['x']]");
    }

    @Test
    void setsAndMapsRoundTripInSortedOrder() {
        roundTrips("ports", Set.of(80L, 443L, 8080L), "['set',[80,443,8080]]");
        roundTrips("children", Set.of(U2, U1), "['set',[['uuid','" + U1 + "'],['uuid','" + U2 + "']]]");
        roundTrips("options", Map.of("b", "2", "a", "1"), "['map',[['a','1'],['b','2']]]");
        roundTrips("prio_by_child", Map.of(U1, 5L), "['map',[[['uuid','" + U1 + "'],5]]]");
        roundTrips("options", Map.of(), "['map',[]]");
    }

    @Test
    void setOfOneMayArriveAsBareAtom() {
        assertThat(ValueCodec.fromJson(type("nick"), parse("'solo'"))).isEqualTo(Set.of("solo"));
        assertThat(ValueCodec.fromJson(type("children"), parse("['uuid','" + U1 + "']"))).isEqualTo(Set.of(U1));
        assertThat(ValueCodec.fromJson(type("name"), parse("['set',['abc']]"))).isEqualTo("abc");
    }

    @Test
    void decodedCollectionsAreImmutable() {
        Object tags = ValueCodec.fromJson(type("tags"), parse("['set',['a']]"));
        assertThatThrownBy(() -> ((Set<?>) tags).clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void integersStayIntegersAndRealsAcceptJsonIntegers() {
        assertThat(ValueCodec.toJson(type("count"), 3L).isIntegralNumber()).isTrue();
        assertThat(ValueCodec.toJson(type("count"), 3L).toString()).isEqualTo("3");
        Object real = ValueCodec.fromJson(type("ratio"), parse("1"));
        assertThat(real).isInstanceOf(Double.class).isEqualTo(1.0);
        assertThat(ValueCodec.toJson(type("ratio"), 1.0).toString()).isEqualTo("1.0");
    }

    @Test
    void integerColumnRejectsFractionNamingTypeAndJson() {
        assertThatThrownBy(() -> ValueCodec.fromJson(type("count"), parse("1.5")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessage("expected an integer, got 1.5 for column type "
                        + "{\"key\":{\"type\":\"integer\",\"minInteger\":1,\"maxInteger\":10}}");
    }

    @Test
    void withColumnPrefixesLocation() {
        ValueTypeException e = (ValueTypeException) catchThrowable(
                () -> ValueCodec.fromJson(type("flag"), parse("'yes'")));
        ValueTypeException located = e.withColumn("Parent", "flag");
        assertThat(located).hasMessage("Parent.flag: expected a boolean, got \"yes\" for column type \"boolean\"");
        assertThat(located.location()).contains("Parent.flag");
        assertThat(e.location()).isEmpty();
        assertThat(located.offendingValue()).isEqualTo("\"yes\"");
    }

    @Test
    void wrongShapesRejected() {
        assertThatThrownBy(() -> ValueCodec.fromJson(type("options"), parse("['set',[]]")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("expected [\"map\", [[key, value], ...]], got [\"set\",[]]");
        assertThatThrownBy(() -> ValueCodec.fromJson(type("nick"), parse("['set',['a','b']]")))
                .hasMessageStartingWith("expected 0..1 elements but found 2");
        assertThatThrownBy(() -> ValueCodec.fromJson(type("id"), parse("['uuid','1-1-1-1-1']")))
                .hasMessageStartingWith("expected [\"uuid\", \"<uuid>\"] or [\"named-uuid\", \"<id>\"]");
        assertThatThrownBy(() -> ValueCodec.fromJson(type("name"), parse("['set',[]]")))
                .hasMessageStartingWith("expected exactly one atom");
        assertThatThrownBy(() -> ValueCodec.fromJson(type("tags"), parse("['set',['a','a']]")))
                .hasMessageStartingWith("set contains duplicate element \"a\"");
        assertThatThrownBy(() -> ValueCodec.fromJson(type("options"), parse("['map',[['k','1'],['j','2'],['k','3']]]")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("map contains duplicate key \"k\"");
        assertThatThrownBy(() -> ValueCodec.toJson(type("count"), 3))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("expected a Long atom, got Integer 3");
        assertThatThrownBy(() -> ValueCodec.toJson(type("tags"), "a"))
                .hasMessageStartingWith("expected a java.util.Set, got String \"a\"");
    }

    @Test
    void namedUuidEncodesAndDecodes() {
        roundTrips("children", Set.of(new NamedUuid("kid")), "['set',[['named-uuid','kid']]]");
        assertThatThrownBy(() -> new NamedUuid("1bad")).hasMessageContaining("uuid-name \"1bad\" is not an <id>");
    }

    @Test
    void defaultsFollowTypeAndMin() {
        assertThat(ValueCodec.defaultValue(type("count"))).isEqualTo(0L);
        assertThat(ValueCodec.defaultValue(type("ratio"))).isEqualTo(0.0);
        assertThat(ValueCodec.defaultValue(type("flag"))).isEqualTo(false);
        assertThat(ValueCodec.defaultValue(type("name"))).isEqualTo("");
        assertThat(ValueCodec.defaultValue(type("id"))).isEqualTo(new UUID(0, 0));
        assertThat(ValueCodec.defaultValue(type("tags"))).isEqualTo(Set.of());
        assertThat(ValueCodec.defaultValue(type("options"))).isEqualTo(Map.of());
        assertThat(ValueCodec.defaultValue(type("ports"))).isEqualTo(Set.of(0L));
        assertThat(ValueCodec.defaultValue(type("prio_by_child"))).isEqualTo(Map.of(new UUID(0, 0), 0L));
    }
}
