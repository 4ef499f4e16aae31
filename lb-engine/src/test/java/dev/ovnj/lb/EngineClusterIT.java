package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The engine on RAFT clusters whose members are killed and restarted one after the other, while
 * other clients write through any member. {@code -Dovnj.faultRounds=10} runs the long version;
 * the default of 3 rounds keeps CI fast.
 */
class EngineClusterIT {
    static final int ROUNDS = Integer.getInteger("ovnj.faultRounds", 3);

    @Test
    void threeMembersLeaderThenEachFollowerKilledPerRound() throws Exception {
        killRounds(3);
    }

    @Test
    void fiveMembersLeaderThenEachFollowerKilledPerRound() throws Exception {
        killRounds(5);
    }

    private static void killRounds(int size) throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(size)) {
            Nbctl nbctl = Nbctl.of(cluster);
            EngineFixture.seed(nbctl);
            OvsdbClient client = EngineFixture.client(cluster.remotes());
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                AtomicBoolean running = new AtomicBoolean(true);
                Map<Integer, LoadBalancerSpec> last = new ConcurrentHashMap<>();
                List<CompletableFuture<ApplyResult>> futures = new CopyOnWriteArrayList<>();
                Thread specs = new Thread(() -> {
                    Random rnd = new Random(size);
                    for (int version = 0; running.get(); version++) {
                        int i = rnd.nextInt(40);
                        LoadBalancerSpec s = spec(i, version);
                        last.put(i, s);
                        futures.add(engine.upsert(OWNER, s));
                        sleep(15);
                    }
                }, "spec-changes");
                List<String> foreign = new CopyOnWriteArrayList<>();
                Thread others = new Thread(() -> writeForeignRows(nbctl.anyMember(), running, foreign), "foreign-writer");
                specs.start();
                others.start();

                for (int round = 0; round < ROUNDS; round++) {
                    int leader = cluster.awaitLeader();
                    cycle(cluster, leader);
                    for (int m = 0; m < size; m++) {
                        if (m != leader) {
                            cycle(cluster, m);
                        }
                    }
                }
                running.set(false);
                specs.join();
                others.join();

                CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                List<LoadBalancerSpec> desired = new ArrayList<>(last.values());
                Await.until(WAIT, "engine in sync", () -> engine.plan(OWNER, desired).isEmpty());
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(desired));
                assertThat(OwnedRows.attachments(nbctl)).containsExactly(desired.size(), desired.size());
                String all = nbctl.run("--bare", "--columns=name", "list", "Load_Balancer");
                assertThat(foreign).as("foreign writes happened").hasSizeGreaterThan(ROUNDS);
                assertThat(all.lines().toList()).as("every foreign row survives").containsAll(foreign);
                assertThat(client.stats().resumedSyncs()).isPositive();
            }
            cluster.members().forEach(OvsdbServer::stop);
            assertThat(cluster.checkCluster()).doesNotContainIgnoringCase("error");
        }
    }

    /** Kills one member, waits for a leader without it, and brings it back with its database. */
    private static void cycle(OvsdbCluster cluster, int member) {
        cluster.kill(member);
        cluster.awaitLeader();
        sleep(200);
        cluster.restart(member);
        Await.until(WAIT, "member " + member + " back in the cluster", () -> cluster.status(member).contains("Status: cluster member"));
    }

    /** Another controller writing its own load balancers through whichever member answers. */
    private static void writeForeignRows(Nbctl anyMember, AtomicBoolean running, List<String> written) {
        for (int k = 0; running.get(); k++) {
            String name = "foreign-" + k;
            while (true) {
                try {
                    anyMember.run("--may-exist", "lb-add", name, "192.0.2." + (k % 250 + 1) + ":80", "10.9.0.1:80");
                    written.add(name);
                    break;
                } catch (NbctlException e) {
                    // The member it reached was killed or had no leader; --may-exist makes the retry safe.
                    sleep(100);
                }
            }
            sleep(50);
        }
    }

    @Test
    void quorumLossMakesTheEngineUnavailableAndItConvergesWhenQuorumReturns() throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            EngineFixture.seed(nbctl);
            OvsdbClient client = EngineFixture.client(cluster.remotes());
            EngineFaultIT.Observer seen = new EngineFaultIT.Observer();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
                engine.addListener(seen);
                engine.start();
                client.startAndWait(WAIT);
                List<LoadBalancerSpec> specs = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    specs.add(spec(i, 1));
                }
                engine.apply(OWNER, specs).get(20, TimeUnit.SECONDS);

                int leader = cluster.awaitLeader();
                int follower = (leader + 1) % 3;
                cluster.kill(leader);
                cluster.kill(follower);
                Await.until(WAIT, "engine unavailable", () -> !engine.isAvailable());
                List<CompletableFuture<ApplyResult>> during = new ArrayList<>();
                for (int i = 5; i < 10; i++) {
                    specs.add(spec(i, 1));
                    during.add(engine.upsert(OWNER, spec(i, 1)));
                }
                sleep(2000);
                assertThat(engine.isAvailable()).isFalse();
                assertThat(during).as("no write without quorum").noneMatch(CompletableFuture::isDone);

                cluster.restart(leader);
                cluster.restart(follower);
                // Completed without being asked again: the engine kept the desired state.
                CompletableFuture.allOf(during.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(specs));
                assertThat(seen.availability).containsSubsequence(true, false, true);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
