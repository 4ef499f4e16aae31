package dev.ovnj.lb.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.internal.PlanTransactions;
import dev.ovnj.lb.internal.Planner;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Transaction;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transactions the planner's changes become, checked as the JSON sent to the server. */
class PlanTransactionsTest {
    static final String LB = "aaaaaaaa-0000-0000-0000-000000000001";
    static final String LR = "bbbbbbbb-0000-0000-0000-000000000002";
    DatabaseSchema schema;
    RowCache cache;

    @BeforeEach
    void setUp() throws Exception {
        schema = PlannerCache.schema();
        cache = PlannerCache.of(schema, List.of("Load_Balancer", "Logical_Router", "Logical_Switch", "Load_Balancer_Group"),
                "{'Load_Balancer':{'" + LB + "':{'initial':{'name':'web-tcp',"
                        + "'protocol':'tcp','vips':['map',[['10.0.0.10:80','10.1.0.1:80'],['10.0.0.11:80','10.1.0.2:80']]],"
                        + "'external_ids':['map',[['ovnj.owner','o'],['ovnj.spec','web']]]}}},"
                        + "'Logical_Router':{'" + LR + "':{'initial':{'name':'r','load_balancer':['uuid','" + LB + "']}}}}");
    }

    @Test
    void changingOneBackendMutatesOnlyThatKeyUnderAGuard() {
        LoadBalancerSpec web = LoadBalancerSpec.builder("web").routers("r")
                .tcp("10.0.0.10:80", "10.1.0.1:80").tcp("10.0.0.11:80", "10.1.0.9:80").build();
        LoadBalancerPlan plan = Planner.plan("o", List.of(web), cache);
        List<Transaction> txs = PlanTransactions.build(plan, schema, 100);
        assertThat(txs).hasSize(1);
        String json = txs.get(0).toParams().toString();
        assertThat(txs.get(0).operations()).extracting(op -> op.op()).containsExactly("wait", "mutate");
        assertThat(json).contains("\"mutations\":[[\"vips\",\"delete\",[\"set\",[\"10.0.0.11:80\"]]],"
                + "[\"vips\",\"insert\",[\"map\",[[\"10.0.0.11:80\",\"10.1.0.9:80\"]]]]]");
        assertThat(json).doesNotContain("10.0.0.10:80\",\"delete");
        assertThat(json).contains("[\"external_ids\",\"includes\",[\"map\",[[\"ovnj.owner\",\"o\"]]]]");
        assertThat(json).contains("\"until\":\"==\"").contains("\"timeout\":0");
    }

    @Test
    void newRowIsInsertedAndAttachedInOneTransactionByNamedUuid() {
        LoadBalancerSpec api = LoadBalancerSpec.builder("api").routers("r").tcp("10.0.0.20:443", "10.1.0.5:443").build();
        LoadBalancerSpec web = LoadBalancerSpec.builder("web").routers("r")
                .tcp("10.0.0.10:80", "10.1.0.1:80").tcp("10.0.0.11:80", "10.1.0.2:80").build();
        LoadBalancerPlan plan = Planner.plan("o", List.of(web, api), cache);
        assertThat(plan.changes()).extracting(Object::toString).containsExactly(
                "+ create api-tcp tcp vips {10.0.0.20:443=10.1.0.5:443}", "+ attach api-tcp to router r");
        String json = PlanTransactions.build(plan, schema, 100).get(0).toParams().toString();
        assertThat(json).contains("\"uuid-name\":\"lb0\"").contains("[\"load_balancer\",\"insert\",[\"set\",[[\"named-uuid\",\"lb0\"]]]]");
    }

    @Test
    void droppedSpecIsDeletedOnlyIfStillOwned() {
        LoadBalancerPlan plan = Planner.plan("o", List.of(), cache);
        assertThat(plan.changes()).extracting(Object::toString).containsExactly("- delete web-tcp");
        String json = PlanTransactions.build(plan, schema, 100).get(0).toParams().toString();
        assertThat(json).contains("\"op\":\"delete\"").contains("ovnj.owner");
        assertThat(Planner.plan("someone-else", List.of(), cache).isEmpty()).as("foreign owner plans nothing").isTrue();
    }

    @Test
    void largePlansAreSplitKeepingEachRowWithItsAttachments() {
        java.util.List<LoadBalancerSpec> specs = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            specs.add(LoadBalancerSpec.builder("s" + i).routers("r").tcp("10.2.0." + i + ":80", "10.3.0." + i + ":80").build());
        }
        LoadBalancerPlan plan = Planner.plan("o", specs, cache);
        List<Transaction> txs = PlanTransactions.build(plan, schema, 10);
        assertThat(txs.size()).isBetween(5, 6);
        for (Transaction tx : txs) {
            String json = tx.toParams().toString();
            long inserts = tx.operations().stream().filter(op -> op.op().equals("insert")).count();
            assertThat(json.split("named-uuid", -1).length - 1).as("every new row attached in its own transaction").isEqualTo((int) inserts);
        }
    }
}
