package dev.ovnj.lb.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.internal.PlanTransactions;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Health checks in the plan: in sync means nothing to write, a changed option one update, a removed check its row and mappings. */
class HealthCheckPlanTest {
    static final String LB = "aaaaaaaa-0000-0000-0000-000000000001";
    static final String HC = "cccccccc-0000-0000-0000-000000000003";
    static final String LS = "dddddddd-0000-0000-0000-000000000004";
    static final String LSP = "eeeeeeee-0000-0000-0000-000000000005";
    DatabaseSchema schema;
    RowCache cache;

    @BeforeEach
    void setUp() throws Exception {
        schema = PlannerCache.schema();
        String ids = "['map',[['ovnj.owner','o'],['ovnj.spec','web']]]";
        cache = PlannerCache.of(schema, List.of("Load_Balancer", "Load_Balancer_Health_Check", "Logical_Router", "Logical_Switch",
                        "Logical_Switch_Port", "Load_Balancer_Group"),
                "{'Load_Balancer':{'" + LB + "':{'initial':{'name':'web-tcp',"
                        + "'protocol':'tcp','vips':['map',[['10.0.0.10:80','10.1.0.1:80']]],"
                        + "'health_check':['uuid','" + HC + "'],'ip_port_mappings':['map',[['10.1.0.1','web1:10.1.0.254']]],"
                        + "'external_ids':" + ids + "}}},"
                        + "'Load_Balancer_Health_Check':{'" + HC + "':{'initial':{'vip':'10.0.0.10:80','options':['map',[['failure_count','3'],"
                        + "['interval','5'],['success_count','3'],['timeout','20']]],'external_ids':" + ids + "}}},"
                        + "'Logical_Switch':{'" + LS + "':{'initial':{'name':'ls','ports':['uuid','" + LSP + "'],"
                        + "'other_config':['map',[['subnet','10.1.0.0/24']]]}}},"
                        + "'Logical_Switch_Port':{'" + LSP + "':{'initial':{'name':'web1','addresses':'00:00:00:00:00:01 10.1.0.1'}}}}");
    }

    private static LoadBalancerSpec spec(HealthCheck hc) {
        VipSpec v = VipSpec.tcp("10.0.0.10:80", "10.1.0.1:80");
        return LoadBalancerSpec.builder("web").vip(hc == null ? v : v.withHealthCheck(hc))
                .healthCheckSources(Map.of("ls", List.of("10.1.0.254"))).build();
    }

    @Test
    void inSyncMeansNothingToWrite() {
        LoadBalancerPlan plan = Planner.plan("o", List.of(spec(HealthCheck.DEFAULTS)), cache, Set.of(), Set.of("web"));
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.applied()).containsKey("web");
    }

    @Test
    void aChangedOptionIsOneUpdateOfTheHealthCheckRow() {
        LoadBalancerPlan plan = Planner.plan("o", List.of(spec(HealthCheck.DEFAULTS.withInterval(7))), cache, Set.of(), Set.of("web"));
        assertThat(plan.changes()).singleElement().isInstanceOf(PlanChange.UpdateHealthCheck.class);
        String json = PlanTransactions.build(plan, schema, 100).get(0).toParams().toString();
        assertThat(json).contains("\"op\":\"update\"").contains("Load_Balancer_Health_Check").contains("\"interval\",\"7\"");
    }

    @Test
    void removingTheCheckDropsItsRowAndTheMappings() {
        LoadBalancerPlan plan = Planner.plan("o", List.of(spec(null)), cache, Set.of(), Set.of("web"));
        assertThat(plan.changes()).extracting(Object::toString)
                .containsExactlyInAnyOrder("- web-tcp health check 10.0.0.10:80", "~ web-tcp set {ip_port_mappings={}}");
        String json = PlanTransactions.build(plan, schema, 100).get(0).toParams().toString();
        assertThat(json).contains("\"op\":\"wait\"").contains("\"health_check\"").contains("[\"health_check\",\"delete\",[\"set\",[[\"uuid\",\"" + HC + "\"]]]]");
    }
}
