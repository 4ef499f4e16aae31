package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a topology change means to the engine, and what it costs. */
class TopologyEventsIT {

    @Test
    void aRouterPortChangeInTheSameBatchAsDriftNeitherCrashesNorHidesTheDrift() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<LoadBalancerSpec> specs = List.of(spec(0, 1), spec(1, 1));
            f.engine.apply(OWNER, specs).get(10, TimeUnit.SECONDS);
            UUID before = f.engine.status(OWNER).get("svc-0").rows().iterator().next();

            // One transaction: a router port's networks change and an owned row is deleted.
            f.nbctl.run("set", "Logical_Router_Port", "shalb-dev-ext", "networks=\"168.119.17.51/28\",\"10.7.0.1/24\"",
                    "--", "lb-del", "svc-0-tcp");
            Await.until(WAIT, "row recreated", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(specs)));
            String now = f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=svc-0-tcp");
            Await.until(WAIT, "status points at the new row", () -> {
                SpecStatus s = f.engine.status(OWNER).get("svc-0");
                return s.state() == SpecStatus.State.APPLIED && s.rows().equals(java.util.Set.of(UUID.fromString(now)));
            });
            assertThat(UUID.fromString(now)).isNotEqualTo(before);

            // A port added to the router together with drift of the other spec.
            f.nbctl.run("lrp-add", "shalb-dev", "shalb-dev-int", "02:00:00:00:00:02", "10.8.0.1/24",
                    "--", "lb-del", "svc-1-tcp");
            Await.until(WAIT, "second row recreated", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(specs)));
            Await.until(WAIT, "all applied", () -> f.engine.status(OWNER).values().stream().allMatch(s -> s.state() == SpecStatus.State.APPLIED));
        }
    }

    @Test
    void unrelatedChangesCauseNoReplanAndPlanningHoldsTheCacheLockBriefly() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<LoadBalancerSpec> specs = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                specs.add(spec(i, 1));
            }
            assertThat(f.engine.apply(OWNER, specs).get(120, TimeUnit.SECONDS).allApplied()).isTrue();
            Thread.sleep(500);
            long plannedBefore = f.engine.metrics().specPlans();
            long slowBefore = f.engine.metrics().slowCacheReads();

            f.nbctl.run("lsp-add", "shalb-dev-default", "pod-1");
            f.nbctl.run("ls-add", "elsewhere", "--", "lsp-add", "elsewhere", "pod-2");
            f.nbctl.run("lr-add", "other-router", "--", "lrp-add", "other-router", "other-ext", "02:00:00:00:00:09", "10.9.0.1/24");
            f.nbctl.run("set", "Logical_Switch", "shalb-dev-default", "other_config:subnet=10.1.0.0/16");
            Thread.sleep(1500);
            assertThat(f.engine.metrics().specPlans()).as("specs planned after unrelated changes").isEqualTo(plannedBefore);

            // A change that does concern every spec on the router re-plans them, each in a short cache read.
            f.nbctl.run("lrp-add", "shalb-dev", "shalb-dev-int", "02:00:00:00:00:02", "10.8.0.1/24");
            Await.until(WAIT, "specs re-planned", () -> f.engine.metrics().specPlans() >= plannedBefore + 2000);
            assertThat(f.engine.metrics().slowCacheReads() - slowBefore).as("holds of the cache read lock over 10 ms while "
                    + "re-planning 2000 specs (longest ever: " + f.engine.metrics().longestCacheReadMicros() + " us)").isZero();
            assertThat(f.engine.plan(OWNER, specs).isEmpty()).isTrue();
        }
    }
}
