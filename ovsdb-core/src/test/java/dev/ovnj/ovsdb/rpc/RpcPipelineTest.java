package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.InactivityTimeoutException;
import dev.ovnj.ovsdb.wire.FrameTooLargeException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RpcPipelineTest {

    private final AtomicLong nanos = new AtomicLong();
    private final RpcConnection conn = new RpcConnection(Runnable::run, n -> { });

    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void releaseUnread() {
        channels.forEach(WireChannel::release);
    }

    private EmbeddedChannel channel(FrameLimits limits, Duration probe) {
        EmbeddedChannel ch = new EmbeddedChannel();
        channels.add(ch);
        ch.freezeTime();
        RpcPipeline.configure(ch.pipeline(), limits, probe, conn, nanos::get);
        return ch;
    }

    private static void receive(EmbeddedChannel ch, String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    private static String sent(EmbeddedChannel ch) {
        ByteBuf out = ch.readOutbound();
        try {
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }

    @Test
    void installsHandlersInOrder() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ZERO);
        assertThat(ch.pipeline().names()).startsWith(RpcPipeline.PROBE, RpcPipeline.FRAME_DECODER,
                RpcPipeline.MESSAGE_DECODER, RpcPipeline.MESSAGE_ENCODER, RpcPipeline.CONNECTION);
    }

    @Test
    void callRoundTripsOverBytes() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ZERO);
        CompletableFuture<JsonNode> dbs = conn.call("list_dbs", JsonNodeFactory.instance.arrayNode(), Duration.ZERO);
        assertThat(sent(ch)).isEqualTo("{\"method\":\"list_dbs\",\"params\":[],\"id\":1}");

        String first = "{\"id\":1,\"result\":[\"OVN_North";
        String second = "bound\"],\"error\":null}{\"id\":\"echo\",\"method\":\"echo\",\"params\":[]}";
        receive(ch, first);
        assertThat(dbs).isNotDone();
        receive(ch, second);
        assertThat(dbs.join().get(0).asText()).isEqualTo("OVN_Northbound");
        assertThat(sent(ch)).isEqualTo("{\"id\":\"echo\",\"result\":[],\"error\":null}");
        assertThat(ch.pipeline().get(InactivityProbe.class).bytesReceived()).isEqualTo(first.length() + second.length());
    }

    @Test
    void frameErrorClosesTheConnectionWithThatCause() {
        EmbeddedChannel ch = channel(new FrameLimits(64, 8), Duration.ZERO);
        CompletableFuture<JsonNode> call = conn.call("list_dbs", JsonNodeFactory.instance.arrayNode(), Duration.ZERO);
        receive(ch, "{\"id\":1,\"result\":\"" + "x".repeat(100));
        assertThat(ch.isOpen()).isFalse();
        assertThat(conn.closeFuture().join()).isInstanceOf(FrameTooLargeException.class);
        assertThat(call).isCompletedExceptionally();
    }

    @Test
    void probeSendsEchoThroughTheConnectionAndSilenceClosesIt() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ofSeconds(5));
        advance(ch, 5000);
        assertThat(sent(ch)).isEqualTo("{\"method\":\"echo\",\"params\":[],\"id\":1}");
        assertThat(conn.pendingRequests()).isEqualTo(1);

        advance(ch, 5000);
        // One more look after the loop's next read (InactivityProbe), a tenth of the interval at most 100 ms later.
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 100);
        assertThat(ch.isOpen()).isFalse();
        assertThat(conn.closeFuture().join()).isInstanceOf(InactivityTimeoutException.class)
                .hasMessageContaining("for 10100 ms (inactivity probe 5000 ms)");
        assertThat(conn.pendingRequests()).isZero();
    }

    @Test
    void echoReplyKeepsTheConnectionOpen() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ofSeconds(5));
        advance(ch, 5000);
        sent(ch);
        advance(ch, 1000);
        receive(ch, "{\"id\":1,\"result\":[],\"error\":null}");
        advance(ch, 4500);
        assertThat(ch.isOpen()).isTrue();
        assertThat(conn.pendingRequests()).isZero();
        assertThat(conn.unmatchedResponses()).isZero();
    }

    /**
     * ovsdb-server sends nothing while it composes a monitor's initial reply: a pending dump
     * request spares the probe, and its own timeout (30 s here) ends the wait on a dead server.
     */
    @Test
    void pendingDumpRequestSparesTheProbeUntilItsTimeout() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ofSeconds(5));
        CompletableFuture<JsonNode> dump = conn.call("monitor_cond_since", JsonNodeFactory.instance.arrayNode().add("OVN_Southbound"),
                Duration.ofSeconds(30));
        for (int i = 0; i < 5; i++) {
            advance(ch, 5000);
        }
        assertThat(ch.isOpen()).isTrue();
        assertThat(dump).isNotDone();

        advance(ch, 5000);
        assertThat(dump).isCompletedExceptionally();
        // The dump is over: the server gets the usual two intervals, plus the confirming look.
        advance(ch, 5000);
        advance(ch, 5000);
        advance(ch, 100);
        assertThat(ch.isOpen()).isFalse();
        assertThat(conn.closeFuture().join()).isInstanceOf(InactivityTimeoutException.class);
    }

    @Test
    void otherPendingRequestsDoNotSpareTheProbe() {
        EmbeddedChannel ch = channel(FrameLimits.defaults(), Duration.ofSeconds(5));
        CompletableFuture<JsonNode> tx = conn.call("transact", JsonNodeFactory.instance.arrayNode(), Duration.ofSeconds(30));
        // The handshake's monitor of _Server is a few rows: not a dump.
        CompletableFuture<JsonNode> server = conn.call("monitor_cond", JsonNodeFactory.instance.arrayNode().add("_Server"),
                Duration.ofSeconds(30));
        advance(ch, 5000);
        advance(ch, 5000);
        advance(ch, 100);
        assertThat(ch.isOpen()).isFalse();
        assertThat(tx).isCompletedExceptionally();
        assertThat(server).isCompletedExceptionally();
    }

    private void advance(EmbeddedChannel ch, long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
    }
}
