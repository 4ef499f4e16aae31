package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbRelay;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes against every server mode, and what it costs on the wire: a transaction's
 * future completes with its rows already in the cache, and the server's jsonrpc debug log shows
 * exactly one {@code transact} per transaction and no {@code echo} barrier.
 */
class ReadYourWritesIT {
    private static final int TRANSACTIONS = 20;

    /**
     * Runs single-row transactions one after the other, as a drift repair does, and checks in
     * each future's own completion that the cache already holds the row.
     */
    private static void writeAndReadBack(OvsdbClient client, String prefix) throws Exception {
        List<Boolean> seen = new ArrayList<>();
        for (int i = 0; i < TRANSACTIONS; i++) {
            String name = prefix + i;
            CompletableFuture<Boolean> inCache = client.transact(client.transaction()
                            .add(Operations.insert("Logical_Switch").value("name", name)).build())
                    .thenApply(r -> Clients.byName(client, "Logical_Switch", name).isPresent());
            seen.add(inCache.get(20, TimeUnit.SECONDS));
        }
        assertThat(seen).hasSize(TRANSACTIONS).containsOnly(true);
        // A burst of pipelined transactions: every one completes with its row in the cache.
        List<CompletableFuture<Boolean>> burst = new ArrayList<>();
        for (int i = 0; i < TRANSACTIONS; i++) {
            String name = prefix + "burst-" + i;
            burst.add(client.transact(client.transaction().add(Operations.insert("Logical_Switch").value("name", name)).build())
                    .thenApply(r -> Clients.byName(client, "Logical_Switch", name).isPresent()));
        }
        for (CompletableFuture<Boolean> f : burst) {
            assertThat(f.get(20, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Counts the requests the server received for this test's transactions, and any barrier echo. */
    private static void assertOneTransactPerTransactionAndNoEcho(Supplier<String> serverLog, String prefix) {
        List<String> lines = serverLog.get().lines().filter(l -> l.contains("|jsonrpc|DBG|")).toList();
        long transacts = lines.stream().filter(l -> l.contains("received request, method=\"transact\"") && l.contains(prefix)).count();
        // The client's inactivity probe is an echo with empty params; anything else would be a barrier.
        List<String> echoes = lines.stream().filter(l -> l.contains("received request, method=\"echo\"") && !l.contains("params=[]")).toList();
        assertThat(transacts).as("transact requests on the wire").isEqualTo(2L * TRANSACTIONS);
        assertThat(echoes).as("echo requests other than the inactivity probe").isEmpty();
    }

    @Test
    void standalone() throws Exception {
        try (OvsdbServer server = OvsdbServer.builder().extraArgs("-vjsonrpc:file:dbg").start();
             OvsdbClient client = Clients.connect(server.remote())) {
            assertThat(client.serverModel()).contains(ServerModel.STANDALONE);
            writeAndReadBack(client, "ryw-standalone-");
            assertOneTransactPerTransactionAndNoEcho(server::log, "ryw-standalone-");
        }
    }

    @Test
    void clusterLeaderAndFollower() throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            int leader = cluster.awaitLeader();
            int follower = (leader + 1) % cluster.size();
            for (OvsdbServer member : cluster.members()) {
                member.appctl("vlog/set", "jsonrpc:file:dbg");
            }
            try (OvsdbClient client = Clients.connect(cluster.remotes())) {
                assertThat(client.serverModel()).contains(ServerModel.CLUSTERED);
                assertThat(client.connectedRemote()).contains(Remote.parse(cluster.member(leader).remote()));
                writeAndReadBack(client, "ryw-leader-");
                assertOneTransactPerTransactionAndNoEcho(cluster.member(leader)::log, "ryw-leader-");
            }
            // A follower forwards the transaction to the leader and still sends the update first.
            try (OvsdbClient client = OvsdbClient.builder().remotes(cluster.member(follower).remote()).leaderOnly(false)
                    .build().startAndWait(WAIT)) {
                assertThat(client.serverModel()).contains(ServerModel.CLUSTERED);
                writeAndReadBack(client, "ryw-follower-");
                assertOneTransactPerTransactionAndNoEcho(cluster.member(follower)::log, "ryw-follower-");
            }
        }
    }

    @Test
    void relay() throws Exception {
        try (OvsdbServer source = OvsdbServer.start();
             OvsdbRelay relay = OvsdbRelay.builder().source(source.remote()).extraArgs("-vjsonrpc:file:dbg").start();
             OvsdbClient client = Clients.connect(relay.remote())) {
            assertThat(client.serverModel()).contains(ServerModel.RELAY);
            writeAndReadBack(client, "ryw-relay-");
            assertOneTransactPerTransactionAndNoEcho(relay::log, "ryw-relay-");
        }
    }
}
