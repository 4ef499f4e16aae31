package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RowTest {

    private static final UUID ROW = UUID.fromString("aaaaaaaa-0000-0000-0000-000000000001");
    private static final UUID VERSION = UUID.fromString("bbbbbbbb-0000-0000-0000-000000000001");
    private static final UUID LB1 = UUID.fromString("cccccccc-0000-0000-0000-000000000001");
    private static final UUID LB2 = UUID.fromString("cccccccc-0000-0000-0000-000000000002");

    private final TableSchema lb = SchemaFixtures.northbound().table("Load_Balancer");
    private final TableSchema router = SchemaFixtures.northbound().table("Logical_Router");

    private Row loadBalancer() {
        return Row.fromJson(lb, ROW, object("{'name':'web','protocol':'tcp',"
                + "'vips':['map',[['10.0.0.1:80','192.168.0.1:80'],['10.0.0.2:80','192.168.0.2:80']]],"
                + "'_version':['uuid','" + VERSION + "']}"));
    }

    @Test
    void fullRowDecodesAndFillsDefaults() {
        Row row = loadBalancer();
        assertThat(row.uuid()).isEqualTo(ROW);
        assertThat(row.version()).contains(VERSION);
        assertThat(row.get("name")).isEqualTo("web");
        assertThat(row.get("protocol")).isEqualTo(Set.of("tcp"));
        assertThat(row.get("vips")).isEqualTo(Map.of("10.0.0.1:80", "192.168.0.1:80", "10.0.0.2:80", "192.168.0.2:80"));
        assertThat(row.get("external_ids")).isEqualTo(Map.of());
        assertThat(row.get("selection_fields")).isEqualTo(Set.of());
        assertThat((String) row.get(lb.columnIndex("name"))).isEqualTo("web");
        assertThat(row.presentColumns()).hasSize(lb.columns().size());
    }

    @Test
    void versionAbsentUnlessSent() {
        Row row = Row.fromJson(lb, ROW, object("{'name':'x'}"));
        assertThat(row.version()).isEmpty();
        assertThat(row.get("protocol")).isEqualTo(Set.of());
    }

    @Test
    void decodingErrorNamesTableAndColumn() {
        assertThatThrownBy(() -> Row.fromJson(lb, ROW, object("{'name':5}")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessage("Load_Balancer.name: expected a string, got 5 for column type \"string\"");
        assertThatThrownBy(() -> Row.fromJson(lb, ROW, object("{'nope':5}")))
                .hasMessage("table Load_Balancer has no column \"nope\"");
    }

    @Test
    void partialRowKnowsWhichColumnsArePresent() {
        Row row = Row.fromPartialJson(lb, object("{'name':'web'}"));
        assertThat(row.has("name")).isTrue();
        assertThat(row.has("vips")).isFalse();
        assertThat(row.presentColumns()).containsExactly("name");
        assertThatThrownBy(() -> row.get("vips"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Load_Balancer.vips is not present in this partial row");
        assertThatThrownBy(row::uuid).hasMessage("Load_Balancer._uuid is not present in this partial row");
    }

    @Test
    void withReturnsNewRowAndChecksValues() {
        Row row = loadBalancer();
        Row renamed = row.with(Map.of("name", "api", "protocol", Set.of("udp")));
        assertThat(renamed.get("name")).isEqualTo("api");
        assertThat(renamed.get("protocol")).isEqualTo(Set.of("udp"));
        assertThat(row.get("name")).isEqualTo("web");
        assertThatThrownBy(() -> row.with(Map.of("protocol", Set.of("http"))))
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("Load_Balancer.protocol: \"http\" is not one of [tcp, udp, sctp]");
        assertThatThrownBy(() -> row.with(Map.of("_uuid", LB1)))
                .hasMessage("Load_Balancer._uuid cannot be changed");
    }

    @Test
    void valueEquality() {
        assertThat(loadBalancer()).isEqualTo(loadBalancer()).hasSameHashCodeAs(loadBalancer());
        assertThat(loadBalancer()).isNotEqualTo(loadBalancer().with(Map.of("name", "other")));
        Row built = Row.of(lb, ROW, Map.of("name", "web", "protocol", Set.of("tcp"), "_version", VERSION,
                "vips", Map.of("10.0.0.1:80", "192.168.0.1:80", "10.0.0.2:80", "192.168.0.2:80")));
        assertThat(built).isEqualTo(loadBalancer());
    }

    @Test
    void toJsonRoundTrips() {
        Row row = loadBalancer();
        assertThat(Row.fromJson(lb, ROW, row.toJson())).isEqualTo(row);
        assertThat(row.toJson().get("_uuid").toString()).isEqualTo("[\"uuid\",\"" + ROW + "\"]");
    }

    @Test
    void diffReplacesScalars() {
        Row row = loadBalancer().applyDiff(object("{'name':'api'}"));
        assertThat(row.get("name")).isEqualTo("api");
    }

    @Test
    void diffTogglesSetElements() {
        Row row = Row.fromJson(router, ROW, object("{'load_balancer':['set',[['uuid','" + LB1 + "']]]}"));
        Row added = row.applyDiff(object("{'load_balancer':['uuid','" + LB2 + "']}"));
        assertThat(added.get("load_balancer")).isEqualTo(Set.of(LB1, LB2));
        Row swapped = added.applyDiff(object("{'load_balancer':['set',[['uuid','" + LB1 + "']]]}"));
        assertThat(swapped.get("load_balancer")).isEqualTo(Set.of(LB2));
    }

    @Test
    void diffOfOptionalColumnMayCarryOldAndNewElement() {
        Row row = loadBalancer().applyDiff(object("{'protocol':['set',['tcp','udp']]}"));
        assertThat(row.get("protocol")).isEqualTo(Set.of("udp"));
    }

    @Test
    void diffOfOptionalColumnFromOvsdbServerIsTheNewValue() {
        // What ovsdb-server 3.1 sends when Service_Monitor.status goes offline -> online.
        Row row = loadBalancer().applyDiff(object("{'protocol':'udp'}"));
        assertThat(row.get("protocol")).isEqualTo(Set.of("udp"));
        assertThat(row.applyDiff(object("{'protocol':['set',[]]}")).get("protocol")).isEqualTo(Set.of());
    }

    @Test
    void diffAddsRemovesAndReplacesMapEntries() {
        Row row = loadBalancer().applyDiff(object("{'vips':['map',["
                + "['10.0.0.1:80','192.168.0.1:80'],"
                + "['10.0.0.2:80','192.168.0.9:80'],"
                + "['10.0.0.3:80','192.168.0.3:80']]]}"));
        assertThat(row.get("vips")).isEqualTo(Map.of("10.0.0.2:80", "192.168.0.9:80", "10.0.0.3:80", "192.168.0.3:80"));
    }

    @Test
    void diffErrorNamesColumn() {
        assertThatThrownBy(() -> loadBalancer().applyDiff(object("{'vips':['set',[]]}")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageStartingWith("Load_Balancer.vips: expected [\"map\"");
    }

    @Test
    void rowHoldsOnlySchemaUuidAndPackedData() {
        Field[] fields = Arrays.stream(Row.class.getDeclaredFields())
                .filter(field -> !Modifier.isStatic(field.getModifiers()))
                .toArray(Field[]::new);
        assertThat(fields).extracting(Field::getType).containsExactlyInAnyOrder(TableSchema.class, UUID.class, Object.class);
    }
}
