package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server (or client) that refuses a spec fails
 * that spec at once, in the server's words, and nobody else waits for it.
 */
class ServerRejectionIT {
    @TempDir
    Path dir;

    /** A backup (read-only) server following {@code primary}, as ovsdb-server's active/backup replication runs it. */
    static OvsdbServer backupOf(OvsdbServer primary) {
        return OvsdbServer.builder().extraArgs("--sync-from=" + primary.remote()).start();
    }

    @Test
    void aReadOnlyDatabaseFailsEverySpecAtOnceWithTheServersError() throws Exception {
        try (OvsdbServer primary = OvsdbServer.start(); OvsdbServer backup = backupOf(primary)) {
            EngineFixture.seed(Nbctl.of(primary));
            Await.until(WAIT, "backup replicated the topology", () -> Nbctl.of(backup).run("lr-list").contains("shalb-dev"));
            OvsdbClient client = EngineFixture.client(backup.remote());
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                long t0 = System.nanoTime();
                ApplyResult r = engine.apply(OWNER, List.of(spec(0, 1), spec(1, 1), spec(2, 1))).get(3, TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
                assertThat(r.statuses().values()).hasSize(3).allSatisfy(s -> {
                    assertThat(s.state()).isEqualTo(SpecStatus.State.FAILED);
                    assertThat(s.writeError()).hasValueSatisfying(e -> assertThat(e.error()).isEqualTo("not allowed"));
                    assertThat(s.reason()).contains("not allowed");
                });
                assertThatThrownBy(() -> engine.upsert(OWNER, spec(3, 1), UpsertOption.KEEP_DECLARED).get(3, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SpecFailedException.class)
                        .hasMessageContaining("not allowed");
                assertThat(engine.status(OWNER).get("svc-3").state()).isEqualTo(SpecStatus.State.FAILED);
                long failures = engine.metrics().failures();
                Thread.sleep(1000);
                assertThat(engine.metrics().failures()).as("no retry storm against a read-only server").isEqualTo(failures);
                assertThat(engine.isAvailable()).isTrue();
            }
        }
    }

    /** The NB schema with one edit, for a server that differs from what the engine expects. */
    Path schema(Consumer<ObjectNode> edit) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode schema = (ObjectNode) json.readTree(Schemas.ovnNorthboundJson());
        edit.accept(schema);
        Path file = dir.resolve("edited.ovsschema");
        Files.writeString(file, json.writeValueAsString(schema));
        return file;
    }

    @Test
    void aSpecTheClientCannotEncodeFailsInsteadOfHanging() throws Exception {
        // An older server without Load_Balancer.selection_fields: the transaction cannot be built.
        Path old = schema(s -> ((ObjectNode) s.with("tables").with("Load_Balancer").with("columns")).remove("selection_fields"));
        try (OvsdbServer server = OvsdbServer.builder().schema(old).start(); OvsdbClient client = EngineFixture.client(server.remote());
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
            client.startAndWait(WAIT);
            LoadBalancerSpec lonely = LoadBalancerSpec.builder("lonely").tcp("192.0.2.10:80", "10.0.0.1:80").build();
            ApplyResult r = engine.apply(OWNER, List.of(lonely)).get(5, TimeUnit.SECONDS);
            SpecStatus s = r.statuses().get("lonely");
            assertThat(s.state()).isEqualTo(SpecStatus.State.FAILED);
            assertThat(s.reason()).contains("selection_fields");
            assertThat(engine.isAvailable()).isTrue();
        }
    }

    @Test
    void oneRejectedSpecDoesNotSlowTheOthers() throws Exception {
        // A server that refuses two load balancers with the same vips (an index the stock schema lacks).
        Path strict = schema(s -> s.with("tables").with("Load_Balancer").putArray("indexes").addArray().add("vips"));
        try (OvsdbServer server = OvsdbServer.builder().schema(strict).start();
             EngineFixture f = new EngineFixture(server, b -> b.retryBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)))) {
            f.nbctl.run("lb-add", "foreign", "192.0.2.1:80", "10.0.0.1:80");
            LoadBalancerSpec clash = LoadBalancerSpec.builder("clash").tcp("192.0.2.1:80", "10.0.0.1:80")
                    .options(LbOptions.DEFAULTS).build();
            CompletableFuture<ApplyResult> rejected = f.engine.upsert(OWNER, clash, UpsertOption.KEEP_DECLARED);
            assertThatThrownBy(() -> rejected.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(SpecFailedException.class)
                    .hasMessageContaining("constraint violation");
            SpecStatus s = f.engine.status(OWNER).get("clash");
            assertThat(s.state()).isEqualTo(SpecStatus.State.FAILED);
            assertThat(s.writeError()).hasValueSatisfying(e -> assertThat(e.error()).isEqualTo("constraint violation"));
            for (int i = 0; i < 10; i++) {
                long t0 = System.nanoTime();
                f.engine.upsert(OWNER, spec(i, 1)).get(5, TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("upsert " + i).isLessThan(Duration.ofSeconds(1));
            }
            assertThat(f.engine.metrics().failures()).as("the rejected spec is not retried in a loop").isLessThanOrEqualTo(2);
            assertThat(f.nbctl.run("--bare", "--columns=name", "find", "Load_Balancer", "name=foreign")).isEqualTo("foreign");
            assertThat(Set.copyOf(OwnedRows.rows(f.nbctl))).hasSize(10);
        }
    }
}
