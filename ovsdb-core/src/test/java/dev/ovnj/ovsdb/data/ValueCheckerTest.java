package dev.ovnj.ovsdb.data;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValueCheckerTest {

    private final TableSchema parent = SchemaFixtures.allShapes().table("Parent");

    private void rejects(String column, Object value, String message) {
        assertThatThrownBy(() -> ValueChecker.check("Parent", column, parent.column(column).type(), value))
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("Parent." + column + ": " + message);
    }

    private void accepts(String column, Object value) {
        assertThatCode(() -> ValueChecker.check("Parent", column, parent.column(column).type(), value))
                .doesNotThrowAnyException();
    }

    @Test
    void enumMembershipOnRealNorthboundColumn() {
        TableSchema lb = SchemaFixtures.northbound().table("Load_Balancer");
        assertThatThrownBy(() -> ValueChecker.check("Load_Balancer", "protocol", lb.column("protocol").type(),
                Set.of("http")))
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("Load_Balancer.protocol: \"http\" is not one of [tcp, udp, sctp]");
        assertThatCode(() -> ValueChecker.check("Load_Balancer", "protocol", lb.column("protocol").type(),
                Set.of("udp"))).doesNotThrowAnyException();
    }

    @Test
    void enumGivenAsSingleAtom() {
        rejects("color", Set.of("blue"), "\"blue\" is not one of [red]");
        accepts("color", Set.of("red"));
    }

    @Test
    void atomClass() {
        rejects("count", 5, "expected integer (Long) but got Integer 5");
        rejects("weight", 1L, "expected real (Double) but got Long 1");
        rejects("flag", "true", "expected boolean (Boolean) but got String \"true\"");
        rejects("name", null, "value is null; an absent optional value is an empty Set");
    }

    @Test
    void integerRange() {
        rejects("count", 0L, "0 is less than minimum allowed value 1");
        rejects("count", 11L, "11 is greater than maximum allowed value 10");
        accepts("count", 10L);
    }

    @Test
    void realRange() {
        rejects("weight", 0.25, "0.25 is less than minimum allowed value 0.5");
        rejects("weight", 3.0, "3.0 is greater than maximum allowed value 2.5");
        accepts("weight", 2.5);
    }

    @Test
    void stringLengthCountsCodePointsNotBytes() {
        rejects("name", "", "\"\" length 0 is less than minimum allowed length 1");
        rejects("name", "abcdef", "\"abcdef\" length 6 is greater than maximum allowed length 5");
        // Five characters that take 15 UTF-8 bytes and, with the emoji, 6 UTF-16 units.
        accepts("name", "äöü€😀");
    }

    @Test
    void setSize() {
        rejects("ports", Set.of(), "has 0 elements but at least 1 required");
        rejects("ports", Set.of(1L, 2L, 3L, 4L), "has 4 elements but at most 3 allowed");
        rejects("nick", Set.of("a", "b"), "has 2 elements but at most 1 allowed");
        rejects("ports", Set.of(70000L), "70000 is greater than maximum allowed value 65535");
        rejects("tags", List.of("a"), "expected a java.util.Set for column type "
                + "{\"key\":\"string\",\"min\":0,\"max\":\"unlimited\"} but got List [a]");
    }

    @Test
    void mapKeysAndValues() {
        UUID child = UUID.randomUUID();
        rejects("prio_by_child", Map.of(child, 101L), "map value 101 is greater than maximum allowed value 100");
        rejects("prio_by_child", Map.of("x", 1L), "map key expected uuid (UUID or NamedUuid) but got String \"x\"");
        rejects("prio_by_child", Map.of(), "has 0 entries but at least 1 required");
        rejects("options", Set.of(), "expected a java.util.Map for column type "
                + "{\"key\":\"string\",\"value\":\"string\",\"min\":0,\"max\":\"unlimited\"} but got Set []");
        accepts("prio_by_child", Map.of(new NamedUuid("c"), 100L));
    }

    @Test
    void referencesMustBeUuidOrNamedUuid() {
        rejects("children", Set.of("36bbbbaf-5f4e-4c39-8d05-2a1b8c1e0001"),
                "expected uuid (UUID or NamedUuid) but got String \"36bbbbaf-5f4e-4c39-8d05-2a1b8c1e0001\"");
        accepts("children", Set.of(UUID.randomUUID(), new NamedUuid("kid")));
    }
}
