package dev.ovnj.ovsdb.rpc;

import dev.ovnj.ovsdb.InactivityTimeoutException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detects a dead peer the way OVSDB itself does: after one probe interval without receiving
 * anything it sends an {@code echo}, and if the echo then stays unanswered for another interval
 * it closes the channel with an {@link InactivityTimeoutException} as the cause.
 *
 * <p>It must sit first in the pipeline, before any decoder, so that every received byte counts
 * as a sign of life; a large message that takes longer than the interval to arrive then keeps
 * the connection alive. It also counts received bytes. All timing uses the channel's event loop.
 *
 * <p>A busy client must not take its own slowness for a dead server. Any byte received answers
 * the echo, however soon after it, so a timer that runs late sends a new echo rather than waiting
 * for an old one that was answered. The echo's interval counts from when the echo was actually
 * sent, not from when it was due; and the decision to close is confirmed by a second check a
 * moment later, so that the event loop gets to read first: when the loop (or the whole JVM, in a
 * collection, or the process, starved of CPU) stood still, a timer that was due meanwhile can run
 * before the bytes that arrived meanwhile are read, and the silence it sees is the client's own. A dead peer is still found within two intervals and
 * {@link #confirmDelay(long) a tenth of one} (at most 100 ms).
 *
 * <p>Nor is a server silent while it composes the reply to this client's own request for a
 * database dump: ovsdb-server builds a monitor's initial reply whole, answering nothing
 * meanwhile, which takes longer than an interval for a large Southbound. While such a request is
 * pending the probe keeps probing but does not close; the request's timeout bounds the wait.
 */
public final class InactivityProbe extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(InactivityProbe.class);

    private final long intervalNanos;
    private final Runnable echoSender;
    private final BooleanSupplier serverBusyForUs;
    private final LongSupplier nanoClock;
    private final long confirmNanos;
    private long lastReadNanos;
    private boolean echoSent;
    private long echoSentNanos;
    private boolean confirming;
    private ScheduledFuture<?> timer;
    // Written only by the event loop; volatile so that other threads can read it.
    private volatile long bytesReceived;

    /**
     * Creates a probe.
     *
     * @param interval   silence tolerated before probing; zero or negative disables probing
     * @param echoSender sends an {@code echo} request when the peer has been silent; it is run on
     *                   the event loop and must not block
     */
    public InactivityProbe(Duration interval, Runnable echoSender) {
        this(interval, echoSender, () -> false, System::nanoTime);
    }

    /**
     * Creates a probe that spares a server busy with this client's own request.
     *
     * @param interval        silence tolerated before probing; zero or negative disables probing
     * @param echoSender      sends an {@code echo} request when the peer has been silent; it is run
     *                        on the event loop and must not block
     * @param serverBusyForUs whether the peer is known to be working on a request of ours that it
     *                        answers nothing else during (a database dump: {@code RpcConnection.awaitingDump()});
     *                        silence then does not close, and that request's timeout bounds it. Run
     *                        on the event loop.
     */
    public InactivityProbe(Duration interval, Runnable echoSender, BooleanSupplier serverBusyForUs) {
        this(interval, echoSender, serverBusyForUs, System::nanoTime);
    }

    InactivityProbe(Duration interval, Runnable echoSender, BooleanSupplier serverBusyForUs, LongSupplier nanoClock) {
        this.intervalNanos = Math.max(0, Objects.requireNonNull(interval, "interval").toNanos());
        this.echoSender = Objects.requireNonNull(echoSender, "echoSender");
        this.serverBusyForUs = Objects.requireNonNull(serverBusyForUs, "serverBusyForUs");
        this.nanoClock = nanoClock;
        this.confirmNanos = confirmDelay(intervalNanos);
    }

    /**
     * How long a due close waits for one more look: long enough for the event loop to finish its
     * current tasks and read what has arrived, short against the interval.
     *
     * @param intervalNanos the probe interval
     * @return a tenth of the interval, at most 100 ms
     */
    static long confirmDelay(long intervalNanos) {
        return Math.min(intervalNanos / 10, TimeUnit.MILLISECONDS.toNanos(100));
    }

    /**
     * Returns the number of bytes received on the channel so far.
     *
     * @return the count, including bytes of messages not yet complete
     */
    public long bytesReceived() {
        return bytesReceived;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastReadNanos = nanoClock.getAsLong();
        // Any byte answers the echo. Without this, an answer that came within a few milliseconds
        // of the echo, followed by a timer that ran a few milliseconds late, looked like an echo
        // still unanswered: no new echo went out and the connection closed an interval later.
        echoSent = false;
        confirming = false;
        if (msg instanceof ByteBuf buf) {
            bytesReceived += buf.readableBytes();
        }
        ctx.fireChannelRead(msg);
    }

    private void start(ChannelHandlerContext ctx) {
        if (intervalNanos == 0 || timer != null) {
            return;
        }
        lastReadNanos = nanoClock.getAsLong();
        schedule(ctx, intervalNanos);
    }

    private void stop() {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        timer = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long now = nanoClock.getAsLong();
        long silentNanos = now - lastReadNanos;
        if (silentNanos < intervalNanos) {
            schedule(ctx, intervalNanos - silentNanos);
        } else if (!echoSent) {
            echoSent = true;
            LOG.debug("no data from {} for {} ms, sending echo", ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(silentNanos));
            echoSender.run();
            // After the send: the peer's interval to answer starts when the echo is out.
            echoSentNanos = nanoClock.getAsLong();
            schedule(ctx, intervalNanos);
        } else if (now - echoSentNanos < intervalNanos) {
            // Sent, and nothing received since.
            schedule(ctx, intervalNanos - (now - echoSentNanos));
        } else if (!confirming) {
            // The loop may have stood still with the answer waiting in the socket: this timer
            // then runs before the read. A second look after the loop's next read decides.
            confirming = true;
            LOG.debug("no answer from {} to the echo sent {} ms ago; confirming after the next read",
                    ctx.channel().remoteAddress(), TimeUnit.NANOSECONDS.toMillis(now - echoSentNanos));
            schedule(ctx, confirmNanos);
        } else if (serverBusyForUs.getAsBoolean()) {
            // ovsdb-server composes a dump whole before sending any of it, and answers no echo
            // meanwhile. Probe again an interval on; the dump request's own timeout bounds this.
            LOG.debug("no data from {} for {} ms while it composes a dump for us; waiting", ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(silentNanos));
            echoSent = false;
            confirming = false;
            schedule(ctx, intervalNanos);
        } else {
            InactivityTimeoutException cause = new InactivityTimeoutException(ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(silentNanos), TimeUnit.NANOSECONDS.toMillis(intervalNanos));
            LOG.warn("closing connection: {}", cause.getMessage());
            ctx.fireExceptionCaught(cause);
            ctx.close();
        }
    }
}
