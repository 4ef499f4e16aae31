package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.CacheTampering;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbRelay;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The periodic cache audit against a real ovsdb-server. */
class CacheAuditIT {

    private static OvsdbClient audited(OvsdbServer server, Duration period) {
        return audited(server.remote(), period);
    }

    private static OvsdbClient audited(String remotes, Duration period) {
        return OvsdbClient.builder().remotes(remotes).cacheAudit(period).build().startAndWait(WAIT);
    }

    private static UUID uuidOf(OvsdbClient client, String name) {
        return Clients.byName(client, "Logical_Switch", name).orElseThrow().uuid();
    }

    @Test
    void aCacheEditedBehindItsBackIsFoundWithinAPeriodAndHealedByAResync() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            for (String name : List.of("sw-a", "sw-b", "sw-c")) {
                nbctl.run("ls-add", name);
            }
            try (OvsdbClient client = audited(server, Duration.ofMillis(300))) {
                UUID a = uuidOf(client, "sw-a");
                UUID b = uuidOf(client, "sw-b");
                List<CacheEvent> corrections = new CopyOnWriteArrayList<>();
                client.cache().addListener(corrections::addAll);
                Await.until(WAIT, "a clean audit", () -> client.stats().cacheAudits() >= 1);
                assertThat(client.stats().cacheDivergences()).isZero();

                CacheTampering.corrupt(client.cache(), "Logical_Switch", a, "name", "garbled");
                CacheTampering.drop(client.cache(), "Logical_Switch", b);

                Await.until(WAIT, "the divergence found", () -> client.stats().cacheDivergences() == 1);
                Await.until(WAIT, "the cache resynced", () -> client.stats().fullSyncs() == 2 && client.isSynced());
                assertThat(client.cache().table("Logical_Switch").get(a).map(r -> r.get("name"))).contains("sw-a");
                assertThat(client.cache().table("Logical_Switch").get(b)).isPresent();
                assertThat(client.stats().resumedSyncs()).as("found=false: the cache was replaced, not resumed").isZero();
                // Listeners were told the corrections, and nothing else.
                assertThat(corrections).containsExactlyInAnyOrder(
                        new CacheEvent.Updated("Logical_Switch", corrupted(client, a), row(client, a)),
                        new CacheEvent.Inserted("Logical_Switch", row(client, b)));

                long audits = client.stats().cacheAudits();
                Await.until(WAIT, "more audits after the resync", () -> client.stats().cacheAudits() >= audits + 3);
                assertThat(client.stats().cacheDivergences()).as("the healed cache passes").isEqualTo(1);
            }
        }
    }

    private static Row row(OvsdbClient client, UUID uuid) {
        return client.cache().table("Logical_Switch").get(uuid).orElseThrow();
    }

    private static Row corrupted(OvsdbClient client, UUID uuid) {
        return row(client, uuid).with(Map.of("name", "garbled"));
    }

    /**
     * Many audits while another client writes as fast as it can: every comparison happens at the
     * point of the update stream where the server answered, so no difference is confirmed and at
     * most a few first audits (before their confirmation) see one; comparing off that point (on
     * the I/O thread, ahead of queued updates) made 12 of 100 first audits see one.
     */
    @Test
    void aBusyWriterCausesNoFalseDivergence() throws Exception {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient writer = Clients.connect(server.remote());
             OvsdbClient client = audited(server.remote(), Duration.ofMillis(10))) {
            auditWhileWriting(writer, client);
            assertThat(client.cacheAudit().suspicions()).as("first audits that saw a difference").isLessThanOrEqualTo(3);
            assertThat(client.stats().cacheDivergences()).isZero();
            assertThat(client.stats().connects()).as("no resync").isEqualTo(1);
        }
    }

    /**
     * Through a relay, which forwards the audit's select to its source: the answer may be newer
     * than the relay's replica, so a first audit may see a difference, but the confirming audit
     * must not turn it into a resync.
     */
    @Test
    void aBusyWriterBehindARelayCausesNoResync() throws Exception {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbRelay relay = OvsdbRelay.start(server);
             OvsdbClient writer = Clients.connect(server.remote());
             OvsdbClient client = audited(relay.remote(), Duration.ofMillis(10))) {
            auditWhileWriting(writer, client);
            assertThat(client.stats().cacheDivergences()).isZero();
            assertThat(client.stats().connects()).as("no resync").isEqualTo(1);
        }
    }

    /** Writes as fast as 8 transactions in flight allow until the client has audited 100 times. */
    private static void auditWhileWriting(OvsdbClient writer, OvsdbClient client) throws Exception {
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        int written = 0;
        while (client.stats().cacheAudits() < 100) {
            String name = "busy-" + written;
            inFlight.add(writer.transact(writer.transaction()
                    .add(Operations.insert("Logical_Switch").value("name", name))
                    .add(Operations.update("Logical_Switch").where(Condition.eq("name", "busy-" + (written - 1)))
                            .set("other_config", Map.of("n", String.valueOf(written))))
                    .add(Operations.delete("Logical_Switch").where(Condition.eq("name", "busy-" + (written - 20))))
                    .build()));
            written++;
            if (inFlight.size() >= 8) {
                inFlight.remove(0).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
            assertThat(written).as("writes before 100 audits").isLessThan(1_000_000);
        }
        for (CompletableFuture<?> f : inFlight) {
            f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }

        assertThat(written).as("writes during the audits").isGreaterThan(100);
    }

    /** The audit monitors what the main monitor does: its clauses (a disjunction) and only its columns. */
    @Test
    void aConditionalMonitorIsComparedClauseByClause() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            for (String name : List.of("sw-a", "sw-b", "sw-c")) {
                nbctl.run("ls-add", name);
            }
            MonitorRequest request = MonitorRequest.of(TableMonitor.all("Logical_Switch").columns("name", "other_config")
                    .where(Condition.eq("name", "sw-a"), Condition.eq("name", "sw-b")));
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(request)
                    .cacheAudit(Duration.ofMillis(20)).build().startAndWait(WAIT)) {
                assertThat(client.cache().table("Logical_Switch").rows()).extracting(r -> r.get("name"))
                        .containsExactlyInAnyOrder("sw-a", "sw-b");
                // A change to a column the client does not monitor is no divergence.
                nbctl.run("set", "Logical_Switch", "sw-a", "external_ids:x=y");
                Await.until(WAIT, "audits", () -> client.stats().cacheAudits() >= 10);
                assertThat(client.cacheAudit().suspicions()).as("first audits that saw a difference").isZero();

                CacheTampering.drop(client.cache(), "Logical_Switch", uuidOf(client, "sw-b"));
                Await.until(WAIT, "the dropped row found", () -> client.stats().cacheDivergences() == 1);
                Await.until(WAIT, "the row back", () -> Clients.byName(client, "Logical_Switch", "sw-b").isPresent());
            }
        }
    }

    /**
     * After a leadership transfer the client resumes on the new leader with
     * {@code monitor_cond_since} (the cache keeps its rows and its schema object): the audits
     * carry on there and find the resumed cache equal.
     */
    @Test
    void auditsCarryOnAfterAResumedSyncOnTheNewLeader() {
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            for (int i = 0; i < 20; i++) {
                nbctl.run("ls-add", "before-" + i);
            }
            try (OvsdbClient client = OvsdbClient.builder().remotes(cluster.remotes()).backoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                    .cacheAudit(Duration.ofMillis(50)).build().startAndWait(WAIT)) {
                int leader = cluster.awaitLeader();
                Await.until(WAIT, "audits on the first leader", () -> client.stats().cacheAudits() >= 3);

                cluster.member(leader).appctl("cluster/failure-test", "transfer-leadership");
                Await.until(WAIT, "resumed on the new leader", () -> client.stats().resumedSyncs() == 1 && client.isSynced());
                long audits = client.stats().cacheAudits();
                nbctl.run("ls-add", "after");
                Await.until(WAIT, "audits on the new leader", () -> client.stats().cacheAudits() >= audits + 3);

                assertThat(client.stats().cacheDivergences()).isZero();
                assertThat(client.stats().fullSyncs()).as("no resync").isEqualTo(1);
            }
        }
    }

    @Test
    void zeroDisablesTheAudit() throws Exception {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient client = audited(server, Duration.ZERO)) {
            Nbctl.of(server).run("ls-add", "sw-a");
            Clients.awaitRow(client, "Logical_Switch", "sw-a");
            CacheTampering.drop(client.cache(), "Logical_Switch", uuidOf(client, "sw-a"));
            // A clock-free check: a second client with a short period audits several times meanwhile.
            try (OvsdbClient other = audited(server, Duration.ofMillis(10))) {
                Await.until(WAIT, "audits of the other client", () -> other.stats().cacheAudits() >= 5);
            }
            assertThat(client.stats().cacheAudits()).isZero();
            assertThat(client.cache().table("Logical_Switch").size()).as("the tampered cache left as it is").isZero();
        }
    }
}
