package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a controller restarting with an incomplete desired set must not do: delete the load
 * balancers it has not read yet. Against a real ovsdb-server, rows counted with ovn-nbctl.
 */
class DeletionSafetyIT {

    private static List<LoadBalancerSpec> specs(int from, int to) {
        List<LoadBalancerSpec> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(spec(i, 1));
        }
        return out;
    }

    private static long count(Map<String, SpecStatus> statuses, SpecStatus.State state) {
        return statuses.values().stream().filter(s -> s.state() == state).count();
    }

    @Test
    void anApplyThatWouldDeleteMostRowsHoldsThemUntilReleasedOrNamedAgain() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<String> heldEvents = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onDeletionsHeld(String owner, List<String> specs, String reason) {
                    heldEvents.add(owner + ":" + specs.size());
                }
            });
            List<LoadBalancerSpec> all = specs(0, 20);
            f.engine.apply(OWNER, all).get(20, TimeUnit.SECONDS);

            // An emptied file: nothing is deleted, every spec says why.
            ApplyResult empty = f.engine.apply(OWNER, List.of()).get(20, TimeUnit.SECONDS);
            assertThat(empty.allApplied()).isFalse();
            assertThat(count(empty.statuses(), SpecStatus.State.HELD)).isEqualTo(20);
            assertThat(empty.statuses().get("svc-7").reason()).contains("deletion held").contains("20 of the owner's 20")
                    .contains("releaseHeldDeletions").contains("--allow-mass-delete");
            assertThat(empty.statuses().get("svc-7").rows()).hasSize(1);
            assertThat(OwnedRows.rows(f.nbctl)).isEqualTo(OwnedRows.expected(all));
            assertThat(f.engine.metrics().heldDeletions()).isEqualTo(20);
            assertThat(f.engine.metrics().specs(SpecStatus.State.HELD)).isEqualTo(20);
            Await.until(WAIT, "listeners hear of it", () -> heldEvents.contains(OWNER + ":20"));

            // A held row is kept, not repaired: a foreign deletion of it is simply seen.
            f.nbctl.run("lb-del", "svc-3-tcp");
            Await.until(WAIT, "the deleted held row's status goes", () -> !f.engine.status(OWNER).containsKey("svc-3"));

            // The desired set grows back: held rows are its rows again, nothing recreated twice.
            List<LoadBalancerSpec> back = specs(0, 20);
            ApplyResult again = f.engine.apply(OWNER, back).get(20, TimeUnit.SECONDS);
            assertThat(again.allApplied()).as(again.toString()).isTrue();
            assertThat(OwnedRows.rows(f.nbctl)).isEqualTo(OwnedRows.expected(back));

            // A few deletions are within the budget and made at once.
            f.engine.apply(OWNER, specs(0, 16)).get(20, TimeUnit.SECONDS);
            assertThat(OwnedRows.rows(f.nbctl)).isEqualTo(OwnedRows.expected(specs(0, 16)));

            // 15 of 16 is held; released explicitly, they go.
            ApplyResult one = f.engine.apply(OWNER, specs(0, 1)).get(20, TimeUnit.SECONDS);
            assertThat(count(one.statuses(), SpecStatus.State.HELD)).isEqualTo(15);
            assertThat(OwnedRows.rows(f.nbctl)).hasSize(16);
            ApplyResult released = f.engine.releaseHeldDeletions(OWNER).get(20, TimeUnit.SECONDS);
            assertThat(released.statuses()).containsOnlyKeys("svc-0");
            assertThat(OwnedRows.rows(f.nbctl)).isEqualTo(OwnedRows.expected(specs(0, 1)));
        }
    }

    @Test
    void allowMassDeleteDeletesAtOnceAndAnUnlimitedBudgetNeverHolds() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.engine.apply(OWNER, specs(0, 10)).get(20, TimeUnit.SECONDS);
            ApplyResult r = f.engine.apply(OWNER, List.of(), ApplyOption.ALLOW_MASS_DELETE).get(20, TimeUnit.SECONDS);
            assertThat(r.statuses()).isEmpty();
            assertThat(OwnedRows.rows(f.nbctl)).isEmpty();
        }
        try (EngineFixture f = new EngineFixture(b -> b.deletionBudget(DeletionBudget.unlimited()))) {
            f.engine.apply(OWNER, specs(0, 10)).get(20, TimeUnit.SECONDS);
            f.engine.apply(OWNER, List.of()).get(20, TimeUnit.SECONDS);
            assertThat(OwnedRows.rows(f.nbctl)).isEmpty();
        }
    }

    /** A controller that applied {@code specs} and stopped: what a restarted one finds. */
    private static void runAndStop(OvsdbServer server, List<LoadBalancerSpec> specs) throws Exception {
        try (OvsdbClient c = EngineFixture.client(server.remote()); LoadBalancerEngine before = LoadBalancerEngine.builder(c).build().start()) {
            c.startAndWait(WAIT);
            before.apply(OWNER, specs).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRestartedControllerThatUpsertsOneOfAHundredDeletesNothingUntilItsSetIsComplete() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            List<LoadBalancerSpec> all = specs(0, 100);
            runAndStop(server, all);
            // The controller restarts; its informer has delivered one Service so far.
            try (OvsdbClient c = EngineFixture.client(server.remote()); LoadBalancerEngine after = LoadBalancerEngine.builder(c).build().start()) {
                c.startAndWait(WAIT);
                assertThat(after.upsert(OWNER, spec(0, 1)).get(20, TimeUnit.SECONDS).statuses().get("svc-0").state())
                        .isEqualTo(SpecStatus.State.APPLIED);
                Await.until(WAIT, "the other 99 are listed as orphans",
                        () -> count(after.status(OWNER), SpecStatus.State.HELD) == 99);
                assertThat(after.status(OWNER).get("svc-42").reason()).contains("orphan").contains("declareComplete");
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(all));

                // The informer catches up (half of the Services changed meanwhile), then says it is synced.
                for (int i = 1; i < 100; i++) {
                    after.upsert(OWNER, spec(i, i < 50 ? 1 : 2)).get(20, TimeUnit.SECONDS);
                }
                ApplyResult complete = after.declareComplete(OWNER).get(20, TimeUnit.SECONDS);
                assertThat(complete.allApplied()).as(complete.toString()).isTrue();
                List<LoadBalancerSpec> now = new ArrayList<>(specs(0, 50));
                for (int i = 50; i < 100; i++) {
                    now.add(spec(i, 2));
                }
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(now));

                // Once complete, a row nobody declares is deleted as before.
                nbctl.run("lb-add", "stray-tcp", "168.119.17.61:9999", "10.9.9.9:80", "--", "set", "Load_Balancer", "stray-tcp",
                        "external_ids:ovnj.owner=" + OWNER, "external_ids:ovnj.spec=stray");
                Await.until(WAIT, "the stray row of the owner is deleted", () -> !nbctl.run("--bare", "--columns=name", "list",
                        "Load_Balancer").contains("stray-tcp"));
            }
        }
    }

    @Test
    void aRestartedControllerWhoseFirstApplyIsNearlyEmptyHoldsTheRest() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            List<LoadBalancerSpec> all = specs(0, 30);
            runAndStop(server, all);
            try (OvsdbClient c = EngineFixture.client(server.remote()); LoadBalancerEngine after = LoadBalancerEngine.builder(c).build().start()) {
                c.startAndWait(WAIT);
                ApplyResult r = after.apply(OWNER, specs(0, 2)).get(20, TimeUnit.SECONDS);
                assertThat(count(r.statuses(), SpecStatus.State.HELD)).isEqualTo(28);
                assertThat(count(r.statuses(), SpecStatus.State.APPLIED)).isEqualTo(2);
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(all));
            }
        }
    }
}
