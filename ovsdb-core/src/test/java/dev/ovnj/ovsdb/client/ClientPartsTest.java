package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.ListenerFence;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.WireChannel;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.testkit.Schemas;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's parts, each alone on an {@link EmbeddedChannel}: no server, no reconnect machinery. */
class ClientPartsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse(json(Schemas.ovnNorthboundJson()));
    private static final ClientOptions OPTIONS = new ClientOptions(List.of(Remote.parse("tcp:127.0.0.1:1")), "OVN_Northbound",
            Optional.empty(), true, MonitorRequest.allTables(), Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(1),
            Duration.ofMillis(100), Duration.ofSeconds(1), FrameLimits.defaults(), 100, Optional.empty(), Compatibility.LENIENT,
            Duration.ZERO);

    private final CallbackThread callbacks = new CallbackThread();
    private final RpcConnection rpc = new RpcConnection(Runnable::run, n -> { });
    private final EmbeddedChannel channel = WireChannel.of(rpc);
    private final Session session = new Session(1, Remote.parse("tcp:127.0.0.1:1"), channel, rpc);

    @AfterEach
    void close() {
        channel.close();
        WireChannel.release(channel);
        callbacks.close();
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode sent(String method) {
        JsonNode m = WireChannel.readOutbound(channel);
        assertThat(m).as("a " + method + " request").isNotNull();
        assertThat(m.path("method").asText()).isEqualTo(method);
        return m;
    }

    private void reply(JsonNode request, String result) {
        channel.writeInbound(json("{\"id\":" + request.get("id") + ",\"result\":" + result + ",\"error\":null}"));
    }

    @Test
    void barrierSendsOneEchoPerBurstOfReplies() {
        WriteConfirmation barrier = WriteConfirmation.barrier(session, Duration.ZERO);
        CompletableFuture<Void> a = barrier.afterReply();
        CompletableFuture<Void> b = barrier.afterReply();
        channel.runPendingTasks();
        JsonNode echo = sent("echo");
        assertThat(WireChannel.readOutbound(channel)).as("one echo for the first replies").isNull();
        CompletableFuture<Void> c = barrier.afterReply(); // arrived after the echo was sent: needs the next one
        reply(echo, "[\"ovnj-barrier\"]");
        assertThat(a).isCompleted();
        assertThat(b).isCompleted();
        assertThat(c).isNotDone();
        channel.runPendingTasks();
        reply(sent("echo"), "[\"ovnj-barrier\"]");
        assertThat(c).isCompleted();
        assertThat(WireChannel.readOutbound(channel)).isNull();
    }

    @Test
    void orderedServerConfirmsWithTheReplyAlone() throws Exception {
        session.synced = true;
        TransactionRunner runner = new TransactionRunner(OPTIONS, callbacks, () -> session, java.util.Optional::empty);
        CompletableFuture<TransactionResult> tx = runner.transact(Transaction.builder(SCHEMA).add(Operations.comment("x")).build());
        reply(sent("transact"), "[{}]");
        assertThat(tx.get(5, TimeUnit.SECONDS)).isNotNull();
        assertThat(WireChannel.readOutbound(channel)).as("no barrier").isNull();
    }

    @Test
    void committedButUnconfirmedIsItsOwnNonRetriableFailure() {
        session.synced = true;
        session.confirmation = WriteConfirmation.barrier(session, Duration.ZERO);
        TransactionRunner runner = new TransactionRunner(OPTIONS, callbacks, () -> session, java.util.Optional::empty);
        CompletableFuture<TransactionResult> tx = runner.transact(Transaction.builder(SCHEMA).add(Operations.comment("x")).build());
        reply(sent("transact"), "[{}]");
        channel.runPendingTasks();
        sent("echo");
        channel.close();
        Throwable cause = failure(tx);
        assertThat(cause).isInstanceOf(CommitUnconfirmedException.class);
        assertThat(((CommitUnconfirmedException) cause).retriable()).isFalse();
        assertThat(((CommitUnconfirmedException) cause).result()).isNotNull();
    }

    @Test
    void aTransactionCutBeforeItsReplyStaysRetriable() {
        session.synced = true;
        TransactionRunner runner = new TransactionRunner(OPTIONS, callbacks, () -> session, java.util.Optional::empty);
        CompletableFuture<TransactionResult> tx = runner.transact(Transaction.builder(SCHEMA).add(Operations.comment("x")).build());
        sent("transact");
        channel.close();
        assertThat(failure(tx)).isInstanceOf(dev.ovnj.ovsdb.ConnectionClosedException.class);
    }

    private static Throwable failure(CompletableFuture<?> f) {
        try {
            f.get(5, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private UpdateRouter router(LockManager locks) {
        CacheFeed feed = new CacheFeed(new RowCache());
        MonitorRegistry monitors = new MonitorRegistry(OPTIONS, callbacks, new ListenerFence(), feed);
        return new UpdateRouter(callbacks, feed, monitors, locks, (s, u) -> { });
    }

    private static RpcNotification notification(String method, String params) {
        return new RpcNotification(method, (ArrayNode) json(params));
    }

    @Test
    void aThrowingLockListenerIsFencedAndTheConnectionStays() {
        ListenerFence fence = new ListenerFence();
        LockManager locks = new LockManager(OPTIONS, callbacks, fence, () -> session);
        AtomicInteger calls = new AtomicInteger();
        locks.addListener(new LockListener() {
            @Override
            public void locked(String lockId) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void stolen(String lockId) {
                calls.incrementAndGet();
                throw new AssertionError("listener bug");
            }
        });
        UpdateRouter router = router(locks);
        router.route(session, notification("locked", "[\"L\"]"));
        router.route(session, notification("stolen", "[\"L\"]"));
        assertThat(calls).hasValue(2);
        assertThat(fence.failures()).isEqualTo(2);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aMalformedUpdateOfTheMainMonitorDropsTheConnectionToResync() {
        UpdateRouter router = router(new LockManager(OPTIONS, callbacks, new ListenerFence(), () -> session));
        router.route(session, notification("update3", "[\"ovnj-OVN_Northbound\"]"));
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void callbackThreadAfterCloseDropsNotificationsButCompletesFutures() {
        callbacks.close();
        callbacks.execute(() -> {
            throw new AssertionError("must not run after close");
        });
        CompletableFuture<String> f = new CompletableFuture<>();
        callbacks.complete(f, "done", null);
        assertThat(f).isCompletedWithValue("done");
    }

    @Test
    void changedConditionsReplaceOnlyTheWhereOfTheNamedTables() {
        MonitorRequest request = MonitorRequest.of(TableMonitor.all("Load_Balancer").columns("name"), TableMonitor.all("Logical_Switch"));
        MonitorRequest changed = request.withConditions(List.of(TableMonitor.all("Load_Balancer")
                .where(Condition.includes("external_ids", Map.of("owner", "me"))), TableMonitor.all("ACL").where(Condition.eq("name", "x"))));
        List<TableMonitor> resolved = changed.resolve(SCHEMA);
        assertThat(resolved).extracting(TableMonitor::table).containsExactlyInAnyOrder("Load_Balancer", "Logical_Switch");
        TableMonitor lb = resolved.stream().filter(t -> t.table().equals("Load_Balancer")).findFirst().orElseThrow();
        assertThat(lb.columns()).containsExactly("name");
        assertThat(lb.where()).hasSize(1);
        assertThat(MonitorRequest.allTables().withConditions(List.of(TableMonitor.all("ACL").where(Condition.eq("name", "x"))))
                .resolve(SCHEMA).stream().filter(t -> t.table().equals("ACL")).findFirst().orElseThrow().where()).hasSize(1);
    }

    @Test
    void aRelayIsAcceptedWhileConnectedToItsSourceWhateverItsLeaderColumn() throws Exception {
        ServerCheck relay = ServerCheck.fromUpdates2(json("{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"initial\":"
                + "{\"connected\":true,\"model\":\"relay\",\"name\":\"OVN_Northbound\"}}}}"), "OVN_Northbound", null);
        assertThat(relay.model()).isEqualTo(ServerModel.RELAY);
        assertThat(relay.refusal(true)).isEmpty();
        ServerCheck cut = ServerCheck.fromUpdates2(json("{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"modify\":"
                + "{\"connected\":false}}}}"), "OVN_Northbound", relay);
        assertThat(cut.refusal(true)).contains("is a relay not connected to its source");
        ServerCheck follower = new ServerCheck(true, ServerModel.CLUSTERED, true, false, java.util.OptionalLong.empty());
        assertThat(follower.refusal(true)).contains("is not the cluster leader");
        assertThat(follower.refusal(false)).isEmpty();
    }

    private void error(JsonNode request, String error) {
        channel.writeInbound(json("{\"id\":" + request.get("id") + ",\"result\":null,\"error\":\"" + error + "\"}"));
    }

    private static final String RELAY_ROW = "{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"initial\":"
            + "{\"name\":\"OVN_Northbound\",\"model\":\"relay\",\"connected\":%s}}}}";

    @Test
    void handshakeRefusesARelayCutFromItsSource() {
        CompletableFuture<Session> f = new Handshake(OPTIONS).run(session);
        reply(sent("monitor_cond"), RELAY_ROW.formatted("false"));
        assertThat(failure(f)).isInstanceOf(ConnectionRejectedException.class).hasMessageContaining("relay not connected to its source");
    }

    @Test
    void handshakeAcceptsAConnectedRelayWhoseWritesNeedNoBarrier() throws Exception {
        CompletableFuture<Session> f = new Handshake(OPTIONS).run(session);
        reply(sent("monitor_cond"), RELAY_ROW.formatted("true"));
        reply(sent("get_schema"), Schemas.ovnNorthboundJson());
        reply(sent("set_db_change_aware"), "{}");
        assertThat(f.get(5, TimeUnit.SECONDS)).isSameAs(session);
        assertThat(session.model()).isEqualTo(ServerModel.RELAY);
        assertThat(session.confirmation).isSameAs(WriteConfirmation.ORDERED);
    }

    @Test
    void handshakeWithAServerThatHasNoServerDatabaseConfirmsWritesWithABarrier() throws Exception {
        CompletableFuture<Session> f = new Handshake(OPTIONS).run(session);
        error(sent("monitor_cond"), "unknown database");
        reply(sent("get_schema"), Schemas.ovnNorthboundJson());
        reply(sent("set_db_change_aware"), "{}");
        assertThat(f.get(5, TimeUnit.SECONDS)).isSameAs(session);
        assertThat(session.model()).isEqualTo(ServerModel.UNKNOWN);
        assertThat(session.confirmation).isNotSameAs(WriteConfirmation.ORDERED);
    }

    private static Session otherSession(EmbeddedChannel ch, RpcConnection conn) {
        Session s = new Session(2, Remote.parse("tcp:127.0.0.1:2"), ch, conn);
        s.schema = SCHEMA;
        s.synced = true;
        return s;
    }

    @Test
    void wantedLocksAreRequestedAgainOnANewSessionUntilUnlocked() throws Exception {
        session.synced = true;
        LockManager locks = new LockManager(OPTIONS, callbacks, new ListenerFence(), () -> session);
        CompletableFuture<Boolean> granted = locks.lock("leader");
        reply(sent("lock"), "{\"locked\":true}");
        assertThat(granted.get(5, TimeUnit.SECONDS)).isTrue();

        RpcConnection conn2 = new RpcConnection(Runnable::run, n -> { });
        EmbeddedChannel ch2 = WireChannel.of(conn2);
        locks.resume(otherSession(ch2, conn2));
        JsonNode again = WireChannel.readOutbound(ch2);
        assertThat(again.path("method").asText()).isEqualTo("lock");
        assertThat(again.path("params").get(0).asText()).isEqualTo("leader");

        locks.unlock("leader");
        assertThat(sent("unlock").path("params").get(0).asText()).isEqualTo("leader");
        RpcConnection conn3 = new RpcConnection(Runnable::run, n -> { });
        EmbeddedChannel ch3 = WireChannel.of(conn3);
        locks.resume(otherSession(ch3, conn3));
        assertThat(WireChannel.readOutbound(ch3)).as("a released lock is not requested again").isNull();
        ch2.close();
        ch3.close();
        WireChannel.release(ch2);
        WireChannel.release(ch3);
    }

    @Test
    void theNextSessionMonitorsWithTheChangedConditions() {
        session.schema = SCHEMA;
        session.synced = true;
        session.monitorMethod = dev.ovnj.ovsdb.monitor.MonitorMethod.MONITOR_COND_SINCE;
        MonitorRegistry monitors = new MonitorRegistry(OPTIONS, callbacks, new ListenerFence(), new CacheFeed(new RowCache()));
        CompletableFuture<Void> changed = monitors.changeConditions(session,
                List.of(TableMonitor.all("Load_Balancer").where(Condition.eq("name", "only-me"))));
        reply(sent("monitor_cond_change"), "{}");
        assertThat(changed).succeedsWithin(Duration.ofSeconds(5));

        RpcConnection conn2 = new RpcConnection(Runnable::run, n -> { });
        EmbeddedChannel ch2 = WireChannel.of(conn2);
        monitors.establishMain(otherSession(ch2, conn2));
        JsonNode monitor = WireChannel.readOutbound(ch2);
        assertThat(monitor.path("method").asText()).isEqualTo("monitor_cond_since");
        assertThat(monitor.path("params").get(2).path("Load_Balancer").path("where").toString()).contains("only-me");
        ch2.close();
        WireChannel.release(ch2);
    }

    @Test
    void aConditionChangeCutOffWithItsSessionIsWhatTheNextSessionMonitorsFromAFullSnapshot() {
        session.schema = SCHEMA;
        session.synced = true;
        session.monitorMethod = dev.ovnj.ovsdb.monitor.MonitorMethod.MONITOR_COND_SINCE;
        CacheFeed feed = new CacheFeed(new RowCache());
        feed.apply(new dev.ovnj.ovsdb.monitor.UpdateBatch(List.of(), java.util.Optional.empty()), SEEN_TXN);
        MonitorRegistry monitors = new MonitorRegistry(OPTIONS, callbacks, new ListenerFence(), feed);
        CompletableFuture<Void> changed = monitors.changeConditions(session,
                List.of(TableMonitor.all("Load_Balancer").where(Condition.eq("name", "only-me"))));
        sent("monitor_cond_change");
        channel.close();
        assertThat(changed).failsWithin(Duration.ofSeconds(5));

        JsonNode monitor = establishOnANewSession(monitors);
        assertThat(monitor.path("params").get(2).path("Load_Balancer").path("where").toString()).contains("only-me");
        assertThat(monitor.path("params").get(3).asText()).as("no resume point: a full snapshot").isEqualTo(CacheFeed.ZERO_TXN);
    }

    @Test
    void conditionsTheServerRefusesAreNotWhatTheNextSessionMonitors() {
        session.schema = SCHEMA;
        session.synced = true;
        session.monitorMethod = dev.ovnj.ovsdb.monitor.MonitorMethod.MONITOR_COND_SINCE;
        CacheFeed feed = new CacheFeed(new RowCache());
        feed.apply(new dev.ovnj.ovsdb.monitor.UpdateBatch(List.of(), java.util.Optional.empty()), SEEN_TXN);
        MonitorRegistry monitors = new MonitorRegistry(OPTIONS, callbacks, new ListenerFence(), feed);
        CompletableFuture<Void> changed = monitors.changeConditions(session,
                List.of(TableMonitor.all("Load_Balancer").where(Condition.eq("name", "only-me"))));
        error(sent("monitor_cond_change"), "syntax error");
        assertThat(changed).failsWithin(Duration.ofSeconds(5));

        JsonNode monitor = establishOnANewSession(monitors);
        assertThat(monitor.path("params").get(2).path("Load_Balancer").path("where").toString()).doesNotContain("only-me");
        assertThat(monitor.path("params").get(3).asText()).as("the cache is what the old conditions give: it resumes").isEqualTo(SEEN_TXN);
    }

    private static final String SEEN_TXN = "4b8f6f6e-1b2c-4d3e-8f40-000000000001";

    private JsonNode establishOnANewSession(MonitorRegistry monitors) {
        RpcConnection conn2 = new RpcConnection(Runnable::run, n -> { });
        EmbeddedChannel ch2 = WireChannel.of(conn2);
        monitors.establishMain(otherSession(ch2, conn2));
        JsonNode monitor = WireChannel.readOutbound(ch2);
        assertThat(monitor.path("method").asText()).isEqualTo("monitor_cond_since");
        ch2.close();
        WireChannel.release(ch2);
        return monitor;
    }
}
