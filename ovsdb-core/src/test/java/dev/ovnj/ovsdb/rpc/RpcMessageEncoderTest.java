package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.wire.TrackingAllocator;
import dev.ovnj.ovsdb.wire.Unrenderable;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RpcMessageEncoderTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static String encode(RpcMessage message) {
        EmbeddedChannel ch = new EmbeddedChannel(new RpcMessageEncoder());
        ch.writeOutbound(message);
        ByteBuf out = ch.readOutbound();
        try {
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }

    @Test
    void rpcMessagesAreWrittenWithEveryMemberJsonRpcRequiresInOrder() {
        ObjectNode op = NODES.objectNode().put("op", "insert").put("table", "Load_Balancer");
        op.putObject("row").put("name", "caf\u00e9 \ud83d\ude00").put("n", 12345678901234L).put("r", 0.5);
        assertThat(encode(new RpcRequest(NODES.numberNode(7), "transact", NODES.arrayNode().add("OVN_Northbound").add(op))))
                .isEqualTo("{\"method\":\"transact\",\"params\":[\"OVN_Northbound\",{\"op\":\"insert\",\"table\":\"Load_Balancer\","
                        + "\"row\":{\"name\":\"caf\u00e9 \ud83d\ude00\",\"n\":12345678901234,\"r\":0.5}}],\"id\":7}");
        assertThat(encode(new RpcRequest(NODES.textNode("list"), "list_dbs", NODES.arrayNode())))
                .isEqualTo("{\"method\":\"list_dbs\",\"params\":[],\"id\":\"list\"}");
        assertThat(encode(new RpcNotification("update3", NODES.arrayNode().addNull().add(true))))
                .isEqualTo("{\"method\":\"update3\",\"params\":[null,true],\"id\":null}");
        assertThat(encode(RpcResponse.success(NODES.textNode("echo"), NODES.arrayNode())))
                .isEqualTo("{\"id\":\"echo\",\"result\":[],\"error\":null}");
        assertThat(encode(RpcResponse.failure(NODES.numberNode(3), NODES.objectNode().put("error", "unknown method"))))
                .isEqualTo("{\"id\":3,\"result\":null,\"error\":{\"error\":\"unknown method\"}}");
    }

    @Test
    void aMessageThatFailsToEncodeLeavesNoBufferBehind() {
        TrackingAllocator tracking = new TrackingAllocator();
        EmbeddedChannel ch = new EmbeddedChannel(new RpcMessageEncoder());
        ch.config().setAllocator(tracking);
        // Half the envelope is already in the buffer when the parameter fails to render.
        RpcRequest unrenderable = new RpcRequest(NODES.numberNode(1), "transact",
                NODES.arrayNode().add("OVN_Northbound").addPOJO(new Unrenderable()));
        assertThatThrownBy(() -> ch.writeOutbound(unrenderable)).isInstanceOf(EncoderException.class);
        assertThat(tracking.allocated()).as("the encoder allocated its buffer").isNotEmpty();
        assertThat(tracking.allocated()).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        assertThat(ch.<Object>readOutbound()).isNull();
    }
}
