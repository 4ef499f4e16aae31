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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two engines of one owner, as a rolling update runs them (the old and the new pod side by side,
 * with different desired sets), against a real ovsdb-server with no configuration beyond the
 * defaults: only one writes, the other stands by and says so, and it takes over when the first
 * goes away, whether closed or cut off.
 */
class SingleWriterIT {

    private static List<LoadBalancerSpec> specs(int n, int version) {
        List<LoadBalancerSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(spec(i, version));
        }
        return out;
    }

    /** A seeded server and two synced clients of it, as two replicas of one controller have. */
    private record Replicas(OvsdbServer server, Nbctl nbctl, OvsdbClient c1, OvsdbClient c2) implements AutoCloseable {
        static Replicas start() {
            OvsdbServer server = OvsdbServer.start();
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient c1 = EngineFixture.client(server.remote());
            OvsdbClient c2 = EngineFixture.client(server.remote());
            c1.startAndWait(WAIT);
            c2.startAndWait(WAIT);
            return new Replicas(server, nbctl, c1, c2);
        }

        @Override
        public void close() {
            c1.close();
            c2.close();
            server.close();
        }
    }

    @Test
    void theSecondEngineOfAnOwnerStandsByWithoutWritingAndTakesOverWhenTheFirstCloses() throws Exception {
        try (Replicas r = Replicas.start()) {
            List<LoadBalancerSpec> oldSet = specs(10, 1);
            List<LoadBalancerSpec> newSet = specs(12, 2);
            LoadBalancerEngine old = LoadBalancerEngine.builder(r.c1()).build().start();
            try (LoadBalancerEngine next = LoadBalancerEngine.builder(r.c2()).build().start()) {
                assertThat(old.apply(OWNER, oldSet).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
                CompletableFuture<ApplyResult> viaNext = next.apply(OWNER, newSet);

                Await.until(WAIT, "the new replica says it stands by", () -> !next.isAvailable()
                        && next.availability().contains(LoadBalancerEngine.ownerLockName(OWNER)));
                assertThat(next.availability()).contains("standby").contains(OWNER);
                // Time for a fight to show: the old replica's rows stay exactly as it wrote them.
                Thread.sleep(1500);
                assertThat(OwnedRows.rows(r.nbctl())).isEqualTo(OwnedRows.expected(oldSet));
                assertThat(next.metrics().transactions()).as("the standby wrote nothing").isZero();
                assertThat(old.metrics().repairs()).as("nothing to repair: nobody fought").isZero();
                assertThat(viaNext).isNotDone();
                assertThat(next.status(OWNER).values()).allSatisfy(s -> {
                    assertThat(s.state()).isEqualTo(SpecStatus.State.PENDING);
                    assertThat(s.reason()).contains("standby").contains(LoadBalancerEngine.ownerLockName(OWNER));
                });
                assertThat(old.isAvailable()).isTrue();

                old.close();
                ApplyResult result = viaNext.get(20, TimeUnit.SECONDS);
                assertThat(result.allApplied()).as(result.toString()).isTrue();
                assertThat(OwnedRows.rows(r.nbctl())).isEqualTo(OwnedRows.expected(newSet));
                assertThat(next.isAvailable()).isTrue();
            }
        }
    }

    @Test
    void whenTheWriterIsCutOffTheStandbyTakesOverAndRepairs() throws Exception {
        try (Replicas r = Replicas.start()) {
            List<LoadBalancerSpec> set = specs(5, 1);
            LoadBalancerEngine first = LoadBalancerEngine.builder(r.c1()).build().start();
            try (LoadBalancerEngine second = LoadBalancerEngine.builder(r.c2()).build().start()) {
                first.apply(OWNER, set).get(20, TimeUnit.SECONDS);
                CompletableFuture<ApplyResult> viaSecond = second.apply(OWNER, set);
                Await.until(WAIT, "the second stands by", () -> !second.isAvailable());

                // The old pod dies without closing anything: its connection goes, and its lock with it.
                r.c1().close();
                viaSecond.get(20, TimeUnit.SECONDS);
                Await.until(WAIT, "the second is available", second::isAvailable);
                r.nbctl().run("lb-del", "svc-3-tcp");
                Await.until(WAIT, "the second repairs the deleted row",
                        () -> OwnedRows.rows(r.nbctl()).equals(OwnedRows.expected(set)));
                first.close();
            }
        }
    }

    @Test
    void enginesOfDifferentOwnersDoNotWaitForEachOther() throws Exception {
        try (Replicas r = Replicas.start()) {
            try (LoadBalancerEngine a = LoadBalancerEngine.builder(r.c1()).build().start();
                 LoadBalancerEngine b = LoadBalancerEngine.builder(r.c2()).build().start()) {
                LoadBalancerSpec other = LoadBalancerSpec.builder("other-web").routers("shalb-dev").switches("shalb-dev-default")
                        .tcp("168.119.17.60:80", "10.1.9.9:80").build();
                assertThat(a.apply(OWNER, specs(3, 1)).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
                assertThat(b.apply("other-team", List.of(other)).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
                assertThat(a.isAvailable()).isTrue();
                assertThat(b.isAvailable()).isTrue();
            }
        }
    }

    @Test
    void withOwnerLocksOffBothEnginesWriteAsBefore() throws Exception {
        try (Replicas r = Replicas.start()) {
            try (LoadBalancerEngine a = LoadBalancerEngine.builder(r.c1()).ownerLocks(false).build().start();
                 LoadBalancerEngine b = LoadBalancerEngine.builder(r.c2()).ownerLocks(false).build().start()) {
                a.apply(OWNER, specs(3, 1)).get(20, TimeUnit.SECONDS);
                // The same set: nothing to fight over, and b is not held back by a lock.
                assertThat(b.apply(OWNER, specs(3, 1)).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
                assertThat(b.isAvailable()).isTrue();
            }
        }
    }

    @Test
    void withoutOwnerLocksAFightIsDetectedReportedAndBackedOffFrom() throws Exception {
        try (Replicas r = Replicas.start()) {
            try (LoadBalancerEngine a = LoadBalancerEngine.builder(r.c1()).ownerLocks(false).build().start();
                 LoadBalancerEngine b = LoadBalancerEngine.builder(r.c2()).ownerLocks(false).build().start()) {
                a.apply(OWNER, specs(3, 1)).get(20, TimeUnit.SECONDS);
                // A rolling update with the locks switched off: the new replica's set differs.
                b.apply(OWNER, specs(3, 2));
                Await.until(WAIT, "a fight is detected", () -> a.metrics().fights() + b.metrics().fights() > 0);
                LoadBalancerEngine loser = a.metrics().fights() > 0 ? a : b;
                Await.until(WAIT, "the fought-over spec says so", () -> loser.status(OWNER).values().stream()
                        .anyMatch(s -> s.state() == SpecStatus.State.CONFLICT && s.reason().contains("another writer")
                                && s.reason().contains("owner lock")));
                // Backed off: over the next 5 s the two write a handful of transactions, not hundreds.
                long before = a.metrics().transactions() + b.metrics().transactions();
                Thread.sleep(5000);
                long during = a.metrics().transactions() + b.metrics().transactions() - before;
                assertThat(during).as("transactions in 5 s of a fight").isLessThan(40);
            }
        }
    }
}
