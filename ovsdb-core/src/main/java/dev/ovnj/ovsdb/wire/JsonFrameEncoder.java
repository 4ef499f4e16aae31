package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes each outgoing {@link JsonNode} as compact UTF-8 JSON, characters outside
 * the Basic Multilingual Plane included as plain UTF-8 rather than escaped surrogates. OVSDB needs no delimiter between
 * messages, so none is written. Numbers keep their node type: an integer node is written as an
 * integer, never with a fraction.
 */
public final class JsonFrameEncoder extends MessageToByteEncoder<JsonNode> {

    private final ObjectWriter writer = new ObjectMapper()
            .writer()
            .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

    /** Creates an encoder; one instance may serve one channel. */
    public JsonFrameEncoder() {
        super(JsonNode.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, JsonNode msg, ByteBuf out) throws IOException {
        try (OutputStream stream = new ByteBufOutputStream(out)) {
            writer.writeValue(stream, msg);
        }
    }
}
