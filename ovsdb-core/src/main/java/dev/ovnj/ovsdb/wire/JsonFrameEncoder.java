package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.rpc.RpcMessage;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcRequest;
import dev.ovnj.ovsdb.rpc.RpcResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes each outgoing {@link JsonNode} or {@link RpcMessage} as compact UTF-8 JSON, characters
 * outside the Basic Multilingual Plane included as plain UTF-8 rather than escaped surrogates.
 * OVSDB needs no delimiter between messages, so none is written. Numbers keep their node type: an
 * integer node is written as an integer, never with a fraction.
 *
 * <p>A message goes straight from its nodes into the channel's (pooled) buffer through one Jackson
 * generator: no intermediate JSON object for the JSON-RPC envelope and none of databind's
 * serializer lookup, which cost more per small transaction than the bytes themselves.
 */
public final class JsonFrameEncoder extends MessageToByteEncoder<Object> {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    /** Creates an encoder; one instance may serve one channel. */
    public JsonFrameEncoder() {
        super(Object.class);
    }

    @Override
    public boolean acceptOutboundMessage(Object msg) {
        return msg instanceof JsonNode || msg instanceof RpcMessage;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, ByteBuf out) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator((OutputStream) new ByteBufOutputStream(out), JsonEncoding.UTF8)) {
            if (msg instanceof RpcMessage message) {
                writeMessage(g, message);
            } else {
                writeNode(g, (JsonNode) msg);
            }
        }
    }

    /** The JSON-RPC 1.0 members: a request's or notification's method, params, id; a response's id, result, error. */
    private static void writeMessage(JsonGenerator g, RpcMessage msg) throws IOException {
        g.writeStartObject();
        if (msg instanceof RpcRequest r) {
            g.writeStringField("method", r.method());
            g.writeFieldName("params");
            writeNode(g, r.params());
            g.writeFieldName("id");
            writeNode(g, r.id());
        } else if (msg instanceof RpcNotification n) {
            g.writeStringField("method", n.method());
            g.writeFieldName("params");
            writeNode(g, n.params());
            g.writeNullField("id");
        } else {
            RpcResponse r = (RpcResponse) msg;
            g.writeFieldName("id");
            writeNode(g, r.id());
            g.writeFieldName("result");
            writeNode(g, r.result());
            g.writeFieldName("error");
            writeNode(g, r.error());
        }
        g.writeEndObject();
    }

    private static void writeNode(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    g.writeFieldName(field.getKey());
                    writeNode(g, field.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (int i = 0, n = node.size(); i < n; i++) {
                    writeNode(g, node.get(i));
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(node.textValue());
            case NUMBER -> writeNumber(g, node);
            case BOOLEAN -> g.writeBoolean(node.booleanValue());
            case BINARY -> g.writeBinary(node.binaryValue());
            case NULL, MISSING -> g.writeNull();
            // A POJO node, which no OVSDB message holds: its own rendering is valid JSON.
            default -> g.writeRawValue(node.toString());
        }
    }

    private static void writeNumber(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.numberType()) {
            case INT -> g.writeNumber(node.intValue());
            case LONG -> g.writeNumber(node.longValue());
            case BIG_INTEGER -> g.writeNumber(node.bigIntegerValue());
            case FLOAT -> g.writeNumber(node.floatValue());
            case BIG_DECIMAL -> g.writeNumber(node.decimalValue());
            default -> g.writeNumber(node.doubleValue());
        }
    }
}
