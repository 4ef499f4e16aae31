package dev.ovnj.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.ovsdb.FrameLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonFrameDecoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** An update2 notification with nested maps and sets, escapes, a trailing backslash and non-ASCII text. */
    private static final String UPDATE2 = "{\"id\":null,\"method\":\"update2\",\"params\":[\"monid\",{"
            + "\"Logical_Switch\":{\"4f1f9e8a-8a9e-4e4f-9f3b-0a1b2c3d4e5f\":{\"modify\":{"
            + "\"name\":\"sw-\u00e9t\u00e9-\u65e5\u672c-\ud83d\ude00\","
            + "\"external_ids\":[\"map\",[[\"path\",\"C:\\\\dir\\\\\"],[\"quote\",\"say \\\"hi\\\"\"],[\"k\",\"a\\\\\"]]],"
            + "\"ports\":[\"set\",[[\"uuid\",\"1a2b\"],[\"uuid\",\"3c4d\"]]],"
            + "\"other\":[\"set\",[]],\"n\":-42,\"big\":12345678901234,\"r\":1.5e3,\"ok\":true,\"no\":false}}}}]}";

    private static EmbeddedChannel channel(FrameLimits limits) {
        return new EmbeddedChannel(new JsonFrameDecoder(limits));
    }

    private static ByteBuf bytes(byte[] all, int from, int to) {
        return Unpooled.wrappedBuffer(Arrays.copyOfRange(all, from, to));
    }

    private static ByteBuf utf8(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    private static List<JsonNode> drainInbound(EmbeddedChannel ch) {
        List<JsonNode> out = new ArrayList<>();
        for (Object m; (m = ch.readInbound()) != null; ) {
            out.add((JsonNode) m);
        }
        return out;
    }

    @Test
    void messageSplitAtEveryByteBoundaryDecodesIdentically() throws Exception {
        byte[] all = UPDATE2.getBytes(StandardCharsets.UTF_8);
        JsonNode expected = MAPPER.readTree(all);
        assertThat(expected.at("/params/1/Logical_Switch").fields().next().getValue()
                .at("/modify/external_ids/1/2/1").asText()).isEqualTo("a\\");

        for (int split = 0; split <= all.length; split++) {
            EmbeddedChannel ch = channel(FrameLimits.defaults());
            ch.writeInbound(bytes(all, 0, split));
            ch.writeInbound(bytes(all, split, all.length));
            assertThat(drainInbound(ch)).as("split at %d", split).containsExactly(expected);
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void repeatedAndCollidingShortStringsDecodeIdenticallyAcrossMessages() throws Exception {
        // The decoder hands out a shared node for a short string it saw recently: every string,
        // repeated or not, colliding in its table or not, must still decode to itself.
        java.util.Random random = new java.util.Random(11);
        StringBuilder all = new StringBuilder();
        List<JsonNode> expected = new ArrayList<>();
        for (int message = 0; message < 5; message++) {
            StringBuilder m = new StringBuilder("{\"id\":" + message + ",\"result\":[");
            for (int i = 0; i < 3_000; i++) {
                int length = random.nextInt(30);
                StringBuilder text = new StringBuilder();
                for (int c = 0; c < length; c++) {
                    text.append("ab\u00e9\u65e5:1.\\\"".charAt(random.nextInt(9)));
                }
                m.append(i == 0 ? "" : ",").append(MAPPER.writeValueAsString(text.toString()));
            }
            m.append(",\"uuid\",\"set\",\"map\",\"\",[\"uuid\",\"x\"]]}");
            expected.add(MAPPER.readTree(m.toString()));
            all.append(m);
        }
        byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        for (int from = 0; from < bytes.length; from += 4_096) {
            ch.writeInbound(bytes(bytes, from, Math.min(bytes.length, from + 4_096)));
        }
        assertThat(drainInbound(ch)).isEqualTo(expected);
    }

    @Test
    void messageSplitAcrossThreeBuffersDecodesIdentically() throws Exception {
        byte[] all = UPDATE2.getBytes(StandardCharsets.UTF_8);
        JsonNode expected = MAPPER.readTree(all);
        for (int first = 1; first < all.length; first += 7) {
            for (int second = first; second < all.length; second += 11) {
                EmbeddedChannel ch = channel(FrameLimits.defaults());
                ch.writeInbound(bytes(all, 0, first));
                ch.writeInbound(bytes(all, first, second));
                ch.writeInbound(bytes(all, second, all.length));
                assertThat(drainInbound(ch)).as("split at %d/%d", first, second).containsExactly(expected);
            }
        }
    }

    @Test
    void oneByteAtATimeDecodesIdentically() throws Exception {
        byte[] all = UPDATE2.getBytes(StandardCharsets.UTF_8);
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        for (int i = 0; i < all.length; i++) {
            ch.writeInbound(bytes(all, i, i + 1));
        }
        assertThat(drainInbound(ch)).containsExactly(MAPPER.readTree(all));
    }

    @Test
    void manyMessagesInOneBufferWithAndWithoutWhitespace() throws Exception {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        ch.writeInbound(utf8("{\"a\":1}{\"b\":2} \n {\"c\":[]}\r\n\t{\"d\":{}}  "));
        assertThat(drainInbound(ch)).containsExactly(
                MAPPER.readTree("{\"a\":1}"), MAPPER.readTree("{\"b\":2}"),
                MAPPER.readTree("{\"c\":[]}"), MAPPER.readTree("{\"d\":{}}"));
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void integersKeepTheirNumericType() {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        ch.writeInbound(utf8("{\"i\":1,\"l\":12345678901234,\"b\":123456789012345678901234567890,\"d\":1.0}"));
        JsonNode node = (JsonNode) ch.readInbound();
        assertThat(node.get("i").isInt()).isTrue();
        assertThat(node.get("l").isLong()).isTrue();
        assertThat(node.get("b").isBigInteger()).isTrue();
        assertThat(node.get("d").isDouble()).isTrue();
    }

    @Test
    void garbageIsMalformedWithOffsetAndClosesTheChannel() {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        assertThatThrownBy(() -> ch.writeInbound(utf8("{\"a\":1}  {\"b\": nope}")))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("byte offset")
                .hasMessageContaining("nope");
        assertThat(ch.<Object>readInbound()).isEqualTo(MAPPER.createObjectNode().put("a", 1));
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void topLevelArrayIsMalformed() {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        assertThatThrownBy(() -> ch.writeInbound(utf8("[1,2]")))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("top-level value must be a JSON object")
                .hasMessageContaining("START_ARRAY")
                .hasMessageMatching(".*byte offset [01]:.*");
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void topLevelScalarIsMalformed() {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        assertThatThrownBy(() -> ch.writeInbound(utf8("{} \"hello\"")))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("VALUE_STRING")
                .hasMessageMatching(".*byte offset [34]:.*");
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void oversizedMessageIsRejectedAndChannelClosed() {
        EmbeddedChannel ch = channel(new FrameLimits(1024, 64));
        String ok = "{\"a\":\"" + "x".repeat(1024 - 8) + "\"}";
        assertThat(ok).hasSize(1024);
        ch.writeInbound(utf8(ok));
        assertThat(drainInbound(ch)).hasSize(1);

        String tooBig = "{\"a\":\"" + "x".repeat(1024 - 7) + "\"}";
        assertThatThrownBy(() -> ch.writeInbound(utf8(tooBig)))
                .isInstanceOf(FrameTooLargeException.class)
                .hasMessage("OVSDB message exceeds maxMessageBytes=1024");
        assertThat(ch.isOpen()).isFalse();
        assertThat(drainInbound(ch)).isEmpty();
    }

    @Test
    void inputBeyondTheLimitIsNeverHandedToTheParser() {
        // A syntax error sits just past the limit: only a decoder that stops feeding at
        // maxMessageBytes reports the size violation instead of the syntax error.
        EmbeddedChannel ch = channel(new FrameLimits(1024, 64));
        String body = "{\"a\":[" + "1,".repeat(600) + "}}}";
        assertThatThrownBy(() -> ch.writeInbound(utf8(body)))
                .isInstanceOf(FrameTooLargeException.class);
    }

    @Test
    void endlessStringHitsTheSizeLimit() {
        EmbeddedChannel ch = channel(new FrameLimits(1024, 64));
        ch.writeInbound(utf8("{\"a\":\"xxxx"));
        int written = 10;
        ByteBuf chunk = null;
        try {
            while (written < 100_000) {
                chunk = utf8("x".repeat(100));
                ch.writeInbound(chunk);
                written += 100;
            }
        } catch (FrameTooLargeException e) {
            assertThat(e).hasMessageContaining("maxMessageBytes=1024");
        }
        assertThat(written).as("bytes accepted before the violation").isBetween(1024 - 100, 1024);
        assertThat(chunk.refCnt()).isZero();
        assertThat(ch.isOpen()).isFalse();
        assertThat(drainInbound(ch)).isEmpty();
    }

    @Test
    void aStringIsBoundedOnItsOwnWellBelowTheMessageLimit() throws Exception {
        FrameLimits limits = new FrameLimits(1024 * 1024, 64, 10_000);
        EmbeddedChannel ch = channel(limits);
        // A string of exactly the limit passes, a member name too, in a message of any size.
        String ok = "{\"" + "k".repeat(10_000) + "\":[\"" + "x".repeat(10_000) + "\",\"" + "y".repeat(10_000) + "\"]}";
        ch.writeInbound(utf8(ok));
        assertThat(drainInbound(ch)).containsExactly(MAPPER.readTree(ok));
        // One character more, 100 at a time, stops there with an error naming the limit, whatever the message limit.
        ch.writeInbound(utf8("{\"a\":\""));
        int written = 0;
        StringTooLongException error = null;
        try {
            while (written < 1024 * 1024) {
                ch.writeInbound(utf8("x".repeat(100)));
                written += 100;
            }
        } catch (StringTooLongException e) {
            error = e;
        }
        assertThat(error).as("string bound tripped").isNotNull()
                .hasMessageStartingWith("OVSDB message has a string longer than maxStringLength=10000 characters");
        assertThat(written).as("characters accepted before the violation: about the bound").isBetween(10_000 - 100, 4 * 10_000);
        assertThat(ch.isOpen()).isFalse();
        // A member name is bounded the same way.
        EmbeddedChannel names = channel(limits);
        assertThatThrownBy(() -> names.writeInbound(utf8("{\"" + "n".repeat(20_000) + "\":1}")))
                .isInstanceOf(StringTooLongException.class);
        assertThat(FrameLimits.defaults().maxStringLength()).isEqualTo(4 * 1024 * 1024);
    }

    /**
     * What the string bound must never refuse: a Southbound-like initial monitor reply of 100,000
     * logical flows (tens of MiB in one message) and a load balancer whose VIP has 20,000 backends
     * (one 330 KB string), with the default limits, fed in 64 KiB reads as the socket delivers it.
     */
    @Test
    void aLargeLegitimateSouthboundDumpPassesTheDefaultLimits() {
        int flows = 100_000;
        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            backends.append(i == 0 ? "" : ",").append("10.").append(i / 65536).append('.').append(i / 256 % 256).append('.')
                    .append(i % 256).append(":8080");
        }
        assertThat(backends.length()).as("a VIP's backends").isGreaterThan(300_000);
        StringBuilder msg = new StringBuilder(flows * 700).append("{\"id\":7,\"error\":null,\"result\":[false,")
                .append("\"00000000-0000-0000-0000-000000000000\",{\"Load_Balancer\":{\"11111111-1111-1111-1111-111111111111\":")
                .append("{\"initial\":{\"name\":\"lb-big\",\"vips\":[\"map\",[[\"10.96.0.1:80\",\"").append(backends)
                .append("\"]]]}}},\"Logical_Flow\":{");
        for (int i = 0; i < flows; i++) {
            msg.append(i == 0 ? "" : ",").append('"').append(String.format("%08x-0000-4000-8000-%012x", i, i)).append("\":{\"initial\":{")
                    .append("\"match\":\"ct.new && ip4 && reg0 == 172.30.").append(i / 250 % 250).append('.').append(i % 250)
                    .append(" && tcp && reg9[16..31] == 80\",\"actions\":\"reg0[1] = 0; ct_lb_mark(backends=10.1.")
                    .append(i / 250 % 250).append('.').append(i % 250).append(":8080,10.2.").append(i / 250 % 250).append('.')
                    .append(i % 250).append(":8080; hash_fields=\\\"ip_dst,ip_src,tcp_dst,tcp_src\\\");\",")
                    .append("\"logical_datapath\":[\"uuid\",\"22222222-2222-2222-2222-222222222222\"],")
                    .append("\"pipeline\":\"ingress\",\"table_id\":13,\"priority\":120,")
                    .append("\"external_ids\":[\"map\",[[\"source\",\"northd.c:11089\"],[\"stage-hint\",\"")
                    .append(String.format("%08x", i)).append("\"],[\"stage-name\",\"ls_in_lb\"]]]}}");
        }
        msg.append("}}]}");
        byte[] all = msg.toString().getBytes(StandardCharsets.UTF_8);
        msg.setLength(0);
        assertThat(all.length).as("one message of tens of MiB").isGreaterThan(40 * 1024 * 1024);
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        for (int from = 0; from < all.length; from += 64 * 1024) {
            ch.writeInbound(bytes(all, from, Math.min(all.length, from + 64 * 1024)));
        }
        List<JsonNode> out = drainInbound(ch);
        assertThat(out).hasSize(1);
        JsonNode tables = out.get(0).get("result").get(2);
        assertThat(tables.get("Logical_Flow").size()).isEqualTo(flows);
        assertThat(tables.get("Load_Balancer").elements().next().get("initial").get("vips").get(1).get(0).get(1).asText())
                .hasSize(backends.length());
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void noInputBufferOutlivesItsReadWhetherItsFrameIsPartialOrMalformed() {
        EmbeddedChannel ch = channel(FrameLimits.defaults());
        ByteBuf partial = utf8("{\"a\":[1,");
        ch.writeInbound(partial);
        assertThat(partial.refCnt()).as("half a message: the parser keeps what it needs, not the buffer").isZero();
        ByteBuf malformed = utf8("nope]}");
        assertThatThrownBy(() -> ch.writeInbound(malformed)).isInstanceOf(MalformedFrameException.class);
        assertThat(malformed.refCnt()).isZero();
        assertThat(ch.isOpen()).isFalse();

    }

    @Test
    void nestingUpToTheLimitIsAcceptedAndBeyondRejected() throws Exception {
        EmbeddedChannel ok = channel(new FrameLimits(1024, 8));
        String eight = "{\"a\":" + "[".repeat(7) + "1" + "]".repeat(7) + "}";
        ok.writeInbound(utf8(eight));
        assertThat(drainInbound(ok)).containsExactly(MAPPER.readTree(eight));

        EmbeddedChannel deep = channel(new FrameLimits(1024, 8));
        String nine = "{\"a\":" + "[".repeat(8) + "1" + "]".repeat(8) + "}";
        // The valid message after the violation must not be decoded: the stream is out of sync.
        assertThatThrownBy(() -> deep.writeInbound(utf8(nine + "{\"b\":1}")))
                .isInstanceOf(FrameTooDeepException.class)
                .hasMessageContaining("maxDepth=8");
        assertThat(deep.isOpen()).isFalse();
        assertThat(drainInbound(deep)).isEmpty();
    }

    @Test
    void limitsRejectNonPositiveValues() {
        assertThatThrownBy(() -> new FrameLimits(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxMessageBytes");
        assertThatThrownBy(() -> new FrameLimits(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxDepth");
        assertThat(FrameLimits.defaults()).isEqualTo(new FrameLimits(1024 * 1024 * 1024, 64));
    }
}
