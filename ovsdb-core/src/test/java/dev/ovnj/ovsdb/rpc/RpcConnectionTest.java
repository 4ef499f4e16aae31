package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.ConnectionClosedException;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.RpcErrorException;
import dev.ovnj.ovsdb.RpcTimeoutException;
import dev.ovnj.ovsdb.TooManyPendingRequestsException;
import dev.ovnj.ovsdb.wire.FrameTooLargeException;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RpcConnectionTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration NO_TIMEOUT = Duration.ZERO;

    private final List<RpcNotification> notifications = new CopyOnWriteArrayList<>();
    private final ExecutorService notificationThread =
            Executors.newSingleThreadExecutor(r -> new Thread(r, "ovsdb-notifications"));

    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void stopExecutor() {
        notificationThread.shutdownNow();
        channels.forEach(WireChannel::release);
    }

    private RpcConnection connection(int maxPending) {
        return new RpcConnection(notificationThread, notifications::add, maxPending);
    }

    private EmbeddedChannel channel(RpcConnection conn) {
        EmbeddedChannel ch = WireChannel.of(conn);
        channels.add(ch);
        return ch;
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ArrayNode params(Object... values) {
        ArrayNode array = MAPPER.createArrayNode();
        for (Object v : values) {
            array.addPOJO(v);
        }
        return MAPPER.valueToTree(array);
    }

    private static long sentId(EmbeddedChannel ch, String expectedMethod) {
        JsonNode sent = WireChannel.readOutbound(ch);
        assertThat(sent.get("method").asText()).isEqualTo(expectedMethod);
        return sent.get("id").asLong();
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        try {
            future.join();
            throw new AssertionError("not failed");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    void correlatesOutOfOrderRepliesByIncreasingIds() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> a = conn.call("list_dbs", params(), NO_TIMEOUT);
        CompletableFuture<JsonNode> b = conn.call("get_schema", params("OVN_Northbound"), NO_TIMEOUT);
        CompletableFuture<JsonNode> c = conn.call("transact", params("OVN_Northbound"), NO_TIMEOUT);
        long idA = sentId(ch, "list_dbs");
        long idB = sentId(ch, "get_schema");
        long idC = sentId(ch, "transact");
        assertThat(idA).isLessThan(idB);
        assertThat(idB).isLessThan(idC);

        ch.writeInbound(json("{\"id\":" + idC + ",\"result\":\"c\",\"error\":null}"));
        ch.writeInbound(json("{\"id\":" + idA + ",\"result\":\"a\",\"error\":null}"));
        assertThat(b).isNotDone();
        ch.writeInbound(json("{\"id\":" + idB + ",\"result\":\"b\",\"error\":null}"));

        assertThat(a.join().asText()).isEqualTo("a");
        assertThat(b.join().asText()).isEqualTo("b");
        assertThat(c.join().asText()).isEqualTo("c");
        assertThat(conn.pendingRequests()).isZero();
        assertThat(conn.unmatchedResponses()).isZero();
    }

    @Test
    void sentRequestCarriesMethodParamsAndNumericId() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        conn.call("get_schema", params("OVN_Northbound"), NO_TIMEOUT);
        assertThat(WireChannel.readOutbound(ch).toString())
                .isEqualTo("{\"method\":\"get_schema\",\"params\":[\"OVN_Northbound\"],\"id\":1}");
    }

    @Test
    void errorReplyFailsTheCallWithErrorAndDetails() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("monitor", params("Foo"), NO_TIMEOUT);
        long id = sentId(ch, "monitor");
        ch.writeInbound(json("{\"id\":" + id + ",\"result\":null,"
                + "\"error\":{\"error\":\"unknown database\",\"details\":\"database Foo is not known\"}}"));

        Throwable failure = failureOf(call);
        assertThat(failure).isInstanceOf(RpcErrorException.class)
                .hasMessage("OVSDB server error \"unknown database\": database Foo is not known");
        RpcErrorException error = (RpcErrorException) failure;
        assertThat(error.error()).isEqualTo("unknown database");
        assertThat(error.details()).isEqualTo("database Foo is not known");
        assertThat(error.rawError().get("error").asText()).isEqualTo("unknown database");
        assertThat(error.retriable()).isFalse();
    }

    @Test
    void plainStringErrorHasNoDetails() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("bogus", params(), NO_TIMEOUT);
        ch.writeInbound(json("{\"id\":" + sentId(ch, "bogus") + ",\"result\":null,\"error\":\"unknown method\"}"));
        RpcErrorException error = (RpcErrorException) failureOf(call);
        assertThat(error.error()).isEqualTo("unknown method");
        assertThat(error.details()).isNull();
        assertThat(error).hasMessage("OVSDB server error \"unknown method\"");
        assertThat(error.retriable()).isFalse();
    }

    @Test
    void aCanceledTransactionMayBeRetried() {
        // What a relay answers for a transaction it was forwarding when its source went away: the
        // outcome is unknown, not a rejection of the transaction.
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("transact", params("OVN_Northbound"), NO_TIMEOUT);
        ch.writeInbound(json("{\"id\":" + sentId(ch, "transact") + ",\"result\":null,\"error\":\"canceled\"}"));
        RpcErrorException error = (RpcErrorException) failureOf(call);
        assertThat(error.error()).isEqualTo("canceled");
        assertThat(error.retriable()).isTrue();
    }

    @Test
    void timeoutFailsTheCallAndTheLateReplyIsUnmatched() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        ch.freezeTime();
        CompletableFuture<JsonNode> call = conn.call("transact", params(), Duration.ofSeconds(5));
        long id = sentId(ch, "transact");

        ch.advanceTimeBy(4999, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertThat(call).isNotDone();

        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        Throwable failure = failureOf(call);
        assertThat(failure).isInstanceOf(RpcTimeoutException.class)
                .hasMessageContaining("\"transact\"").hasMessageContaining("5000 ms");
        assertThat(((OvsdbRpcException) failure).retriable()).isTrue();
        assertThat(conn.pendingRequests()).isZero();

        ch.writeInbound(json("{\"id\":" + id + ",\"result\":[],\"error\":null}"));
        assertThat(conn.unmatchedResponses()).isEqualTo(1);
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void answeredCallCancelsItsTimer() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        ch.freezeTime();
        CompletableFuture<JsonNode> call = conn.call("transact", params(), Duration.ofSeconds(5));
        ch.writeInbound(json("{\"id\":" + sentId(ch, "transact") + ",\"result\":[],\"error\":null}"));
        ch.advanceTimeBy(10, TimeUnit.SECONDS);
        assertThat(ch.runScheduledPendingTasks()).isEqualTo(-1);
        assertThat(call.join()).isEqualTo(json("[]"));
    }

    @Test
    void cancellationRemovesThePendingCall() {
        RpcConnection conn = connection(1);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("transact", params(), NO_TIMEOUT);
        long id = sentId(ch, "transact");
        assertThat(conn.pendingRequests()).isEqualTo(1);

        call.cancel(false);
        assertThat(conn.pendingRequests()).isZero();
        CompletableFuture<JsonNode> next = conn.call("list_dbs", params(), NO_TIMEOUT);
        assertThat(next).isNotDone();

        ch.writeInbound(json("{\"id\":" + id + ",\"result\":[],\"error\":null}"));
        assertThat(conn.unmatchedResponses()).isEqualTo(1);
        assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void duplicateOrUnknownResponsesAreCountedAndHarmless() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("list_dbs", params(), NO_TIMEOUT);
        long id = sentId(ch, "list_dbs");
        ch.writeInbound(json("{\"id\":" + id + ",\"result\":[\"a\"],\"error\":null}"));
        ch.writeInbound(json("{\"id\":" + id + ",\"result\":[\"b\"],\"error\":null}"));
        ch.writeInbound(json("{\"id\":\"whatever\",\"result\":[],\"error\":null}"));
        ch.writeInbound(json("{\"id\":999,\"result\":[],\"error\":null}"));
        assertThat(call.join()).isEqualTo(json("[\"a\"]"));
        assertThat(conn.unmatchedResponses()).isEqualTo(3);
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void echoIsAnsweredWithSameIdAndParams() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        ch.writeInbound(json("{\"id\":\"echo\",\"method\":\"echo\",\"params\":[\"x\",1]}"));
        assertThat(WireChannel.readOutbound(ch))
                .isEqualTo(json("{\"id\":\"echo\",\"result\":[\"x\",1],\"error\":null}"));
    }

    @Test
    void unknownServerRequestIsAnsweredWithAnError() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        ch.writeInbound(json("{\"id\":42,\"method\":\"frobnicate\",\"params\":[]}"));
        JsonNode reply = WireChannel.readOutbound(ch);
        assertThat(reply.get("id").asInt()).isEqualTo(42);
        assertThat(reply.get("result").isNull()).isTrue();
        assertThat(reply.at("/error/error").asText()).isEqualTo("unknown method");
        assertThat(reply.at("/error/details").asText()).contains("frobnicate");
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void notificationsArriveInOrderOnTheSuppliedExecutor() throws Exception {
        CountDownLatch delivered = new CountDownLatch(100);
        List<String> threads = new CopyOnWriteArrayList<>();
        RpcConnection conn = new RpcConnection(notificationThread, n -> {
            threads.add(Thread.currentThread().getName());
            notifications.add(n);
            delivered.countDown();
        });
        EmbeddedChannel ch = channel(conn);
        for (int i = 0; i < 100; i++) {
            String method = i % 2 == 0 ? "update2" : "update3";
            ch.writeInbound(json("{\"id\":null,\"method\":\"" + method + "\",\"params\":[" + i + "]}"));
        }
        assertThat(delivered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(notifications).extracting(n -> n.params().get(0).asInt())
                .containsExactlyElementsOf(IntStream.range(0, 100).boxed().toList());
        assertThat(notifications.get(1).method()).isEqualTo("update3");
        // EmbeddedChannel's event loop is the test thread.
        assertThat(threads).containsOnly("ovsdb-notifications");
    }

    @Test
    void closingTheChannelFailsPendingCallsRetriably() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> a = conn.call("transact", params(), NO_TIMEOUT);
        CompletableFuture<JsonNode> b = conn.call("transact", params(), Duration.ofSeconds(30));
        ch.close();

        for (CompletableFuture<JsonNode> call : List.of(a, b)) {
            Throwable failure = failureOf(call);
            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((OvsdbRpcException) failure).retriable()).isTrue();
        }
        assertThat(conn.closeFuture()).isCompletedWithValue(null);
        assertThat(conn.pendingRequests()).isZero();
        assertThat(failureOf(conn.call("list_dbs", params(), NO_TIMEOUT))).isInstanceOf(ConnectionClosedException.class);
    }

    @Test
    void anErrorClosesTheConnectionAndBecomesTheCloseCause() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        CompletableFuture<JsonNode> call = conn.call("transact", params(), NO_TIMEOUT);
        FrameTooLargeException cause = new FrameTooLargeException(1024);
        ch.pipeline().fireExceptionCaught(cause);

        assertThat(ch.isOpen()).isFalse();
        assertThat(conn.closeFuture()).isCompletedWithValue(cause);
        assertThat(failureOf(call)).isInstanceOf(ConnectionClosedException.class).hasCause(cause)
                .hasMessageContaining("maxMessageBytes=1024");
    }

    @Test
    void invalidJsonRpcClosesWithTheUnwrappedProtocolError() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        ch.writeInbound(json("{\"result\":1,\"error\":null}"));
        assertThat(ch.isOpen()).isFalse();
        assertThat(conn.closeFuture().join()).isInstanceOf(RpcProtocolException.class)
                .hasMessageContaining("response without id");
    }

    @Test
    void pendingLimitFailsFast() {
        RpcConnection conn = connection(2);
        EmbeddedChannel ch = channel(conn);
        conn.call("a", params(), NO_TIMEOUT);
        conn.call("b", params(), NO_TIMEOUT);
        CompletableFuture<JsonNode> third = conn.call("c", params(), NO_TIMEOUT);
        assertThat(failureOf(third)).isInstanceOf(TooManyPendingRequestsException.class)
                .hasMessageContaining("maxPendingRequests=2");
        assertThat(((OvsdbRpcException) failureOf(third)).retriable()).isFalse();

        ch.writeInbound(json("{\"id\":" + sentId(ch, "a") + ",\"result\":[],\"error\":null}"));
        assertThat(conn.call("d", params(), NO_TIMEOUT)).isNotDone();
    }

    @Test
    void notificationIsSentWithNullId() {
        RpcConnection conn = connection(10);
        EmbeddedChannel ch = channel(conn);
        conn.notify("cancel", params(3));
        assertThat(WireChannel.readOutbound(ch)).isEqualTo(json("{\"method\":\"cancel\",\"params\":[3],\"id\":null}"));
    }

    @Test
    void callBeforeJoiningAPipelineFails() {
        RpcConnection conn = connection(10);
        assertThat(failureOf(conn.call("x", params(), NO_TIMEOUT))).isInstanceOf(IllegalStateException.class);
    }
}
