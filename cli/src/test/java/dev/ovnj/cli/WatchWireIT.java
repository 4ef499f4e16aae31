package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ovnj reconcile --watch} puts on the wire when it repairs drift one row at a time,
 * counted in the server's jsonrpc debug log: one {@code transact} per repair and no {@code echo}
 * besides the inactivity probe, on a standalone server and on a cluster leader.
 */
class WatchWireIT {
    @TempDir
    Path dir;

    private static void seed(Nbctl nbctl) {
        nbctl.run("lr-add", "shalb-dev");
        nbctl.run("lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", "shalb-dev-default");
    }

    /** Runs the watch, makes three drifts and counts what ovnj's connection sent while repairing them. */
    private void threeRepairs(String db, Nbctl nbctl, Supplier<String> serverLog) throws Exception {
        seed(nbctl);
        Path file = dir.resolve("state.yaml");
        Files.writeString(file, CommandsIT.STATE);
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", db, "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));
            String connection = ovnjConnection(serverLog.get());
            long transactsBefore = requests(serverLog.get(), connection, "transact");
            for (int i = 1; i <= 3; i++) {
                nbctl.run("lb-del", "shalb-dev-etcd-lb-tcp");
                int repairs = i;
                Await.until(Duration.ofSeconds(10), "repair " + i, () -> p.stdout().stream()
                        .filter(l -> l.startsWith("repaired shalb-dev-etcd-lb-tcp")).count() == repairs);
            }
            p.terminate();
            p.await(Duration.ofSeconds(15));
            String log = serverLog.get();
            assertThat(requests(log, connection, "transact") - transactsBefore).as("transact requests for 3 repairs").isEqualTo(3);
            String echo = "|DBG|" + connection + ": received request, method=\"echo\"";
            assertThat(log.lines().filter(l -> l.contains(echo) && !l.contains("params=[]")).toList())
                    .as("echo requests besides the inactivity probe").isEmpty();
        }
    }

    @Test
    void standalone() throws Exception {
        try (OvsdbServer server = OvsdbServer.builder().extraArgs("-vjsonrpc:file:dbg").start()) {
            threeRepairs(server.remote(), Nbctl.of(server), server::log);
        }
    }

    @Test
    void clusterLeader() throws Exception {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            int leader = cluster.awaitLeader();
            cluster.member(leader).appctl("vlog/set", "jsonrpc:file:dbg");
            threeRepairs(cluster.remotes(), Nbctl.of(cluster), cluster.member(leader)::log);
        }
    }

    /** The peer name (e.g. {@code tcp:127.0.0.1:40000}) of the connection that monitors as ovnj. */
    private static String ovnjConnection(String log) {
        Matcher m = Pattern.compile("\\|DBG\\|(\\S+): received request, method=\"monitor_cond_since\", params=\\[\"OVN_Northbound\",\"ovnj-")
                .matcher(log);
        assertThat(m.find()).as("ovnj's monitor in the server's jsonrpc log").isTrue();
        return m.group(1);
    }

    private static long requests(String log, String connection, String method) {
        String needle = "|DBG|" + connection + ": received request, method=\"" + method + "\"";
        return log.lines().filter(l -> l.contains(needle)).count();
    }
}
