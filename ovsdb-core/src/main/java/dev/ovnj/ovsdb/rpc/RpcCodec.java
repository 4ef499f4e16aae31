package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import java.util.List;

/**
 * Converts between JSON objects and {@link RpcMessage}s. An object that is none of request,
 * response or notification is rejected with a {@link RpcProtocolException}, which Netty delivers
 * wrapped in a {@link io.netty.handler.codec.DecoderException}.
 */
public final class RpcCodec extends MessageToMessageCodec<JsonNode, RpcMessage> {

    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final boolean encodes;

    /** Creates a codec; it holds no per-channel state. */
    public RpcCodec() {
        this(true);
    }

    private RpcCodec(boolean encodes) {
        super(JsonNode.class, RpcMessage.class);
        this.encodes = encodes;
    }

    /**
     * Creates a codec that only decodes, letting outgoing {@link RpcMessage}s pass to a
     * {@link dev.ovnj.ovsdb.wire.JsonFrameEncoder}, which writes them straight to bytes without
     * building their JSON tree first ({@link RpcPipeline} installs this one).
     *
     * @return a decoding codec
     */
    public static RpcCodec decoding() {
        return new RpcCodec(false);
    }

    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return encodes && super.acceptOutboundMessage(msg);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RpcMessage msg, List<Object> out) {
        out.add(toJson(msg));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, JsonNode msg, List<Object> out) {
        out.add(fromJson(msg));
    }

    /**
     * Converts a message to its JSON form.
     *
     * @param msg the message
     * @return a JSON object with the members JSON-RPC 1.0 requires
     */
    public ObjectNode toJson(RpcMessage msg) {
        ObjectNode json = nodes.objectNode();
        if (msg instanceof RpcRequest r) {
            json.put("method", r.method());
            json.set("params", r.params());
            json.set("id", r.id());
        } else if (msg instanceof RpcNotification n) {
            json.put("method", n.method());
            json.set("params", n.params());
            json.putNull("id");
        } else {
            RpcResponse r = (RpcResponse) msg;
            json.set("id", r.id());
            json.set("result", r.result());
            json.set("error", r.error());
        }
        return json;
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
