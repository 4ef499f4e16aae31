package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import dev.ovnj.testkit.fault.FaultProxy;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine against one ovsdb-server that crashes, loses its database, or sits behind a bad network. */
class EngineFaultIT {

    /** Records transaction errors and availability changes. */
    static final class Observer implements EngineListener {
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final List<Boolean> availability = new CopyOnWriteArrayList<>();
        volatile long unavailableAt;

        @Override
        public void onTransaction(int operations, Duration latency, Throwable error) {
            if (error != null) {
                errors.add(error);
            }
        }

        @Override
        public void onAvailability(boolean available, String reason) {
            availability.add(available);
            if (!available) {
                unavailableAt = System.nanoTime();
            }
        }
    }

    private static void awaitAll(List<CompletableFuture<ApplyResult>> futures, int seconds) throws Exception {
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(seconds, TimeUnit.SECONDS);
    }

    @Test
    void serverKilledDuringABurstAndRestartedWithItsDatabaseAppliesEverythingExactlyOnce() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            Observer seen = new Observer();
            f.engine.addListener(seen);
            Map<Integer, LoadBalancerSpec> last = new LinkedHashMap<>();
            List<CompletableFuture<ApplyResult>> futures = new ArrayList<>();
            for (int n = 0; n < 300; n++) {
                if (n == 150) {
                    f.server.kill();
                }
                LoadBalancerSpec s = spec(n % 100, n);
                last.put(n % 100, s);
                futures.add(f.engine.upsert(OWNER, s));
                if (n % 20 == 0) {
                    Thread.sleep(3);
                }
            }
            Thread.sleep(300);
            f.server.restart();
            awaitAll(futures, 60);
            assertThat(OwnedRows.rows(f.nbctl)).as("every row once, at its last version").isEqualTo(OwnedRows.expected(last.values()));
            assertThat(OwnedRows.attachments(f.nbctl)).containsExactly(100, 100);
            assertThat(seen.errors).as("transactions cut by the crash fail as retriable")
                    .allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(OvsdbRpcException.class, r -> assertThat(r.retriable()).isTrue()));
            assertThat(f.engine.metrics().failures()).isZero();
        }
    }

    @Test
    void serverRestartedWithAnEmptyDatabaseGetsEveryRowAndAttachmentBackOnceTheTopologyReturns() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<LoadBalancerSpec> specs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                specs.add(spec(i, 1));
            }
            assertThat(f.engine.apply(OWNER, specs).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
            long connects = f.client.stats().connects();

            f.server.stop();
            Files.delete(f.server.databaseFile());
            Command.of("ovsdb-tool", "create", f.server.databaseFile().toString(),
                    Schemas.ovnNorthbound(f.server.directory()).toString()).check();
            f.server.restart();
            Await.until(WAIT, "resynced with the empty database", () -> f.client.stats().connects() > connects
                    && f.client.isSynced() && f.client.cache().table("Logical_Router").size() == 0);
            Await.until(WAIT, "specs wait for their router", () -> f.engine.status(OWNER).values().stream()
                    .allMatch(s -> s.state() == SpecStatus.State.WAITING));

            EngineFixture.seed(f.nbctl);
            Await.until(WAIT, "rows and attachments recreated", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(specs))
                    && OwnedRows.attachments(f.nbctl)[0] == 20 && OwnedRows.attachments(f.nbctl)[1] == 20);
            Await.until(WAIT, "nothing left to do", () -> f.engine.plan(OWNER, specs).isEmpty());
        }
    }

    @Test
    void twoHundredMillisecondsEachWayConvergesWithoutDuplicates() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); FaultProxy proxy = FaultProxy.to(server)) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient client = OvsdbClient.builder().remotes(proxy.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                proxy.latency(Duration.ofMillis(200));
                Map<Integer, LoadBalancerSpec> last = new LinkedHashMap<>();
                List<CompletableFuture<ApplyResult>> futures = new ArrayList<>();
                for (int n = 0; n < 60; n++) {
                    LoadBalancerSpec s = spec(n % 30, n);
                    last.put(n % 30, s);
                    futures.add(engine.upsert(OWNER, s));
                    Thread.sleep(10);
                }
                awaitAll(futures, 60);
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(last.values()));
                assertThat(OwnedRows.attachments(nbctl)).containsExactly(30, 30);
                assertThat(engine.metrics().failures()).isZero();
                assertThat(engine.metrics().retries()).as("latency alone is no error").isZero();
                assertThat(client.stats().connects()).as("200 ms is well inside the 5 s probe").isEqualTo(1);
            }
        }
    }

    @Test
    void partitionIsDetectedWithinTwoProbeIntervalsAndWritesResumeAfterHeal() throws Exception {
        Duration probe = Duration.ofMillis(500);
        try (OvsdbServer server = OvsdbServer.start(); FaultProxy proxy = FaultProxy.to(server)) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient client = OvsdbClient.builder().remotes(proxy.remote()).monitor(LoadBalancerEngine.monitorRequest())
                    .probeInterval(probe).backoff(Duration.ofMillis(50), Duration.ofMillis(500)).build();
            Observer seen = new Observer();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
                engine.addListener(seen);
                engine.start();
                client.startAndWait(WAIT);
                List<LoadBalancerSpec> specs = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    specs.add(spec(i, 1));
                }
                engine.apply(OWNER, specs).get(20, TimeUnit.SECONDS);

                long cut = System.nanoTime();
                proxy.blackhole();
                Await.until(WAIT, "engine unavailable", () -> !engine.isAvailable());
                long detectedMs = (seen.unavailableAt - cut) / 1_000_000;
                assertThat(detectedMs).as("detection time").isLessThanOrEqualTo(2 * probe.toMillis() + 400);

                List<CompletableFuture<ApplyResult>> during = new ArrayList<>();
                for (int i = 10; i < 20; i++) {
                    specs.add(spec(i, 1));
                    during.add(engine.upsert(OWNER, spec(i, 1)));
                }
                Thread.sleep(500);
                assertThat(during).as("nothing can be written during the partition").noneMatch(CompletableFuture::isDone);
                proxy.heal();
                awaitAll(during, 30);
                assertThat(OwnedRows.rows(nbctl)).isEqualTo(OwnedRows.expected(specs));
                assertThat(OwnedRows.attachments(nbctl)).containsExactly(20, 20);
                assertThat(seen.availability).containsSubsequence(true, false, true);
            }
        }
    }
}
