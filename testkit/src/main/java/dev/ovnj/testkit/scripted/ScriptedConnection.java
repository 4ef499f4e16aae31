package dev.ovnj.testkit.scripted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.nio.charset.StandardCharsets;

/** One client connection of a {@link ScriptedOvsdbServer}: what a script replies and sends with. */
public final class ScriptedConnection {
    private final Channel channel;
    private final ObjectMapper mapper;

    ScriptedConnection(Channel channel, ObjectMapper mapper) {
        this.channel = channel;
        this.mapper = mapper;
    }

    /**
     * Replies to a request with a result.
     *
     * @param request the request being answered (its id is reused)
     * @param result the result
     */
    public void reply(JsonNode request, JsonNode result) {
        ObjectNode r = mapper.createObjectNode();
        r.set("id", request.get("id"));
        r.set("result", result);
        r.putNull("error");
        send(r);
    }

    /**
     * Replies to a request with a JSON-RPC error.
     *
     * @param request the request being answered
     * @param error the error string, e.g. {@code "unknown method"}
     */
    public void error(JsonNode request, String error) {
        ObjectNode r = mapper.createObjectNode();
        r.set("id", request.get("id"));
        r.putNull("result");
        r.put("error", error);
        send(r);
    }

    /**
     * Sends a JSON value as is.
     *
     * @param message the message
     */
    public void send(JsonNode message) {
        sendRaw(message.toString());
    }

    /**
     * Sends raw text, which need not be valid JSON.
     *
     * @param text the bytes to send, UTF-8
     */
    public void sendRaw(String text) {
        channel.writeAndFlush(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    /**
     * Parses JSON written with single quotes for readability in tests.
     *
     * @param json JSON text where {@code '} stands for {@code "}
     * @return the parsed value
     */
    public JsonNode json(String json) {
        try {
            return mapper.readTree(json.replace('\'', '"'));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("bad JSON in script: " + json, e);
        }
    }

    /**
     * Whether the client is still connected; a script streaming data stops when it is not.
     *
     * @return whether the client is still connected; a script streaming data stops when it is not
     */
    public boolean isOpen() {
        return channel.isActive();
    }

    /** Closes the connection. */
    public void close() {
        channel.close();
    }
}
