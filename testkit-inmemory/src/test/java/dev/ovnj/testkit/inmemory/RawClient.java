package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A blocking JSON-RPC client that shows everything a server sends, for comparing two servers
 * message by message: a call returns its reply and the notifications that came before it.
 */
public final class RawClient implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A reply and the notifications the server sent ahead of it.
     *
     * @param reply the JSON-RPC reply
     * @param notifications the notifications received before it
     */
    public record Exchange(JsonNode reply, List<JsonNode> notifications) {
    }

    private final boolean exactReals;
    private final Socket socket;
    private final OutputStream out;
    private MappingIterator<JsonNode> in;
    private int nextId;

    /**
     * Connects to a server on 127.0.0.1.
     *
     * @param port the server's TCP port
     */
    public RawClient(int port) {
        this(port, false);
    }

    /**
     * Connects to a server on 127.0.0.1.
     *
     * @param port the server's TCP port
     * @param exactReals whether to read reals as the exact decimals the server wrote (so that
     *     ovsdb-server's {@code 1.79769313486232e+308}, just above the largest double, stays that)
     */
    public RawClient(int port, boolean exactReals) {
        this.exactReals = exactReals;
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(20_000);
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends one request and waits (20 s at most) for its reply, answering echo requests meanwhile.
     *
     * @param method the JSON-RPC method
     * @param params its params
     * @return the reply and the notifications that came before it
     */
    public Exchange call(String method, ArrayNode params) {
        int id = nextId++;
        ObjectNode req = JSON.createObjectNode().put("id", id).put("method", method);
        req.set("params", params);
        try {
            out.write(JSON.writeValueAsBytes(req));
            out.flush();
            if (in == null) {
                // Created after the first request: the parser reads ahead to detect the encoding.
                ObjectReader reader = JSON.readerFor(JsonNode.class);
                if (exactReals) {
                    reader = reader.with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
                }
                in = reader.readValues(socket.getInputStream());
            }
            List<JsonNode> notes = new ArrayList<>();
            while (true) {
                JsonNode msg = in.next();
                if (msg.has("method")) {
                    if ("echo".equals(msg.get("method").asText()) && msg.hasNonNull("id")) {
                        ObjectNode pong = JSON.createObjectNode().put("error", (String) null);
                        pong.set("id", msg.get("id"));
                        pong.set("result", msg.get("params"));
                        out.write(JSON.writeValueAsBytes(pong));
                        out.flush();
                    } else {
                        notes.add(msg);
                    }
                } else if (msg.path("id").asInt(-1) == id) {
                    return new Exchange(msg, notes);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing left to release.
        }
    }
}
