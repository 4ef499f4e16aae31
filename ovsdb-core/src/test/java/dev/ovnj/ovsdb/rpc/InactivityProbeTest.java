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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InactivityProbeTest {

    private static final Duration INTERVAL = Duration.ofSeconds(5);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicInteger echoes = new AtomicInteger();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private EmbeddedChannel ch;

    @BeforeEach
    void openChannel() {
        ch = new EmbeddedChannel();
        ch.freezeTime();
    }

    private InactivityProbe install(Duration interval) {
        InactivityProbe probe = new InactivityProbe(interval, echoes::incrementAndGet, nanos::get);
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
    void closesAfterTwoIntervalsOfSilence() {
        install(INTERVAL);
        advanceMillis(5000);
        advanceMillis(4999);
        assertThat(ch.isOpen()).isTrue();
        advanceMillis(1);

        assertThat(ch.isOpen()).isFalse();
        assertThat(echoes).hasValue(1);
        assertThat(errors).singleElement().isInstanceOf(InactivityTimeoutException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .matches("no data from .+ for 10000 ms \\(inactivity probe 5000 ms\\)"));
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
