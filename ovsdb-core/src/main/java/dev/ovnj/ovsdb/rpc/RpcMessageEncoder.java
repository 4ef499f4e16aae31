package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.ovnj.ovsdb.wire.JsonNodeWriter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * Writes each outgoing {@link RpcMessage} as one JSON-RPC 1.0 object, straight from its nodes into
 * the channel's (pooled) buffer: no intermediate JSON object for the envelope, so a transaction's
 * operations are written as built. The counterpart of {@link RpcMessageDecoder}; holds no
 * per-channel state.
 */
public final class RpcMessageEncoder extends MessageToByteEncoder<RpcMessage> {

    /** Creates an encoder. */
    public RpcMessageEncoder() {
        super(RpcMessage.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RpcMessage msg, ByteBuf out) throws IOException {
        try (JsonGenerator g = JsonNodeWriter.open(out)) {
            write(g, msg);
        }
    }

    /** The JSON-RPC 1.0 members: a request's or notification's method, params, id; a response's id, result, error. */
    private static void write(JsonGenerator g, RpcMessage msg) throws IOException {
        g.writeStartObject();
        if (msg instanceof RpcRequest r) {
            g.writeStringField("method", r.method());
            g.writeFieldName("params");
            JsonNodeWriter.write(g, r.params());
            g.writeFieldName("id");
            JsonNodeWriter.write(g, r.id());
        } else if (msg instanceof RpcNotification n) {
            g.writeStringField("method", n.method());
            g.writeFieldName("params");
            JsonNodeWriter.write(g, n.params());
            g.writeNullField("id");
        } else {
            RpcResponse r = (RpcResponse) msg;
            g.writeFieldName("id");
            JsonNodeWriter.write(g, r.id());
            g.writeFieldName("result");
            JsonNodeWriter.write(g, r.result());
            g.writeFieldName("error");
            JsonNodeWriter.write(g, r.error());
        }
        g.writeEndObject();
    }
}
