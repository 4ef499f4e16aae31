package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.InactivityTimeoutException;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InactivityProbeTest {

    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final long CONFIRM_MILLIS = 100;

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicInteger echoes = new AtomicInteger();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private EmbeddedChannel ch;

    @BeforeEach
    void openChannel() {
        ch = new EmbeddedChannel();
        ch.freezeTime();
    }

    private InactivityProbe install(Duration interval) {
        InactivityProbe probe = new InactivityProbe(interval, echoes::incrementAndGet, busy::get, nanos::get);
        ch.pipeline().addLast(probe);
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        return probe;
    }

    private void advanceMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
    }

    /** Time passes while the event loop runs nothing: a busy loop, a collection, a starved process. */
    private void stallMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
    }

    private void receive(String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    @Test
    void sendsEchoAfterOneIntervalOfSilence() {
        install(INTERVAL);
        advanceMillis(4999);
        assertThat(echoes).hasValue(0);
        advanceMillis(1);
        assertThat(echoes).hasValue(1);
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void readsPostponeTheEcho() {
        install(INTERVAL);
        advanceMillis(4000);
        receive("x");
        advanceMillis(4000);
        assertThat(echoes).hasValue(0);
        advanceMillis(1000);
        assertThat(echoes).hasValue(1);
    }

    @Test
    void closesAfterTwoIntervalsOfSilenceAndTheConfirmingLook() {
        install(INTERVAL);
        advanceMillis(5000);
        advanceMillis(4999);
        assertThat(ch.isOpen()).isTrue();
        advanceMillis(1);
        // Due, but not before the loop has had its chance to read (see the stall tests below).
        assertThat(ch.isOpen()).isTrue();
        advanceMillis(CONFIRM_MILLIS);

        assertThat(ch.isOpen()).isFalse();
        assertThat(echoes).hasValue(1);
        assertThat(errors).singleElement().isInstanceOf(InactivityTimeoutException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .matches("no data from .+ for 10100 ms \\(inactivity probe 5000 ms\\)"));
    }

    /**
     * The answer came 2 ms after the echo and the next timer ran 5 ms late, so that the silence
     * since the answer already exceeded an interval: that is a new silence, which needs a new
     * echo, not the old echo still unanswered (ovnj doctor lost its idle Northbound connection
     * this way on a loaded machine, over unix sockets, where the server sends no probes of its own).
     */
    @Test
    void quickAnswerAndALateTimerSendTheNextEchoInsteadOfClosing() {
        install(INTERVAL);
        advanceMillis(5000);
        assertThat(echoes).hasValue(1);
        advanceMillis(2);
        receive("{\"id\":1,\"result\":[],\"error\":null}");
        stallMillis(5003);
        ch.runScheduledPendingTasks();
        assertThat(echoes).hasValue(2);
        advanceMillis(2);
        receive("{\"id\":2,\"result\":[],\"error\":null}");
        advanceMillis(5100);

        assertThat(ch.isOpen()).isTrue();
        assertThat(echoes).hasValue(3);
        assertThat(errors).isEmpty();
    }

    /**
     * The event loop (or the JVM) stood still for longer than two intervals right after the echo
     * went out, and the answer arrived meanwhile: the timer that was due runs first when the loop
     * resumes, before the read. The client's own stall is not the server's silence.
     */
    @Test
    void stallOfTheLoopWithTheAnswerWaitingDoesNotClose() {
        install(INTERVAL);
        advanceMillis(5000);
        assertThat(echoes).hasValue(1);
        stallMillis(12_000);
        // The resumed loop runs the overdue timer before reading the socket.
        ch.runScheduledPendingTasks();
        assertThat(ch.isOpen()).isTrue();
        receive("{\"id\":1,\"result\":[],\"error\":null}");
        advanceMillis(CONFIRM_MILLIS);

        assertThat(ch.isOpen()).isTrue();
        assertThat(errors).isEmpty();
        // Rearmed from the answer, read 100 ms ago.
        advanceMillis(4899);
        assertThat(echoes).hasValue(1);
        advanceMillis(1);
        assertThat(echoes).hasValue(2);
    }

    /** The same stall with nothing waiting: the peer is silent indeed, and the probe closes right after the look. */
    @Test
    void stallOfTheLoopWithNothingWaitingCloses() {
        install(INTERVAL);
        advanceMillis(5000);
        stallMillis(12_000);
        ch.runScheduledPendingTasks();
        assertThat(ch.isOpen()).isTrue();
        advanceMillis(CONFIRM_MILLIS);

        assertThat(ch.isOpen()).isFalse();
        assertThat(errors).singleElement().isInstanceOf(InactivityTimeoutException.class);
    }

    /** An echo that went out late (its timer was held up) still gets a whole interval to be answered. */
    @Test
    void lateEchoGetsAWholeIntervalFromWhenItWasSent() {
        install(INTERVAL);
        stallMillis(9000);
        ch.runScheduledPendingTasks();
        assertThat(echoes).hasValue(1);
        advanceMillis(4999);
        advanceMillis(CONFIRM_MILLIS);
        assertThat(ch.isOpen()).isTrue();
        receive("{\"id\":1,\"result\":[],\"error\":null}");
        advanceMillis(4999);
        assertThat(ch.isOpen()).isTrue();
        assertThat(errors).isEmpty();
    }

    @Test
    void answerToTheEchoKeepsTheConnectionAndRearmsTheProbe() {
        install(INTERVAL);
        advanceMillis(5000);
        assertThat(echoes).hasValue(1);
        advanceMillis(1000);
        receive("{\"id\":1,\"result\":[],\"error\":null}");
        advanceMillis(4000);
        assertThat(ch.isOpen()).isTrue();
        assertThat(echoes).hasValue(1);
        advanceMillis(1000);
        assertThat(echoes).hasValue(2);
        assertThat(errors).isEmpty();
    }

    @Test
    void trickleOfAPartialMessageKeepsTheConnectionAlive() {
        InactivityProbe probe = install(INTERVAL);
        List<JsonNode> decoded = new CopyOnWriteArrayList<>();
        ch.pipeline().addAfter(ch.pipeline().context(probe).name(), "decoder", new JsonFrameDecoder(FrameLimits.defaults()));
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                decoded.add((JsonNode) msg);
            }
        });

        receive("{\"id\":1,\"result\":\"");
        for (int i = 0; i < 20; i++) {
            advanceMillis(4000);
            receive("x".repeat(1000));
        }
        assertThat(decoded).isEmpty();
        assertThat(echoes).hasValue(0);
        assertThat(ch.isOpen()).isTrue();

        receive("\",\"error\":null}");
        assertThat(decoded).singleElement().satisfies(n -> assertThat(n.get("result").asText()).hasSize(20_000));
        assertThat(probe.bytesReceived()).isEqualTo(18 + 20_000 + 15);
    }

    /** A server composing the dump this client asked for answers nothing for a while: no close until the request is over. */
    @Test
    void silenceWhileTheServerComposesOurDumpDoesNotClose() {
        install(INTERVAL);
        busy.set(true);
        for (int i = 0; i < 8; i++) {
            advanceMillis(5000);
        }
        assertThat(ch.isOpen()).isTrue();
        assertThat(echoes.get()).isGreaterThanOrEqualTo(3);

        // The request ended (its timeout, say) and the server is still silent: closed within two intervals.
        busy.set(false);
        advanceMillis(5000);
        advanceMillis(5000);
        advanceMillis(CONFIRM_MILLIS);
        assertThat(ch.isOpen()).isFalse();
        assertThat(errors).singleElement().isInstanceOf(InactivityTimeoutException.class);
    }

    @Test
    void zeroIntervalDisablesTheProbe() {
        InactivityProbe probe = install(Duration.ZERO);
        advanceMillis(TimeUnit.HOURS.toMillis(1));
        assertThat(echoes).hasValue(0);
        assertThat(ch.isOpen()).isTrue();
        receive("abc");
        assertThat(probe.bytesReceived()).isEqualTo(3);
    }
}
