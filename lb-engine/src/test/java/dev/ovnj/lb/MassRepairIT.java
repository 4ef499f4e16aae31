package dev.ovnj.lb;

import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 18 (in 14's code): a mass repair costs time linear in the rows, and is reported as a few
 * events, not one per row. {@code -Dovnj.massRepairRows} (default 10,000).
 */
class MassRepairIT {
    static final int ROWS = Integer.getInteger("ovnj.massRepairRows", 10_000);

    @Test
    void everyOwnedRowDeletedAtOnceIsRepairedInNearLinearTime() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<Integer> rounds = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onRepairs(List<RepairEvent> events) {
                    rounds.add(events.size());
                }
            });
            List<LoadBalancerSpec> specs = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                specs.add(spec(i, 1));
            }
            long t0 = System.nanoTime();
            assertThat(f.engine.apply(OWNER, specs).get(300, TimeUnit.SECONDS).allApplied()).isTrue();
            Duration applied = Duration.ofNanos(System.nanoTime() - t0);

            long start = System.nanoTime();
            f.client.transactAndWait(f.client.transaction().add(Operations.delete("Load_Balancer")
                    .where(Condition.includes("external_ids", Map.of(DesiredRow.OWNER_KEY, OWNER)))).build(), Duration.ofSeconds(60));
            Await.until(Duration.ofSeconds(300), "every row repaired", () -> f.engine.metrics().repairs() >= ROWS
                    && f.engine.metrics().specs(SpecStatus.State.APPLIED) == ROWS);
            Duration repaired = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("mass repair: %d rows applied in %d ms, all deleted and repaired in %d ms, %d repair rounds%n",
                    ROWS, applied.toMillis(), repaired.toMillis(), rounds.size());
            assertThat(OwnedRows.rows(f.nbctl)).hasSize(ROWS);
            assertThat(OwnedRows.attachments(f.nbctl)).containsExactly(ROWS, ROWS);
            // Linear: repairing costs about what writing them did in the first place, not rows x specs.
            assertThat(repaired).isLessThan(applied.multipliedBy(3).plusSeconds(10));
            assertThat(rounds.size()).as("repair rounds reported").isLessThan(ROWS / 50 + 10);
        }
    }
}
