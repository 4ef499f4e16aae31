package dev.ovnj.lb;

import static dev.ovnj.lb.OwnedRows.OWNER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A pass holding more specs than one transaction takes sends each transaction as soon as its
 * specs are planned, so the later specs of the pass are planned while the earlier transactions'
 * commits land in the cache, and while other clients write. The outcome must be the same as a
 * pass planned whole: every spec applied exactly once, attached where it says.
 */
class LargePassIT {
    private static final String GROUP = "shalb-dev-lbs";
    private static final int GROUPED = 200;
    private static final int DIRECT = 100;

    private static List<LoadBalancerSpec> specs() {
        List<LoadBalancerSpec> specs = new ArrayList<>();
        for (int i = 0; i < GROUPED; i++) {
            specs.add(LoadBalancerSpec.builder("grouped-" + i).group(GROUP).routers("shalb-dev").switches("shalb-dev-default")
                    .tcp("168.119.17.57:" + (2000 + i), "10.1.0." + (1 + i % 250) + ":8080").build());
        }
        for (int i = 0; i < DIRECT; i++) {
            specs.add(OwnedRows.spec(i, 1));
        }
        return specs;
    }

    @Test
    void aPassSplitIntoManyTransactionsConvergesWhileAnotherClientDeletesItsRows() throws Exception {
        try (EngineFixture f = new EngineFixture(b -> b.maxOpsPerTransaction(8));
             OvsdbClient other = EngineFixture.client(f.server.remote())) {
            other.startAndWait(EngineFixture.WAIT);
            List<LoadBalancerSpec> specs = specs();
            // Deletes every owned row a few times while the pass is being planned and sent.
            CompletableFuture<Void> deletes = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 5; i++) {
                    other.transactAndWait(other.transaction().add(Operations.delete("Load_Balancer")
                            .where(Condition.includes("external_ids", Map.of(DesiredRow.OWNER_KEY, OWNER)))).build(),
                            Duration.ofSeconds(10));
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            });
            ApplyResult result = f.engine.apply(OWNER, specs).get(60, TimeUnit.SECONDS);
            deletes.get(30, TimeUnit.SECONDS);
            // The answer is the statuses when the last spec settled: one applied earlier may be
            // under repair by then (the deletes go on), never failed or in conflict.
            assertThat(result.statuses()).hasSize(specs.size());
            assertThat(result.statuses().values()).as("apply result").allSatisfy(st -> assertThat(st.state())
                    .as(st.spec() + ": " + st.reasons()).isIn(SpecStatus.State.APPLIED, SpecStatus.State.APPLYING));

            Await.until(Duration.ofSeconds(30), "every spec applied and every row back", () ->
                    f.engine.metrics().specs(SpecStatus.State.APPLIED) == specs.size()
                            && OwnedRows.rows(f.nbctl).size() == specs.size());
            assertThat(OwnedRows.rows(f.nbctl)).containsExactlyElementsOf(OwnedRows.expected(specs));
            assertThat(OwnedRows.count(f.nbctl.run("--bare", "get", "Load_Balancer_Group", GROUP, "load_balancer"))).isEqualTo(GROUPED);
            assertThat(OwnedRows.attachments(f.nbctl)).containsExactly(DIRECT, DIRECT);
            String group = f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer_Group", "name=" + GROUP);
            assertThat(f.nbctl.run("get", "Logical_Router", "shalb-dev", "load_balancer_group")).isEqualTo("[" + group + "]");
            assertThat(f.nbctl.run("get", "Logical_Switch", "shalb-dev-default", "load_balancer_group")).isEqualTo("[" + group + "]");
            // The pass really was split: 300 specs at 8 operations per transaction.
            assertThat(f.txSizes).hasSizeGreaterThan(specs.size() / 8);
            assertThat(f.engine.plan(OWNER, specs).isEmpty()).as("nothing left to write").isTrue();
        }
    }
}
