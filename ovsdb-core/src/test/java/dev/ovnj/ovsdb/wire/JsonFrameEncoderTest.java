package dev.ovnj.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcRequest;
import dev.ovnj.ovsdb.rpc.RpcResponse;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonFrameEncoderTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static String encode(Object message) {
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
}
