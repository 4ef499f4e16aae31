package dev.ovnj.nb;

import static dev.ovnj.nb.Northbound.transact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.nb.model.ChassisTemplateVar;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalSwitchPort;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.client.ConnectionEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.CompatibilityReport;
import dev.ovnj.ovsdb.typed.SchemaMismatchException;
import dev.ovnj.ovsdb.typed.TypedCache;
import dev.ovnj.ovsdb.typed.TypedOps;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model (generated from the newest schema, OVN 26.03's) against older servers: one whose schema
 * is the model's own without {@code Load_Balancer.selection_fields} and the whole
 * {@code Chassis_Template_Var} table, reporting version 6.3.0; and OVN 23.03's real schema (7.0.0).
 */
class SchemaCompatibilityIT {

    @TempDir
    static Path dir;

    private static OvsdbServer server;
    private static Nbctl nbctl;

    @BeforeAll
    static void startOlderServer() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode schema = (ObjectNode) json.readTree(Northbound.MODEL_SCHEMA.toFile());
        schema.put("version", "6.3.0");
        schema.remove("cksum");
        ObjectNode tables = (ObjectNode) schema.get("tables");
        tables.remove("Chassis_Template_Var");
        ((ObjectNode) tables.get("Load_Balancer").get("columns")).remove("selection_fields");
        Path file = dir.resolve("ovn-nb-6.3.0.ovsschema");
        Files.writeString(file, json.writeValueAsString(schema));
        server = OvsdbServer.builder().schema(file).start();
        nbctl = Nbctl.of(server);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void lenientConnectsReportsWhatIsMissingAndDisablesOnlyThat() {
        nbctl.run("lb-add", "old-lb", "10.0.0.10:80", "10.0.0.2:80");
        try (OvsdbClient client = Northbound.connect(server.remote(), Compatibility.LENIENT)) {
            CompatibilityReport report = client.compatibility().orElseThrow();
            assertThat(report.isCompatible()).isFalse();
            assertThat(report.missingTables()).containsExactly("Chassis_Template_Var");
            assertThat(report.unusableColumns()).containsExactly("Load_Balancer.selection_fields");
            assertThat(report.describe()).contains("Load_Balancer.selection_fields missing on server")
                    .contains("table Chassis_Template_Var missing on server").contains("schema 6.3.0");

            TypedCache cache = TypedCache.of(client.cache(), OvnNorthboundModel.MODEL);
            LoadBalancer lb = Northbound.byName(cache.table(LoadBalancer.class), LoadBalancer::name, "old-lb").orElseThrow();
            assertThat(lb.vips()).containsEntry("10.0.0.10:80", "10.0.0.2:80");
            assertThat(lb.selectionFields()).isEmpty();
            assertThat(cache.table(ChassisTemplateVar.class).rows()).isEmpty();

            // A row that leaves the missing column at its default is written without it.
            transact(client, TypedOps.insert(LoadBalancer.builder().name("new-lb").putVips("10.0.0.11:80", "10.0.0.3:80").build()));
            assertThat(nbctl.run("lb-list")).contains("new-lb");

            LoadBalancer withFields = LoadBalancer.builder().name("bad-lb")
                    .selectionFields(Set.of(LoadBalancer.SelectionFields.IP_SRC)).build();
            assertThatThrownBy(() -> client.transaction().add(TypedOps.insert(withFields)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Load_Balancer")
                    .hasMessageContaining("selection_fields");
            assertThatThrownBy(() -> client.transaction().add(TypedOps.insert(ChassisTemplateVar.builder().chassis("c1").build())))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Chassis_Template_Var");
            assertThat(nbctl.run("lb-list")).doesNotContain("bad-lb");
        }
    }

    @Test
    void strictFailsTheConnectionNamingTheColumn() {
        List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
        try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                .model(OvnNorthboundModel.MODEL, Compatibility.STRICT).build()) {
            client.addConnectionListener(events::add);
            assertThatThrownBy(() -> client.startAndWait(Northbound.WAIT))
                    .isInstanceOf(SchemaMismatchException.class)
                    .hasMessageContaining(server.remote())
                    .hasMessageContaining("Load_Balancer.selection_fields missing on server")
                    .hasMessageContaining("Chassis_Template_Var")
                    .hasMessageContaining("6.3.0");
            assertThat(client.isSynced()).isFalse();
            assertThat(client.compatibility()).isEmpty();
            // Listener events arrive on the callback thread, possibly after the future failed.
            dev.ovnj.testkit.Await.until(Northbound.WAIT, "DISCONNECTED event",
                    () -> events.stream().anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED));
            assertThat(events).anySatisfy(e -> {
                assertThat(e.kind()).isEqualTo(ConnectionEvent.Kind.DISCONNECTED);
                assertThat(e.cause()).get().isInstanceOf(SchemaMismatchException.class);
            });
        }
    }

    @Test
    void lenientReadsAndWritesOvn2303sSchema() {
        try (OvsdbServer old = OvsdbServer.builder().schema(Schemas.bundledNorthbound(dir)).start();
             OvsdbClient client = Northbound.connect(old.remote(), Compatibility.LENIENT)) {
            CompatibilityReport report = client.compatibility().orElseThrow();
            // What OVN added after 23.03 is reported missing; nothing the load-balancer engine writes is.
            assertThat(report.missingTables()).contains("Sample", "Network_Function", "DHCP_Relay")
                    .doesNotContain("Load_Balancer", "Load_Balancer_Group", "Load_Balancer_Health_Check");
            assertThat(report.unusableColumns()).contains("Logical_Switch_Port.peer", "NAT.priority")
                    .noneMatch(c -> c.startsWith("Load_Balancer."));
            assertThat(report.describe()).contains("schema 7.0.0");
            transact(client, TypedOps.insert(LoadBalancer.builder().name("lb-2303").putVips("10.0.0.12:80", "10.0.0.4:80")
                    .putOptions("reject", "true").build()));
            assertThat(Nbctl.of(old).run("--bare", "--columns=options", "find", "load_balancer", "name=lb-2303"))
                    .contains("reject=true");
            TypedCache cache = TypedCache.of(client.cache(), OvnNorthboundModel.MODEL);
            dev.ovnj.testkit.Await.until(Northbound.WAIT, "lb-2303 in the cache",
                    () -> Northbound.byName(cache.table(LoadBalancer.class), LoadBalancer::name, "lb-2303").isPresent());
            assertThat(cache.table(LogicalSwitchPort.class).rows()).isEmpty();
        }
    }

    @Test
    void strictAcceptsTheServerTheModelWasGeneratedFrom() {
        try (OvsdbServer current = OvsdbServer.builder().schema(Northbound.MODEL_SCHEMA).start();
             OvsdbClient client = Northbound.connect(current.remote(), Compatibility.STRICT)) {
            assertThat(client.compatibility().orElseThrow().isCompatible()).isTrue();
        }
    }
}
