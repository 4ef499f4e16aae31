package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Interprets each incoming JSON object as an {@link RpcMessage}. An object that is none of
 * request, response or notification is rejected with a {@link RpcProtocolException}, which Netty
 * delivers wrapped in a {@link io.netty.handler.codec.DecoderException}.
 *
 * <p>Only inbound: outgoing messages are written by {@link RpcMessageEncoder}. Holds no
 * per-channel state.
 */
public final class RpcMessageDecoder extends MessageToMessageDecoder<JsonNode> {

    /** Creates a decoder. */
    public RpcMessageDecoder() {
        super(JsonNode.class);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, JsonNode msg, List<Object> out) {
        out.add(fromJson(msg));
    }

    /**
     * Interprets a JSON value as a JSON-RPC message.
     *
     * @param json the received value
     * @return the message
     * @throws RpcProtocolException if the value is not a valid JSON-RPC 1.0 message
     */
    public RpcMessage fromJson(JsonNode json) {
        if (!json.isObject()) {
            throw new RpcProtocolException("expected an object, got " + json.getNodeType());
        }
        JsonNode id = json.path("id");
        if (json.has("method")) {
            return request(json, id);
        }
        if (json.has("result") || json.has("error")) {
            if (id.isMissingNode() || id.isNull()) {
                throw new RpcProtocolException("response without id");
            }
            return new RpcResponse(id, json.get("result"), json.get("error"));
        }
        throw new RpcProtocolException("object has neither \"method\" nor \"result\"/\"error\"");
    }

    private RpcMessage request(JsonNode json, JsonNode id) {
        JsonNode method = json.get("method");
        if (!method.isTextual()) {
            throw new RpcProtocolException("method is not a string: " + method);
        }
        JsonNode params = json.path("params");
        if (!params.isArray()) {
            throw new RpcProtocolException("params of \"" + method.asText() + "\" is not an array");
        }
        if (id.isMissingNode() || id.isNull()) {
            return new RpcNotification(method.asText(), (ArrayNode) params);
        }
        return new RpcRequest(id, method.asText(), (ArrayNode) params);
    }
}
