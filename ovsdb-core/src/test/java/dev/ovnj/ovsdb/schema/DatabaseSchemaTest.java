package dev.ovnj.ovsdb.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatabaseSchemaTest {

    private final DatabaseSchema nb = SchemaFixtures.northbound();
    private final DatabaseSchema shapes = SchemaFixtures.allShapes();

    @Test
    void northboundHeader() {
        assertThat(nb.name()).isEqualTo("OVN_Northbound");
        assertThat(nb.version()).contains("7.0.0");
        assertThat(nb.cksum()).contains("94023179 33468");
        assertThat(nb.tables().keySet()).startsWith("NB_Global", "Copp", "Logical_Switch");
    }

    @Test
    void loadBalancerProtocolIsOptionalStringEnum() {
        ColumnType protocol = nb.table("Load_Balancer").column("protocol").type();
        assertThat(protocol.isOptional()).isTrue();
        assertThat(protocol.isScalar()).isFalse();
        assertThat(protocol.isSet()).isTrue();
        assertThat(protocol.key().type()).isEqualTo(AtomicType.STRING);
        assertThat(protocol.key().enumValues()).contains(Set.of("tcp", "udp", "sctp"));
        assertThat(List.copyOf(protocol.key().enumValues().orElseThrow())).containsExactly("tcp", "udp", "sctp");
    }

    @Test
    void loadBalancerVipsIsUnboundedStringMap() {
        ColumnType vips = nb.table("Load_Balancer").column("vips").type();
        assertThat(vips.isMap()).isTrue();
        assertThat(vips.isSet()).isFalse();
        assertThat(vips.key()).isEqualTo(BaseType.of(AtomicType.STRING));
        assertThat(vips.value()).contains(BaseType.of(AtomicType.STRING));
        assertThat(vips.min()).isZero();
        assertThat(vips.max()).isEqualTo(ColumnType.UNLIMITED);
    }

    @Test
    void logicalRouterLoadBalancerIsWeakReferenceSet() {
        ColumnType lb = nb.table("Logical_Router").column("load_balancer").type();
        assertThat(lb.key().type()).isEqualTo(AtomicType.UUID);
        assertThat(lb.key().refTable()).contains("Load_Balancer");
        assertThat(lb.key().refType()).isEqualTo(RefType.WEAK);
        assertThat(lb.max()).isEqualTo(ColumnType.UNLIMITED);
        ColumnType ports = nb.table("Logical_Router").column("ports").type();
        assertThat(ports.key().refType()).isEqualTo(RefType.STRONG);
    }

    @Test
    void rootFlagsMaxRowsAndIndexes() {
        assertThat(nb.table("NB_Global").isRoot()).isTrue();
        assertThat(nb.table("NB_Global").maxRows()).hasValue(1);
        assertThat(nb.table("Logical_Switch_Port").isRoot()).isFalse();
        assertThat(nb.isRootTable("Logical_Switch_Port")).isFalse();
        assertThat(nb.table("Logical_Switch_Port").indexes()).containsExactly(List.of("name"));
        assertThat(nb.table("Logical_Switch").indexes()).isEmpty();
        assertThat(nb.table("BFD").indexes()).containsExactly(List.of("logical_port", "dst_ip"));
    }

    @Test
    void ephemeralColumnsOfNorthbound() {
        assertThat(nb.table("Connection").column("is_connected").ephemeral()).isTrue();
        assertThat(nb.table("Connection").column("target").ephemeral()).isFalse();
    }

    @Test
    void implicitColumnsComeFirstAndIndexLookupMatchesOrder() {
        TableSchema lb = nb.table("Load_Balancer");
        assertThat(lb.columns().get(0).name()).isEqualTo("_uuid");
        assertThat(lb.columns().get(1).name()).isEqualTo("_version");
        assertThat(lb.column("_uuid").type()).isEqualTo(ColumnType.scalar(AtomicType.UUID));
        assertThat(lb.column("_uuid").mutable()).isFalse();
        for (int i = 0; i < lb.columns().size(); i++) {
            assertThat(lb.columnIndex(lb.columns().get(i).name())).isEqualTo(i);
        }
        assertThat(lb.columns().get(2).name()).isEqualTo("name");
    }

    @Test
    void unknownColumnAndTableAreNamed() {
        assertThatThrownBy(() -> nb.table("Load_Balancer").column("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("table Load_Balancer has no column \"nope\"");
        assertThatThrownBy(() -> nb.table("Nope"))
                .hasMessage("database OVN_Northbound has no table \"Nope\"");
        assertThat(nb.table("Load_Balancer").findColumn("nope")).isEmpty();
    }

    @Test
    void handWrittenSchemaHasNoVersionAndEveryShape() {
        assertThat(shapes.version()).isEmpty();
        assertThat(shapes.cksum()).isEmpty();
        TableSchema parent = shapes.table("Parent");
        assertThat(parent.maxRows()).hasValue(100);
        assertThat(parent.indexes()).containsExactly(List.of("name"), List.of("count", "flag"));

        BaseType name = parent.column("name").type().key();
        assertThat(name.minLength()).isEqualTo(1);
        assertThat(name.maxLength()).isEqualTo(5);
        BaseType count = parent.column("count").type().key();
        assertThat(count.minInteger()).isEqualTo(1);
        assertThat(count.maxInteger()).isEqualTo(10);
        BaseType weight = parent.column("weight").type().key();
        assertThat(weight.minReal()).isEqualTo(0.5);
        assertThat(weight.maxReal()).isEqualTo(2.5);
        assertThat(parent.column("flag").type()).isEqualTo(ColumnType.scalar(AtomicType.BOOLEAN));
        assertThat(parent.column("id").mutable()).isFalse();
        assertThat(parent.column("flag").mutable()).isTrue();
        assertThat(parent.column("status").ephemeral()).isTrue();
        assertThat(parent.column("color").type().key().enumValues()).contains(Set.of("red"));
        assertThat(parent.column("proto").type().key().enumValues()).contains(Set.of("tcp", "udp", "sctp"));

        ColumnType ports = parent.column("ports").type();
        assertThat(ports.min()).isEqualTo(1);
        assertThat(ports.max()).isEqualTo(3);
        assertThat(ports.isSet()).isTrue();
        assertThat(parent.column("tags").type().max()).isEqualTo(ColumnType.UNLIMITED);

        assertThat(parent.column("children").type().key().refType()).isEqualTo(RefType.STRONG);
        assertThat(parent.column("weak_children").type().key().refType()).isEqualTo(RefType.WEAK);
        ColumnType prio = parent.column("prio_by_child").type();
        assertThat(prio.isMap()).isTrue();
        assertThat(prio.key().refTable()).contains("Child");
        assertThat(prio.value().orElseThrow().maxInteger()).isEqualTo(100);
        assertThat(prio.min()).isEqualTo(1);
        assertThat(prio.max()).isEqualTo(2);
    }

    @Test
    void rootRuleWhenNoTableIsRoot() {
        assertThat(shapes.isRootTable("Parent")).isTrue();
        assertThat(shapes.isRootTable("Child")).isFalse();
        DatabaseSchema legacy = DatabaseSchema.parse(
                "{\"name\":\"Old\",\"tables\":{\"A\":{\"columns\":{\"x\":{\"type\":\"integer\"}}}}}");
        assertThat(legacy.table("A").isRoot()).isFalse();
        assertThat(legacy.isRootTable("A")).isTrue();
    }

    @Test
    void columnTypeJsonRoundTrips() {
        // Stub tables let references in the copied types resolve.
        StringBuilder stubs = new StringBuilder();
        nb.tables().keySet().forEach(table ->
                stubs.append(",\"").append(table).append("\":{\"columns\":{\"x\":{\"type\":\"string\"}}}"));
        for (TableSchema table : nb.tables().values()) {
            for (ColumnSchema column : table.columns()) {
                String text = "{\"name\":\"R\",\"tables\":{\"Copy\":{\"columns\":{\"c\":{\"type\":"
                        + column.type().toJson() + "}}}" + stubs + "}}";
                assertThat(DatabaseSchema.parse(text).table("Copy").column("c").type())
                        .as("%s.%s", table.name(), column.name())
                        .isEqualTo(column.type());
            }
        }
    }

    @Test
    void bareTypeStringEqualsExplicitObject() {
        DatabaseSchema schema = DatabaseSchema.parse("{\"name\":\"D\",\"tables\":{\"T\":{\"columns\":{"
                + "\"a\":{\"type\":\"integer\"},"
                + "\"b\":{\"type\":{\"key\":\"integer\"}},"
                + "\"c\":{\"type\":{\"key\":{\"type\":\"integer\"},\"min\":1,\"max\":1}}}}}}");
        TableSchema t = schema.table("T");
        assertThat(t.column("a").type()).isEqualTo(t.column("b").type()).isEqualTo(t.column("c").type())
                .isEqualTo(ColumnType.scalar(AtomicType.INTEGER));
        assertThat(t.column("a").type().toJson().toString()).isEqualTo("\"integer\"");
        assertThat(Optional.of(t.column("a").type().isScalar())).contains(true);
    }

    @Test
    void lookupHelpersAndReferencePredicates() {
        assertThat(nb.findTable("Load_Balancer")).containsSame(nb.table("Load_Balancer"));
        assertThat(nb.findTable("Nope")).isEmpty();
        BaseType weakRef = nb.table("Logical_Router").column("load_balancer").type().key();
        assertThat(weakRef.isReference()).isTrue();
        assertThat(weakRef.hasConstraints()).isTrue();
        assertThat(BaseType.of(AtomicType.UUID).isReference()).isFalse();
        assertThat(BaseType.of(AtomicType.UUID).hasConstraints()).isFalse();
        assertThat(weakRef.withoutConstraints()).isEqualTo(BaseType.of(AtomicType.UUID));
    }
}
