package dev.ovnj.nb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.model.Acl;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.ovsdb.typed.TypedOps;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NorthboundModelTest {

    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse(Path.of("src/main/schema/ovn-nb.ovsschema"));
    private static final TableSchema LB = SCHEMA.table("Load_Balancer");
    private static final TableSchema ROUTER = SCHEMA.table("Logical_Router");

    // Reflection here only inspects the generated signatures; the model itself uses none.
    private static Type returnType(Class<?> type, String method) throws NoSuchMethodException {
        return type.getMethod(method).getGenericReturnType();
    }

    @Test
    void schemaIsTheOneOfOvn2603() {
        assertThat(SCHEMA.version()).contains("7.18.0");
        assertThat(OvnNorthboundModel.MODEL.version()).isEqualTo("7.18.0");
        assertThat(OvnNorthboundModel.MODEL.tables()).hasSize(SCHEMA.tables().size());
        assertThat(OvnNorthboundModel.MODEL.table(LoadBalancer.class).name()).isEqualTo("Load_Balancer");
    }

    @Test
    void enumsCarryTheirWireValues() {
        assertThat(LoadBalancer.Protocol.TCP.wireValue()).isEqualTo("tcp");
        assertThat(Acl.Action.ALLOW_RELATED.wireValue()).isEqualTo("allow-related");
        assertThat(Nat.Type.DNAT_AND_SNAT.wireValue()).isEqualTo("dnat_and_snat");
    }

    @Test
    void columnShapesBecomeJavaTypes() throws NoSuchMethodException {
        Type vips = returnType(LoadBalancer.class, "vips");
        assertThat(vips).isInstanceOf(ParameterizedType.class);
        assertThat(((ParameterizedType) vips).getRawType()).isEqualTo(Map.class);
        assertThat(((ParameterizedType) vips).getActualTypeArguments()).containsExactly(String.class, String.class);

        Type loadBalancer = returnType(LogicalRouter.class, "loadBalancer");
        assertThat(((ParameterizedType) loadBalancer).getRawType()).isEqualTo(Set.class);
        assertThat(((ParameterizedType) loadBalancer).getActualTypeArguments()).containsExactly(UUID.class);

        Type protocol = returnType(LoadBalancer.class, "protocol");
        assertThat(((ParameterizedType) protocol).getRawType()).isEqualTo(Optional.class);
        assertThat(((ParameterizedType) protocol).getActualTypeArguments()).containsExactly(LoadBalancer.Protocol.class);

        assertThat(returnType(Acl.class, "priority")).isEqualTo(long.class);
    }

    @Test
    void mapKeyConditionEncodesAsIncludesOfOneEntry() {
        assertThat(LoadBalancer.EXTERNAL_IDS.key("ovnj.owner").eq("x").toJson(LB).toString())
                .isEqualTo("[\"external_ids\",\"includes\",[\"map\",[[\"ovnj.owner\",\"x\"]]]]");
    }

    @Test
    void typedColumnsEncodeAgainstTheSchema() {
        UUID lb = UUID.fromString("8f7b9a52-1c1e-4e64-9d5e-4c0f9d1b2a33");
        assertThat(LoadBalancer.PROTOCOL.is(LoadBalancer.Protocol.UDP).toJson(LB).toString())
                .isEqualTo("[\"protocol\",\"==\",[\"set\",[\"udp\"]]]");
        assertThat(LogicalRouter.LOAD_BALANCER.insert(lb).toJson(ROUTER).toString())
                .isEqualTo("[\"load_balancer\",\"insert\",[\"set\",[[\"uuid\",\"" + lb + "\"]]]]");
        assertThat(LoadBalancer.VIPS.delete("10.0.0.10:80").toJson(LB).toString())
                .isEqualTo("[\"vips\",\"delete\",[\"set\",[\"10.0.0.10:80\"]]]");
    }

    @Test
    void roundTripsThroughAnUntypedRow() {
        LoadBalancer lb = LoadBalancer.builder()
                .name("web-tcp")
                .protocol(LoadBalancer.Protocol.TCP)
                .putVips("10.0.0.10:80", "192.168.0.2:8080")
                .addSelectionFields(LoadBalancer.SelectionFields.IP_SRC)
                .putExternalIds("ovnj.owner", "demo")
                .build();
        UUID uuid = UUID.randomUUID();

        LoadBalancer read = LoadBalancer.fromRow(Row.of(LB, uuid, lb.toColumns()));

        assertThat(read.uuid()).contains(uuid);
        assertThat(read).isEqualTo(LoadBalancer.builder().from(lb).uuid(uuid).build());
    }

    @Test
    void insertLeavesDefaultsOut() {
        LoadBalancer lb = LoadBalancer.builder().name("web-tcp").protocol(LoadBalancer.Protocol.TCP).build();

        assertThat(TypedOps.insert(lb).toJson(SCHEMA).toString())
                .isEqualTo("{\"op\":\"insert\",\"table\":\"Load_Balancer\",\"row\":{\"name\":\"web-tcp\",\"protocol\":[\"set\",[\"tcp\"]]}}");
    }
}
