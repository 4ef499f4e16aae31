package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EngineResilienceIT {
    static final String OWNER = "kube-dc";

    static LoadBalancerSpec spec(int i, int version) {
        return LoadBalancerSpec.builder("svc-" + i).routers("shalb-dev").switches("shalb-dev-default")
                .tcp("168.119.17." + (52 + i % 10) + ":" + (1000 + i), "10.1." + (version % 250) + "." + (1 + i % 250) + ":8080")
                .build();
    }

    /** owner's rows as ovn-nbctl sees them: name to vips. */
    static Map<String, String> rows(Nbctl nbctl) {
        Map<String, String> out = new TreeMap<>();
        String json = nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips,external_ids", "list", "Load_Balancer");
        for (String line : json.split("\n")) {
            if (line.contains("ovnj.owner=" + OWNER)) {
                String[] parts = line.split(",", 2);
                out.put(parts[0], parts[1].replaceAll(",?\"?ovnj\\..*", ""));
            }
        }
        return out;
    }

    @Test
    void manyChangesInAShortWindowBecomeFewTransactions() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<CompletableFuture<ApplyResult>> futures = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                futures.add(f.engine.upsert(OWNER, spec(i, 0)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(f.lines("--bare", "--columns=name", "find", "Load_Balancer", "external_ids:ovnj.owner=" + OWNER)).hasSize(300);
            assertThat(f.engine.metrics().transactions()).as("300 upserts coalesced").isLessThan(30);
        }
    }

    @Test
    void clusterLeaderKilledDuringABurstEndsWithExactlyTheLastDesiredState() throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            EngineFixture.seed(nbctl);
            OvsdbClient client = EngineFixture.client(cluster.remotes());
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                Map<Integer, Integer> last = new TreeMap<>();
                List<CompletableFuture<ApplyResult>> futures = new CopyOnWriteArrayList<>();
                java.util.Random rnd = new java.util.Random(7);
                for (int n = 0; n < 1000; n++) {
                    if (n == 300) {
                        cluster.kill(cluster.awaitLeader());
                    }
                    int i = rnd.nextInt(60);
                    int version = n;
                    last.put(i, version);
                    futures.add(engine.upsert(OWNER, spec(i, version)));
                    if (n % 50 == 0) {
                        Thread.sleep(5);
                    }
                }
                CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                Map<String, String> expected = new TreeMap<>();
                List<LoadBalancerSpec> lastSpecs = new ArrayList<>();
                last.forEach((i, v) -> lastSpecs.add(spec(i, v)));
                for (LoadBalancerSpec s : lastSpecs) {
                    expected.put(s.name() + "-tcp", s.vips().get(0).vip() + "=" + s.vips().get(0).backends().get(0));
                }
                Await.until(WAIT, "engine in sync", () -> engine.plan(OWNER, lastSpecs).isEmpty());
                Map<String, String> actual = new TreeMap<>();
                for (String line : nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips", "find",
                        "Load_Balancer", "external_ids:ovnj.owner=" + OWNER).split("\n")) {
                    String[] p = line.split(",", 2);
                    actual.put(p[0], p[1]);
                }
                assertThat(actual).isEqualTo(expected);
                assertThat(client.stats().connects()).as("reconnected after the leader kill").isGreaterThanOrEqualTo(2);
            }
        }
    }

    @Test
    void twoEnginesForOneOwnerOnlyTheLockHolderWritesAndTheOtherTakesOver() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient ca = OvsdbClient.builder().remotes(server.remote()).build();
            OvsdbClient cb = OvsdbClient.builder().remotes(server.remote()).build();
            LoadBalancerEngine a = LoadBalancerEngine.builder(ca).lock("ovnj_kube_dc").build().start();
            ca.startAndWait(WAIT);
            Await.until(WAIT, "a holds the lock", a::isAvailable);
            LoadBalancerEngine b = LoadBalancerEngine.builder(cb).lock("ovnj_kube_dc").build().start();
            cb.startAndWait(WAIT);
            try (cb; b) {
                List<LoadBalancerSpec> specs = List.of(spec(1, 1));
                CompletableFuture<ApplyResult> viaB = b.apply(OWNER, specs);
                a.apply(OWNER, specs).get(20, TimeUnit.SECONDS);
                Thread.sleep(300);
                assertThat(b.isAvailable()).isFalse();
                assertThat(b.metrics().transactions()).as("standby wrote nothing").isZero();
                assertThat(viaB).isNotDone();

                // The active replica's connection dies: the standby gets the lock and takes over.
                ca.close();
                a.close();
                Await.until(WAIT, "b takes over", b::isAvailable);
                viaB.get(20, TimeUnit.SECONDS);
                nbctl.run("lb-del", "svc-1-tcp");
                Await.until(WAIT, "b repairs", () -> nbctl.run("--bare", "--columns=name", "list", "Load_Balancer").contains("svc-1-tcp"));
                // The row is visible to ovn-nbctl a moment before b's transaction future completes.
                Await.until(WAIT, "b counts the repair", () -> b.metrics().repairs() > 0);
            }
        }
    }
}
