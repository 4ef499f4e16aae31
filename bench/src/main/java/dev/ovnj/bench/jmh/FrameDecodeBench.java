package dev.ovnj.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Frame decoding of one large {@code update2} notification (rows of 10-backend load balancers)
 * by {@link JsonFrameDecoder} in an {@link EmbeddedChannel}, fed in 64 KiB reads like a socket.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FrameDecodeBench {
    /** Rows in the decoded update2 message. */
    @Param({"1000"})
    public int rows;

    private byte[] message;
    private EmbeddedChannel channel;

    /**
     * Builds the message and the channel.
     *
     * @throws Exception when the message cannot be built
     */
    @Setup
    public void setup() throws Exception {
        Map<UUID, ObjectNode> lbs = new LinkedHashMap<>();
        for (int i = 0; i < rows; i++) {
            lbs.put(BenchData.uuid(1, i), BenchData.lbRow("bench", BenchData.spec(i, 10)));
        }
        ObjectNode msg = BenchData.F.objectNode();
        msg.putNull("id");
        msg.put("method", "update2");
        msg.putArray("params").add("ovnj-OVN_Northbound").add(BenchData.initial(Map.of("Load_Balancer", lbs)));
        message = new ObjectMapper().writeValueAsBytes(msg);
        channel = new EmbeddedChannel(new JsonFrameDecoder(FrameLimits.defaults()));
    }

    /** Releases the channel. */
    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    /**
     * Message size, for the report.
     *
     * @return message size, for the report
     */
    public int messageBytes() {
        return message.length;
    }

    /**
     * Decodes the message once.
     *
     * @return the decoded tree
     */
    @Benchmark
    public JsonNode decode() {
        int chunk = 64 * 1024;
        for (int off = 0; off < message.length; off += chunk) {
            channel.writeInbound(Unpooled.wrappedBuffer(message, off, Math.min(chunk, message.length - off)));
        }
        JsonNode out = channel.readInbound();
        if (out == null) {
            throw new IllegalStateException("no frame decoded");
        }
        return out;
    }
}
