package dev.ovnj.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.FrameLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonFrameEncoderTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static String encode(JsonNode message) {
        EmbeddedChannel ch = new EmbeddedChannel(new JsonFrameEncoder());
        ch.writeOutbound(message);
        ByteBuf out = ch.readOutbound();
        try {
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }

    @Test
    void integersAreWrittenAsIntegersAndOutputIsCompact() {
        ObjectNode msg = NODES.objectNode();
        msg.put("id", 1);
        msg.put("big", 12345678901234L);
        msg.putArray("params").add(0).add(2.5).add("\u00e9\ud83d\ude00");
        msg.putNull("error");
        assertThat(encode(msg)).isEqualTo(
                "{\"id\":1,\"big\":12345678901234,\"params\":[0,2.5,\"\u00e9\ud83d\ude00\"],\"error\":null}");
    }

    @Test
    void encodedOutputDecodesBackToTheSameTree() {
        ObjectNode msg = NODES.objectNode();
        msg.put("method", "transact");
        msg.putArray("params").add("OVN_Northbound").addObject().put("op", "insert").put("n", 3);
        EmbeddedChannel ch = new EmbeddedChannel(new JsonFrameEncoder(), new JsonFrameDecoder(FrameLimits.defaults()));
        ch.writeOutbound(msg);
        ByteBuf wire = ch.readOutbound();
        ch.writeInbound(wire);
        assertThat(ch.<JsonNode>readInbound()).isEqualTo(msg);
    }

    @Test
    void aMessageThatFailsToEncodeLeavesNoBufferBehind() {
        TrackingAllocator tracking = new TrackingAllocator();
        EmbeddedChannel ch = new EmbeddedChannel(new JsonFrameEncoder());
        ch.config().setAllocator(tracking);
        // Half the object is already in the buffer when the parameter fails to render.
        ObjectNode unrenderable = NODES.objectNode().put("method", "transact");
        unrenderable.putArray("params").add("OVN_Northbound").addPOJO(new Unrenderable());
        assertThatThrownBy(() -> ch.writeOutbound(unrenderable)).isInstanceOf(EncoderException.class);
        assertThat(tracking.allocated()).as("the encoder allocated its buffer").isNotEmpty();
        assertThat(tracking.allocated()).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(ch.<Object>readOutbound()).isNull();
    }
}
