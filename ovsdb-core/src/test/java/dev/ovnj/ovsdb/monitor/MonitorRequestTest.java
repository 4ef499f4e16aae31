package dev.ovnj.ovsdb.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.tx.Condition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MonitorRequestTest {
    private final DatabaseSchema nb = SchemaFixtures.northbound();

    @Test
    void everyColumnIsRequestedByOmittingColumnsSoTheServerAddsVersion() {
        ObjectNode json = MonitorRequest.tables("Load_Balancer").toJson(nb, true);
        assertThat(json.get("Load_Balancer").has("columns")).isFalse();
    }

    @Test
    void withoutRowVersionsListsTheSchemasColumnsExceptTheImplicitOnes() {
        ObjectNode json = MonitorRequest.tables("Load_Balancer", "NB_Global").withoutRowVersions().toJson(nb, true);
        for (String table : List.of("Load_Balancer", "NB_Global")) {
            List<String> expected = nb.table(table).columns().stream().filter(c -> !c.isImplicit()).map(ColumnSchema::name).toList();
            assertThat(names(json.get(table).get("columns"))).containsExactlyElementsOf(expected)
                    .doesNotContain("_version", "_uuid").contains("name");
            assertThat(json.get(table).get("select").get("modify").asBoolean()).isTrue();
        }
    }

    @Test
    void withoutRowVersionsKeepsChosenColumnsAndSurvivesConditionChanges() {
        MonitorRequest request = MonitorRequest.of(TableMonitor.all("Load_Balancer").columns("name", "vips"),
                TableMonitor.all("Logical_Switch")).withoutRowVersions();
        ObjectNode json = request.withConditions(List.of(TableMonitor.all("Logical_Switch").where(Condition.eq("name", "a"))))
                .toJson(nb, true);
        assertThat(names(json.get("Load_Balancer").get("columns"))).containsExactly("name", "vips");
        assertThat(names(json.get("Logical_Switch").get("columns"))).contains("name", "load_balancer").doesNotContain("_version");
        assertThat(json.get("Logical_Switch").get("where")).hasSize(1);
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
