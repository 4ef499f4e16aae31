package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.TooManyPendingRequestsException;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.FrameTooDeepException;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.scripted.ScriptedConnection;
import dev.ovnj.testkit.scripted.ScriptedOvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The client's bounds on what a server can make it hold: defaults, and each limit tripping. */
class ClientLimitsIT {

    @Test
    void defaultsAreSafeAndDocumented() {
        try (OvsdbClient c = OvsdbClient.builder().remotes("tcp:127.0.0.1:1").build()) {
            assertThat(c.options().frameLimits()).isEqualTo(new FrameLimits(1024 * 1024 * 1024, 64));
            assertThat(c.options().maxPendingRequests()).isEqualTo(RpcConnection.DEFAULT_MAX_PENDING_REQUESTS).isEqualTo(10_000);
            assertThat(c.options().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(c.options().probeInterval()).isEqualTo(Duration.ofSeconds(5));
        }
    }

    @Test
    void requestsBeyondThePendingLimitFailFastAndTheConnectionStays() {
        HostileServerIT.FakeNorthbound fake = new HostileServerIT.FakeNorthbound() {
            @Override
            public void onMessage(ScriptedConnection c, JsonNode m) {
                if (!"never-answered".equals(m.path("method").asText())) {
                    super.onMessage(c, m);
                }
            }
        };
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake);
             OvsdbClient c = OvsdbClient.builder().remotes(server.remote()).maxPendingRequests(3).build()) {
            c.startAndWait(WAIT);
            List<CompletableFuture<JsonNode>> stuck = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                stuck.add(c.call("never-answered", JsonNodeFactory.instance.arrayNode()));
            }
            CompletableFuture<JsonNode> fourth = c.call("never-answered", JsonNodeFactory.instance.arrayNode());
            Await.until(WAIT, "fourth refused", fourth::isDone);
            assertThatThrownBy(fourth::join).hasCauseInstanceOf(TooManyPendingRequestsException.class);
            assertThat(stuck).noneMatch(CompletableFuture::isDone);
            assertThat(c.isSynced()).isTrue();
        }
    }

    @Test
    void messageNestedBeyondTheDepthLimitDropsTheConnectionAndTheClientResyncs() {
        HostileServerIT.FakeNorthbound fake = new HostileServerIT.FakeNorthbound();
        Clients.EventLog log = new Clients.EventLog();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake);
             OvsdbClient c = OvsdbClient.builder().remotes(server.remote()).frameLimits(FrameLimits.defaults().withMaxDepth(16))
                     .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).build()) {
            c.addConnectionListener(log);
            c.startAndWait(WAIT);
            fake.last.sendRaw("{\"id\":null,\"method\":\"update3\",\"params\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
            Await.until(WAIT, "depth limit tripped", () -> log.events.stream().anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED
                    && e.cause().filter(x -> x instanceof FrameTooDeepException).isPresent()));
            Await.until(WAIT, "resynced", () -> c.stats().connects() == 2 && c.isSynced());
        }
    }
}
