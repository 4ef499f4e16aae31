package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class MonitorIT {

    @Test
    void standaloneRestartResyncsWithFoundFalseAndEmitsOnlyTheDifferences() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "stays");
            nbctl.run("ls-add", "goes");
            nbctl.run("ls-add", "changes");
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .backoff(Duration.ofMillis(50), Duration.ofMillis(500)).build()) {
                client.startAndWait(WAIT);
                List<CacheEvent> events = new CopyOnWriteArrayList<>();
                client.cache().addListener(events::addAll);
                server.stop();
                Await.until(WAIT, "disconnect seen", () -> !client.isSynced());
                server.restart();
                // The server forgot the client's history: a standalone server answers found=false.
                Await.until(WAIT, "resynced", client::isSynced);
                nbctl.run("ls-del", "goes");
                nbctl.run("set", "Logical_Switch", "changes", "external_ids:x=1");
                Await.until(WAIT, "changes seen", () -> events.size() >= 2);
                assertThat(client.stats().fullSyncs()).isEqualTo(2);
                assertThat(client.stats().resumedSyncs()).isZero();
                // The resync itself changed nothing, so it emitted nothing; only the two edits show.
                assertThat(events).hasSize(2);
                assertThat(events.get(0)).isInstanceOfSatisfying(CacheEvent.Deleted.class,
                        d -> assertThat(d.oldRow().get("name")).isEqualTo("goes"));
                assertThat(events.get(1)).isInstanceOf(CacheEvent.Updated.class);
            }
        }
    }

    @Test
    void resyncAfterTheDatabaseWasReplacedEmitsDeletesAndInserts() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "old");
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .backoff(Duration.ofMillis(50), Duration.ofMillis(500)).build()) {
                client.startAndWait(WAIT);
                List<CacheEvent> events = new CopyOnWriteArrayList<>();
                client.cache().addListener(batch -> batch.stream().filter(e -> e.table().equals("Logical_Switch")).forEach(events::add));
                server.stop();
                // Replace the database file with a fresh one, as a restore from an empty backup would.
                java.nio.file.Files.delete(server.databaseFile());
                dev.ovnj.testkit.Command.of("ovsdb-tool", "create", server.databaseFile().toString(),
                        dev.ovnj.testkit.Schemas.ovnNorthbound(server.directory()).toString()).check();
                server.restart();
                Await.until(WAIT, "resynced", client::isSynced);
                Await.until(WAIT, "delete event", () -> !events.isEmpty());
                assertThat(events).singleElement().isInstanceOfSatisfying(CacheEvent.Deleted.class,
                        d -> assertThat(d.oldRow().get("name")).isEqualTo("old"));
                assertThat(client.cache().table("Logical_Switch").size()).isZero();
            }
        }
    }

    @Test
    void conditionalMonitorAndConditionChange() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lb-add", "mine", "10.0.0.1:80", "10.1.0.1:80");
            nbctl.run("set", "Load_Balancer", "mine", "external_ids:ovnj.owner=me");
            nbctl.run("lb-add", "theirs", "10.0.0.2:80", "10.1.0.2:80");
            nbctl.run("set", "Load_Balancer", "theirs", "external_ids:ovnj.owner=them");
            TableMonitor mine = TableMonitor.all("Load_Balancer")
                    .where(Condition.includes("external_ids", Map.of("ovnj.owner", "me")));
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .monitor(MonitorRequest.of(mine, TableMonitor.all("Logical_Switch"))).build()) {
                client.startAndWait(WAIT);
                assertThat(client.cache().table("Load_Balancer").rows()).extracting(r -> r.get("name")).containsExactly("mine");
                assertThat(client.cache().findTable("ACL")).isEmpty();

                nbctl.run("set", "Load_Balancer", "theirs", "external_ids:ovnj.owner=me");
                Await.until(WAIT, "row that starts matching appears", () -> client.cache().table("Load_Balancer").size() == 2);

                client.changeConditions(TableMonitor.all("Load_Balancer")
                        .where(Condition.includes("external_ids", Map.of("ovnj.owner", "nobody")))).join();
                Await.until(WAIT, "rows that stop matching disappear", () -> client.cache().table("Load_Balancer").size() == 0);
                nbctl.run("lb-add", "late", "10.0.0.3:80", "10.1.0.3:80");
                nbctl.run("set", "Load_Balancer", "late", "external_ids:ovnj.owner=nobody");
                Await.until(WAIT, "new condition applies", () -> client.cache().table("Load_Balancer").rows().stream()
                        .map((Row r) -> r.get("name")).toList().equals(List.of("late")));
            }
        }
    }

    @Test
    void aMonitorsConditionsAreOredLikeOvsdbServerDoes() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            for (String name : List.of("a", "b", "c")) {
                nbctl.run("ls-add", name);
            }
            // Two clauses on one column: ANDed they could match nothing; ovsdb-server sends both rows.
            TableMonitor aOrB = TableMonitor.all("Logical_Switch").where(Condition.eq("name", "a"), Condition.eq("name", "b"));
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(MonitorRequest.of(aOrB)).build()) {
                client.startAndWait(WAIT);
                assertThat(client.cache().table("Logical_Switch").rows()).extracting(r -> r.get("name"))
                        .containsExactlyInAnyOrder("a", "b");
                client.changeConditions(TableMonitor.all("Logical_Switch")
                        .where(Condition.eq("name", "b"), Condition.eq("name", "c"))).join();
                Await.until(WAIT, "a leaves, c enters", () -> client.cache().table("Logical_Switch").rows().stream()
                        .map((Row r) -> (String) r.get("name")).sorted().toList().equals(List.of("b", "c")));
            }
        }
    }

    @Test
    void rowsWithoutVersionsStillFollowEveryChange() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lb-add", "web", "10.0.0.1:80", "10.1.0.1:80");
            try (OvsdbClient lean = OvsdbClient.builder().remotes(server.remote())
                    .monitor(MonitorRequest.tables("Load_Balancer").withoutRowVersions()).build();
                 OvsdbClient full = OvsdbClient.builder().remotes(server.remote())
                         .monitor(MonitorRequest.tables("Load_Balancer")).build()) {
                lean.startAndWait(WAIT);
                full.startAndWait(WAIT);
                Row row = lean.cache().table("Load_Balancer").rows().get(0);
                assertThat(row.get("name")).isEqualTo("web");
                assertThat(row.version()).isEmpty();
                assertThat(full.cache().table("Load_Balancer").rows().get(0).version()).isPresent();

                nbctl.run("lb-add", "web", "10.0.0.2:80", "10.1.0.2:80");
                nbctl.run("set", "Load_Balancer", "web", "external_ids:k=v");
                Await.until(WAIT, "the lean cache follows the changes", () -> {
                    Row r = lean.cache().table("Load_Balancer").rows().get(0);
                    return r.get("external_ids").equals(Map.of("k", "v"))
                            && ((Map<?, ?>) r.get("vips")).keySet().equals(java.util.Set.of("10.0.0.1:80", "10.0.0.2:80"));
                });
                assertThat(lean.cache().table("Load_Balancer").rows().get(0).version()).isEmpty();
                assertThat(lean.stats().lastSyncBytes()).isLessThan(full.stats().lastSyncBytes());
            }
        }
    }
}
