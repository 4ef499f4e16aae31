package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Embedded channels for the JSON-RPC layer whose outbound side is production's: outgoing messages
 * leave as the bytes {@link RpcMessageEncoder} writes, and tests read them back by parsing those
 * bytes. Inbound, tests write JSON trees, as {@code JsonFrameDecoder} would pass them on.
 */
public final class WireChannel {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private WireChannel() {
    }

    /**
     * A channel with {@link RpcMessageEncoder} and {@link RpcMessageDecoder} ahead of the given handlers.
     *
     * @param handlers the handlers under test, e.g. an {@link RpcConnection}
     * @return the channel
     */
    public static EmbeddedChannel of(ChannelHandler... handlers) {
        EmbeddedChannel ch = new EmbeddedChannel(new RpcMessageEncoder(), new RpcMessageDecoder());
        ch.pipeline().addLast(handlers);
        return ch;
    }

    /**
     * Parses the next outgoing message from the bytes written for it, and releases them.
     *
     * @param ch a channel from {@link #of}
     * @return the message as JSON, or {@code null} when nothing more was written
     */
    public static JsonNode readOutbound(EmbeddedChannel ch) {
        ByteBuf bytes = ch.readOutbound();
        if (bytes == null) {
            return null;
        }
        try (ByteBufInputStream in = new ByteBufInputStream(bytes)) {
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            bytes.release();
        }
    }

    /**
     * Releases whatever the test left unread in the channel, so that no written bytes reach the
     * garbage collector unreleased (Netty's leak detector reports those).
     *
     * @param ch a channel
     */
    public static void release(EmbeddedChannel ch) {
        ch.releaseOutbound();
        ch.releaseInbound();
    }
}
