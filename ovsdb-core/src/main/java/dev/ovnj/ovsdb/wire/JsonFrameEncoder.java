package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * Writes each outgoing {@link JsonNode} as one JSON value, as {@link JsonNodeWriter} renders it.
 * OVSDB needs no delimiter between messages, so none is written. The JSON-RPC layer has its own
 * encoder ({@code dev.ovnj.ovsdb.rpc.RpcMessageEncoder}) that writes a message's envelope without
 * building its tree; this one serves peers that speak in trees, such as test servers and proxies.
 */
public final class JsonFrameEncoder extends MessageToByteEncoder<JsonNode> {

    /** Creates an encoder; one instance may serve one channel. */
    public JsonFrameEncoder() {
        super(JsonNode.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, JsonNode msg, ByteBuf out) throws IOException {
        try (JsonGenerator g = JsonNodeWriter.open(out)) {
            JsonNodeWriter.write(g, msg);
        }
    }
}
