package dev.ovnj.ovsdb.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.cache.CacheInconsistencyException;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.ValueTypeException;
import dev.ovnj.ovsdb.monitor.MonitorProtocolException;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.rpc.RpcMessage;
import dev.ovnj.ovsdb.rpc.RpcMessageDecoder;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcResponse;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.SchemaParseException;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import dev.ovnj.ovsdb.wire.ProtocolException;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs untrusted bytes through the client's inbound path (framing, JSON-RPC, monitor decoding,
 * cache) and fails with an {@link AssertionError} on anything but a documented rejection. Shared
 * by the Jazzer fuzz tests and the seeded mutation test, so both check the same contract.
 */
final class InboundHarness {
    /** Small limits so that the fuzzer reaches them with short inputs. */
    static final FrameLimits LIMITS = new FrameLimits(16 * 1024, 16);
    static final List<String> TABLES = List.of("Load_Balancer", "Load_Balancer_Group", "Logical_Router",
            "Logical_Switch", "Logical_Router_Port", "NAT");
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final DatabaseSchema SCHEMA = DatabaseSchema.parse(resource("/ovn-nb.ovsschema"));
    private static final RpcMessageDecoder DECODER = new RpcMessageDecoder();
    /** The real initial contents, captured from ovsdb-server 3.1; updates are applied on top. */
    private static final JsonNode INITIAL = json(resource("/dev/ovnj/ovsdb/fuzz/InboundFuzzTestInputs/monitorMessage/monitor-cond-since-reply.json"));

    private InboundHarness() {
    }

    /**
     * Feeds bytes to a decoder in chunks whose sizes come from the input itself, then hands every
     * message to {@link #message}.
     */
    static void frames(byte[] data) {
        List<Throwable> errors = new ArrayList<>();
        List<JsonNode> messages = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new JsonFrameDecoder(LIMITS), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                messages.add((JsonNode) msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        int chunk = data.length == 0 ? 1 : 1 + (data[0] & 0x3f);
        for (int i = 0; i < data.length && ch.isOpen(); i += chunk) {
            ch.writeInbound(Unpooled.wrappedBuffer(data, i, Math.min(chunk, data.length - i)));
        }
        ch.finishAndReleaseAll();
        for (Throwable e : errors) {
            if (!(e instanceof ProtocolException)) {
                throw new AssertionError("undocumented decoder error " + e, e);
            }
        }
        if (!errors.isEmpty() && ch.isOpen()) {
            throw new AssertionError("decoder reported " + errors.get(0) + " but left the channel open");
        }
        for (JsonNode m : messages) {
            if (m.toString().length() > 2L * LIMITS.maxMessageBytes()) {
                throw new AssertionError("decoder emitted a message beyond maxMessageBytes");
            }
            message(m);
        }
    }

    /** Parses a whole input as one JSON document (skipping framing) and interprets it. */
    static void parsed(byte[] data) {
        JsonNode json;
        try {
            json = MAPPER.readTree(data);
        } catch (IOException e) {
            return;
        }
        if (json != null) {
            message(json);
        }
    }

    /** Interprets one decoded JSON object as the client does. */
    static void message(JsonNode json) {
        try {
            RpcMessage m = DECODER.fromJson(json);
            if (m instanceof RpcResponse r && r.result() != null && r.result().isArray() && r.result().size() == 3) {
                initialReply(r.result());
            } else if (m instanceof RpcNotification n) {
                notification(n);
            }
        } catch (ProtocolException | MonitorProtocolException | ValueTypeException | CacheInconsistencyException e) {
            // Documented rejections: the client drops the connection and resyncs.
        } catch (IllegalArgumentException e) {
            // Documented by Row.fromJson (unknown column, different _uuid) and ValueConstraintException.
        } catch (DecoderException e) {
            if (!(e.getCause() instanceof ProtocolException)) {
                throw new AssertionError("undocumented error " + e, e);
            }
        }
    }

    /** A monitor_cond_since reply: [found, last-txn-id, updates]. */
    private static void initialReply(JsonNode result) {
        UpdateBatch batch = UpdateBatch.fromUpdates2(result.get(2), Optional.of(result.get(1).asText()));
        new RowCache().replace(SCHEMA, TABLES, batch);
    }

    /** update3, update2 and update, applied to a cache holding the real initial contents. */
    private static void notification(RpcNotification n) {
        ArrayNode p = n.params();
        UpdateBatch batch;
        switch (n.method()) {
            case "update3" -> batch = p.size() < 3 ? null : UpdateBatch.fromUpdates2(p.get(2), Optional.of(p.get(1).asText()));
            case "update2" -> batch = p.size() < 2 ? null : UpdateBatch.fromUpdates2(p.get(1), Optional.empty());
            case "update" -> batch = p.size() < 2 ? null : UpdateBatch.fromUpdates(p.get(1), false);
            default -> batch = null;
        }
        if (batch == null) {
            return;
        }
        RowCache cache = new RowCache();
        cache.replace(SCHEMA, TABLES, UpdateBatch.fromUpdates2(INITIAL.at("/result/2"), Optional.empty()));
        cache.apply(batch);
    }

    /** Parses a schema the way get_schema's reply is handled. */
    static void schema(byte[] data) {
        JsonNode json;
        try {
            json = MAPPER.readTree(data);
        } catch (IOException e) {
            return;
        }
        if (json == null) {
            return;
        }
        try {
            DatabaseSchema.parse(json.has("result") ? json.get("result") : json);
        } catch (SchemaParseException e) {
            // Documented rejection.
        }
    }

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String resource(String path) {
        try (InputStream in = InboundHarness.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + path);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
