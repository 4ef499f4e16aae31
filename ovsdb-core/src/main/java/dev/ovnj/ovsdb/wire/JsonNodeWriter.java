package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes JSON trees the way OVSDB expects them on the wire: compact UTF-8, characters outside the
 * Basic Multilingual Plane as plain UTF-8 rather than escaped surrogates, and numbers in their
 * node's type (an integer node is written as an integer, never with a fraction). Nodes go straight
 * into the buffer through one Jackson generator, with none of databind's serializer lookup, which
 * costs more per small transaction than the bytes themselves. Shared by the frame encoder and the
 * JSON-RPC message encoder, so both write a value identically.
 */
public final class JsonNodeWriter {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private JsonNodeWriter() {
    }

    /**
     * Opens a generator that appends to a buffer; closing it flushes but leaves the buffer open.
     *
     * @param out the buffer to append to
     * @return the generator
     * @throws IOException if the generator cannot be created
     */
    public static JsonGenerator open(ByteBuf out) throws IOException {
        return FACTORY.createGenerator((OutputStream) new ByteBufOutputStream(out), JsonEncoding.UTF8);
    }

    /**
     * Writes one value.
     *
     * @param g the generator
     * @param node the value
     * @throws IOException if the generator fails, e.g. on a POJO node that cannot be rendered
     */
    public static void write(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    g.writeFieldName(field.getKey());
                    write(g, field.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (int i = 0, n = node.size(); i < n; i++) {
                    write(g, node.get(i));
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
