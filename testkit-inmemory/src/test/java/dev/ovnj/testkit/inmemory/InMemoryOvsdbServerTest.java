package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.TestkitException;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the in-memory server does beyond what the differential test can compare with a
 * standalone ovsdb-server: waits that block, locks, resuming monitors from history, the
 * {@code _Server} database, unix sockets and the fault hooks. No OVS binaries are needed.
 */
@OvsdbTest(inMemory = true)
class InMemoryOvsdbServerTest {
    private static ArrayNode params(String json) {
        try {
            return (ArrayNode) RawClient.JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String INSERT_X = "[\"OVN_Northbound\",{\"op\":\"insert\",\"table\":\"Load_Balancer\","
            + "\"row\":{\"name\":\"x\"}}]";

    @Test
    void waitBlocksUntilAnotherClientCommitsThenSucceeds() throws Exception {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            CompletableFuture<RawClient.Exchange> waiting = CompletableFuture.supplyAsync(() -> a.call("transact",
                    params("[\"OVN_Northbound\",{\"op\":\"wait\",\"table\":\"Load_Balancer\",\"timeout\":10000,"
                            + "\"where\":[[\"name\",\"==\",\"x\"]],\"columns\":[\"name\"],\"until\":\"==\","
                            + "\"rows\":[{\"name\":\"x\"}]},{\"op\":\"select\",\"table\":\"Load_Balancer\",\"where\":[],"
                            + "\"columns\":[\"name\"]}]")));
            Thread.sleep(300);
            assertThat(waiting).isNotDone();
            b.call("transact", params(INSERT_X));
            JsonNode reply = waiting.get(10, TimeUnit.SECONDS).reply();
            assertThat(reply.get("result").toString()).isEqualTo("[{},{\"rows\":[{\"name\":\"x\"}]}]");
        }
    }

    @Test
    void waitThatStaysUnsatisfiedTimesOutWithOvsdbServersError() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port())) {
            long start = System.nanoTime();
            JsonNode reply = a.call("transact", params("[\"OVN_Northbound\",{\"op\":\"wait\",\"table\":\"Load_Balancer\","
                    + "\"timeout\":300,\"where\":[],\"until\":\"==\",\"rows\":[{\"name\":\"never\"}]}]")).reply();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
            JsonNode error = reply.get("result").get(0);
            assertThat(error.get("error").asText()).isEqualTo("timed out");
            assertThat(error.get("details").asText()).matches("\"wait\" timed out after \\d+ ms");
        }
    }

    @Test
    void locksAreGrantedInTurnStolenAndHandedOn() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            assertThat(a.call("lock", params("[\"leader\"]")).reply().get("result").toString()).isEqualTo("{\"locked\":true}");
            assertThat(b.call("lock", params("[\"leader\"]")).reply().get("result").toString()).isEqualTo("{\"locked\":false}");
            String assertOp = "[\"OVN_Northbound\",{\"op\":\"assert\",\"lock\":\"leader\"}]";
            assertThat(a.call("transact", params(assertOp)).reply().get("result").toString()).isEqualTo("[{}]");
            assertThat(b.call("transact", params(assertOp)).reply().get("result").get(0).get("error").asText())
                    .isEqualTo("not owner");
            assertThat(b.call("lock", params("[\"leader\"]")).reply().get("error").get("details").asText())
                    .isEqualTo("must issue \"unlock\" before new \"lock\"");
            b.call("unlock", params("[\"leader\"]"));
            assertThat(b.call("steal", params("[\"leader\"]")).reply().get("result").toString()).isEqualTo("{\"locked\":true}");
            assertThat(a.call("echo", params("[]")).notifications().toString()).contains("\"method\":\"stolen\"",
                    "[\"leader\"]");
            b.call("unlock", params("[\"leader\"]"));
            assertThat(a.call("echo", params("[]")).notifications().toString()).contains("\"method\":\"locked\"");
        }
    }

    @Test
    void monitorCondSinceResumesFromTheLastTransactionSeen() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start()) {
            String request = "{\"Load_Balancer\":[{\"columns\":[\"name\"]}]}";
            String lastId;
            try (RawClient a = new RawClient(server.port())) {
                JsonNode first = a.call("monitor_cond_since", params("[\"OVN_Northbound\",\"m\"," + request
                        + ",\"00000000-0000-0000-0000-000000000000\"]")).reply().get("result");
                assertThat(first.get(0).asBoolean()).isFalse();
                RawClient.Exchange insert = a.call("transact", params(INSERT_X));
                JsonNode update3 = insert.notifications().get(0);
                assertThat(update3.get("method").asText()).isEqualTo("update3");
                lastId = update3.get("params").get(1).asText();
            }
            try (RawClient other = new RawClient(server.port())) {
                other.call("transact", params(INSERT_X.replace("\"x\"", "\"y\"")));
            }
            try (RawClient b = new RawClient(server.port())) {
                JsonNode resumed = b.call("monitor_cond_since", params("[\"OVN_Northbound\",\"m\"," + request + ",\""
                        + lastId + "\"]")).reply().get("result");
                assertThat(resumed.get(0).asBoolean()).isTrue();
                assertThat(resumed.get(2).toString()).contains("{\"insert\":{\"name\":\"y\"}}").doesNotContain("\"x\"");
            }
        }
    }

    @Test
    void serverDatabaseDescribesAStandaloneLeaderOrAFollower() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port())) {
            assertThat(a.call("list_dbs", params("[]")).reply().get("result").toString())
                    .isEqualTo("[\"OVN_Northbound\",\"_Server\"]");
            RawClient.Exchange initial = a.call("monitor_cond", params("[\"_Server\",\"s\",{\"Database\":[{\"columns\":"
                    + "[\"name\",\"model\",\"leader\",\"connected\",\"cid\",\"index\"]}]}]"));
            assertThat(initial.reply().get("result").toString()).contains("\"name\":\"OVN_Northbound\"",
                    "\"model\":\"standalone\"", "\"leader\":true", "\"connected\":true");
            server.follower(true);
            String update = a.call("echo", params("[]")).notifications().toString();
            assertThat(update).contains("update2", "\"model\":\"clustered\"", "\"leader\":false", "\"index\":1", "\"cid\"");
            JsonNode write = a.call("transact", params("[\"_Server\",{\"op\":\"delete\",\"table\":\"Database\","
                    + "\"where\":[]}]")).reply().get("result").get(0);
            assertThat(write.get("details").asText())
                    .isEqualTo("delete operation not allowed on table in reserved database _Server");
        }
    }

    @Test
    void readOnlyRefusesWritesWithOvsdbServersNotAllowedError() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port())) {
            server.readOnly(true);
            JsonNode result = a.call("transact", params(INSERT_X)).reply().get("result");
            assertThat(result.get(0).get("error").asText()).isEqualTo("not allowed");
            assertThat(result.get(0).get("details").asText())
                    .isEqualTo("insert operation not allowed when database server is in read only mode");
            assertThat(a.call("transact", params("[\"OVN_Northbound\",{\"op\":\"select\",\"table\":\"Load_Balancer\","
                    + "\"where\":[]}]")).reply().get("result").toString()).isEqualTo("[{\"rows\":[]}]");
            assertThat(a.call("lock", params("[\"l\"]")).reply().get("error").asText())
                    .isEqualTo("lock and unlock methods not allowed, DB server is read only.");
            server.readOnly(false);
            assertThat(a.call("transact", params(INSERT_X)).reply().get("result").get(0).has("uuid")).isTrue();
        }
    }

    @Test
    void delayedRepliesAndDroppedConnections() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient a = new RawClient(server.port())) {
            server.delay(Duration.ofMillis(400));
            long start = System.nanoTime();
            assertThat(a.call("echo", params("[\"ping\"]")).reply().get("result").toString()).isEqualTo("[\"ping\"]");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
            server.delay(Duration.ZERO);
            server.dropConnections();
            assertThatThrownBy(() -> a.call("echo", params("[]"))).isInstanceOf(RuntimeException.class);
            try (RawClient b = new RawClient(server.port())) {
                assertThat(b.call("echo", params("[1]")).reply().get("result").toString()).isEqualTo("[1]");
            }
        }
    }

    @Test
    void silentClientsAreProbedWithEchoThenDropped() throws Exception {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.builder().inactivityProbe(Duration.ofMillis(300)).start();
                java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            java.io.InputStream in = socket.getInputStream();
            StringBuilder received = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                received.append((char) c);
            }
            // The read ended: the server closed the connection after its unanswered probe.
            assertThat(RawClient.JSON.readTree(received.toString()))
                    .isEqualTo(RawClient.JSON.readTree("{\"id\":\"echo\",\"method\":\"echo\",\"params\":[]}"));
        }
    }

    @Test
    void oneConnectionCanBeDelayedOrDroppedAlone() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start(); RawClient slow = new RawClient(server.port())) {
            slow.call("echo", params("[]"));
            try (RawClient other = new RawClient(server.port())) {
                other.call("echo", params("[]"));
                assertThat(server.connections()).hasSize(2);
                ClientConnection first = server.connections().get(0);
                first.delay(Duration.ofMillis(400));
                long start = System.nanoTime();
                other.call("echo", params("[]"));
                assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(400));
                start = System.nanoTime();
                slow.call("echo", params("[]"));
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
                first.drop();
                assertThatThrownBy(() -> slow.call("echo", params("[]"))).isInstanceOf(RuntimeException.class);
                assertThat(other.call("echo", params("[2]")).reply().get("result").toString()).isEqualTo("[2]");
            }
        }
    }

    @Test
    void stopKeepsDataForRestartOnTheSamePort() {
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.start()) {
            int port = server.port();
            try (RawClient a = new RawClient(port)) {
                a.call("transact", params(INSERT_X));
            }
            server.stop();
            assertThat(server.isRunning()).isFalse();
            server.restart();
            assertThat(server.port()).isEqualTo(port);
            try (RawClient b = new RawClient(port)) {
                assertThat(b.call("transact", params("[\"OVN_Northbound\",{\"op\":\"select\",\"table\":\"Load_Balancer\","
                        + "\"where\":[],\"columns\":[\"name\"]}]")).reply().get("result").toString())
                        .isEqualTo("[{\"rows\":[{\"name\":\"x\"}]}]");
            }
        }
    }

    @Test
    void unixSocketServesTheSameDatabase() throws Exception {
        Path dir = Files.createTempDirectory("ovnj-inmem-test");
        Path socket = dir.resolve("db.sock");
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.builder().unixSocket(socket).start();
                SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            assertThat(server.unixRemote()).contains("unix:" + socket);
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap("{\"id\":1,\"method\":\"list_dbs\",\"params\":[]}".getBytes(StandardCharsets.UTF_8)));
            ByteBuffer buf = ByteBuffer.allocate(4096);
            StringBuilder reply = new StringBuilder();
            while (!reply.toString().contains("}")) {
                ch.read(buf);
                buf.flip();
                reply.append(StandardCharsets.UTF_8.decode(buf));
                buf.clear();
            }
            assertThat(reply.toString()).contains("\"OVN_Northbound\"", "\"_Server\"");
        } finally {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void anySchemaCanBeServed() {
        String schema = "{\"name\":\"Tiny\",\"version\":\"1.0.0\",\"tables\":{\"T\":{\"columns\":{\"n\":{\"type\":"
                + "{\"key\":{\"type\":\"integer\",\"maxInteger\":10}}}},\"isRoot\":true,\"maxRows\":1}}}";
        try (InMemoryOvsdbServer server = InMemoryOvsdbServer.builder().schemaJson(schema).start();
                RawClient a = new RawClient(server.port())) {
            assertThat(a.call("get_schema", params("[\"Tiny\"]")).reply().get("result").get("name").asText()).isEqualTo("Tiny");
            JsonNode r = a.call("transact", params("[\"Tiny\",{\"op\":\"insert\",\"table\":\"T\",\"row\":{\"n\":11}}]"))
                    .reply().get("result");
            assertThat(r.get(0).get("details").asText()).isEqualTo("11 is greater than maximum allowed value 10");
            r = a.call("transact", params("[\"Tiny\",{\"op\":\"insert\",\"table\":\"T\",\"row\":{\"n\":1}},"
                    + "{\"op\":\"insert\",\"table\":\"T\",\"row\":{\"n\":2}}]")).reply().get("result");
            assertThat(r.get(2).get("details").asText())
                    .isEqualTo("transaction causes \"T\" table to contain 2 rows, greater than the schema-defined limit of 1 row(s)");
            assertThat(a.call("get_schema", params("[\"Nope\"]")).reply().get("error").get("error").asText())
                    .isEqualTo("unknown database");
        }
    }

    @Test
    void ovsdbTestInjectsAnInMemoryServerBehindTheProcessApi(OvsdbServer server) {
        assertThatThrownBy(server::pid).isInstanceOf(TestkitException.class).hasMessageContaining("in-memory");
        assertThat(server.databaseName()).isEqualTo("OVN_Northbound");
        try (RawClient a = new RawClient(server.port())) {
            assertThat(a.call("list_dbs", params("[]")).reply().get("result").toString()).contains("OVN_Northbound");
        }
        server.pause();
        server.resume();
        server.restart();
        try (RawClient a = new RawClient(server.port())) {
            assertThat(a.call("echo", params("[]")).reply().get("result").toString()).isEqualTo("[]");
        }
    }
}
