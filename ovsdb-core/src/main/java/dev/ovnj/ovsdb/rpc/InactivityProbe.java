package dev.ovnj.ovsdb.rpc;

import dev.ovnj.ovsdb.InactivityTimeoutException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detects a dead peer the way OVSDB itself does: after one probe interval without receiving
 * anything it sends an {@code echo}, and if another interval passes in silence it closes the
 * channel with an {@link InactivityTimeoutException} as the cause.
 *
 * <p>It must sit first in the pipeline, before any decoder, so that every received byte counts
 * as a sign of life; a large message that takes longer than the interval to arrive then keeps
 * the connection alive. It also counts received bytes. All timing uses the channel's event loop.
 */
public final class InactivityProbe extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(InactivityProbe.class);

    private final long intervalNanos;
    private final Runnable echoSender;
    private final LongSupplier nanoClock;
    private long lastReadNanos;
    private boolean echoSent;
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
        this(interval, echoSender, System::nanoTime);
    }

    InactivityProbe(Duration interval, Runnable echoSender, LongSupplier nanoClock) {
        this.intervalNanos = Math.max(0, Objects.requireNonNull(interval, "interval").toNanos());
        this.echoSender = Objects.requireNonNull(echoSender, "echoSender");
        this.nanoClock = nanoClock;
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
        long silentNanos = nanoClock.getAsLong() - lastReadNanos;
        if (silentNanos < intervalNanos) {
            echoSent = false;
            schedule(ctx, intervalNanos - silentNanos);
        } else if (!echoSent) {
            echoSent = true;
            LOG.debug("no data from {} for {} ms, sending echo", ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(silentNanos));
            echoSender.run();
            schedule(ctx, intervalNanos);
        } else if (silentNanos < 2 * intervalNanos) {
            schedule(ctx, 2 * intervalNanos - silentNanos);
        } else {
            InactivityTimeoutException cause = new InactivityTimeoutException(ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toMillis(silentNanos), TimeUnit.NANOSECONDS.toMillis(intervalNanos));
            LOG.warn("closing connection: {}", cause.getMessage());
            ctx.fireExceptionCaught(cause);
            ctx.close();
        }
    }
}
