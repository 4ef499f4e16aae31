package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import io.netty.channel.ChannelPipeline;
import java.time.Duration;
import java.util.function.LongSupplier;

/** Assembles the handlers that speak OVSDB JSON-RPC over a byte stream. */
public final class RpcPipeline {

    /** Name of the {@link InactivityProbe} handler. */
    public static final String PROBE = "ovsdb-probe";
    /** Name of the {@link JsonFrameDecoder} handler. */
    public static final String FRAME_DECODER = "ovsdb-frame-decoder";
    /** Name of the {@link RpcMessageDecoder} handler. */
    public static final String MESSAGE_DECODER = "ovsdb-rpc-decoder";
    /** Name of the {@link RpcMessageEncoder} handler. */
    public static final String MESSAGE_ENCODER = "ovsdb-rpc-encoder";
    /** Name of the {@link RpcConnection} handler. */
    public static final String CONNECTION = "ovsdb-rpc";

    private RpcPipeline() {
    }

    /**
     * Appends probe, framing, JSON-RPC decoder and encoder, and connection to the pipeline, in that order.
     * Transport handlers such as TLS must already be in place before them.
     *
     * @param pipeline      the channel's pipeline
     * @param limits        bounds on incoming messages
     * @param probeInterval silence tolerated before an {@code echo} probe; zero or negative
     *                      disables the probe (bytes are still counted)
     * @param connection    the connection endpoint, new and used for this channel only
     */
    public static void configure(ChannelPipeline pipeline, FrameLimits limits, Duration probeInterval,
                                 RpcConnection connection) {
        configure(pipeline, limits, probeInterval, connection, System::nanoTime);
    }

    static void configure(ChannelPipeline pipeline, FrameLimits limits, Duration probeInterval,
                          RpcConnection connection, LongSupplier nanoClock) {
        // The echo's own reply is not awaited: any byte received already proves the peer alive.
        Runnable echo = () -> connection.call("echo", JsonNodeFactory.instance.arrayNode(), probeInterval);
        pipeline.addLast(PROBE, new InactivityProbe(probeInterval, echo, connection::awaitingDump, nanoClock));
        pipeline.addLast(FRAME_DECODER, new JsonFrameDecoder(limits));
        pipeline.addLast(MESSAGE_DECODER, new RpcMessageDecoder());
        pipeline.addLast(MESSAGE_ENCODER, new RpcMessageEncoder());
        pipeline.addLast(CONNECTION, connection);
    }
}
