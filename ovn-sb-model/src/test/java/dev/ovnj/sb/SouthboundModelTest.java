package dev.ovnj.sb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.sb.model.LoadBalancer;
import dev.ovnj.sb.model.OvnSouthboundModel;
import dev.ovnj.sb.model.PortBinding;
import dev.ovnj.sb.model.ServiceMonitor;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SouthboundModelTest {

    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse(Path.of("src/main/schema/ovn-sb.ovsschema"));

    @Test
    void schemaIsTheOneOfOvn2303() {
        assertThat(SCHEMA.name()).isEqualTo("OVN_Southbound");
        assertThat(OvnSouthboundModel.MODEL.version()).isEqualTo("21.8.0");
        assertThat(OvnSouthboundModel.MODEL.tables()).hasSize(SCHEMA.tables().size());
        assertThat(OvnSouthboundModel.MODEL.table(PortBinding.class).name()).isEqualTo("Port_Binding");
    }

    @Test
    void enumsCarryTheirWireValues() {
        assertThat(ServiceMonitor.Status.OFFLINE.wireValue()).isEqualTo("offline");
        assertThat(LoadBalancer.Protocol.SCTP.wireValue()).isEqualTo("sctp");
    }

    @Test
    void rowsBecomeTypedValues() {
        UUID group = UUID.randomUUID();
        Row row = Row.of(SCHEMA.table("Load_Balancer"), UUID.randomUUID(), Map.of(
                "name", "web-tcp",
                "vips", Map.of("10.0.0.10:80", "192.168.1.2:80"),
                "datapath_group", Set.of(group),
                "protocol", Set.of("tcp")));
        LoadBalancer lb = LoadBalancer.fromRow(row);
        assertThat(lb.name()).isEqualTo("web-tcp");
        assertThat(lb.vips()).containsEntry("10.0.0.10:80", "192.168.1.2:80");
        assertThat(lb.datapathGroup()).isEqualTo(Optional.of(group));
        assertThat(lb.protocol()).contains(LoadBalancer.Protocol.TCP);
        assertThat(lb.datapaths()).isEmpty();
    }
}
