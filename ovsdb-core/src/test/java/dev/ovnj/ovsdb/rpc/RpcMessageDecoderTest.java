package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

class RpcMessageDecoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final RpcMessageDecoder codec = new RpcMessageDecoder();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    @Test
    void decodesRequestNotificationAndResponses() throws Exception {
        assertThat(codec.fromJson(json("{\"id\":\"echo\",\"method\":\"echo\",\"params\":[]}")))
                .isEqualTo(new RpcRequest(TextNode.valueOf("echo"), "echo", MAPPER.createArrayNode()));
        assertThat(codec.fromJson(json("{\"id\":null,\"method\":\"update2\",\"params\":[1]}")))
                .isEqualTo(new RpcNotification("update2", MAPPER.createArrayNode().add(1)));
        assertThat(codec.fromJson(json("{\"method\":\"locked\",\"params\":[\"l\"]}")))
                .isInstanceOf(RpcNotification.class);
        RpcResponse ok = (RpcResponse) codec.fromJson(json("{\"id\":7,\"result\":{\"a\":1},\"error\":null}"));
        assertThat(ok.id()).isEqualTo(IntNode.valueOf(7));
        assertThat(ok.isError()).isFalse();
        assertThat(ok.result()).isEqualTo(json("{\"a\":1}"));
        RpcResponse failed = (RpcResponse) codec.fromJson(json("{\"id\":8,\"result\":null,\"error\":\"unknown method\"}"));
        assertThat(failed.isError()).isTrue();
        assertThat(failed.error()).isEqualTo(TextNode.valueOf("unknown method"));
    }

    @Test
    void rejectsObjectsThatAreNoJsonRpcMessage() throws Exception {
        assertThatThrownBy(() -> codec.fromJson(json("{\"result\":1,\"error\":null}")))
                .isInstanceOf(RpcProtocolException.class).hasMessageContaining("response without id");
        assertThatThrownBy(() -> codec.fromJson(json("{\"id\":null,\"result\":1,\"error\":null}")))
                .isInstanceOf(RpcProtocolException.class).hasMessageContaining("response without id");
        assertThatThrownBy(() -> codec.fromJson(json("{\"id\":1,\"method\":\"echo\",\"params\":{}}")))
                .isInstanceOf(RpcProtocolException.class).hasMessageContaining("params of \"echo\" is not an array");
        assertThatThrownBy(() -> codec.fromJson(json("{\"id\":1,\"method\":5,\"params\":[]}")))
                .isInstanceOf(RpcProtocolException.class).hasMessageContaining("method is not a string");
        assertThatThrownBy(() -> codec.fromJson(json("{\"id\":1}")))
                .isInstanceOf(RpcProtocolException.class).hasMessageContaining("neither");
    }

    @Test
    void requestWithNullIdIsRefused() {
        assertThatThrownBy(() -> new RpcRequest(NullNode.getInstance(), "x", JsonNodeFactory.instance.arrayNode()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decodesInThePipelineAndLeavesOutgoingMessagesToTheFrameEncoder() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new RpcMessageDecoder());
        ch.writeInbound(json("{\"id\":1,\"result\":[],\"error\":null}"));
        assertThat(ch.<Object>readInbound()).isInstanceOf(RpcResponse.class);
        RpcNotification outgoing = new RpcNotification("n", MAPPER.createArrayNode());
        ch.writeOutbound(outgoing);
        assertThat(ch.<Object>readOutbound()).isSameAs(outgoing);
        assertThatThrownBy(() -> ch.writeInbound(json("{\"foo\":1}")))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(RpcProtocolException.class);
    }
}
