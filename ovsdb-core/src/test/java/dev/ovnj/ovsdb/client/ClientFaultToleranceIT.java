package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.RowUpdate;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import dev.ovnj.testkit.StderrCapture;
import dev.ovnj.testkit.fault.FaultProxy;
import dev.ovnj.testkit.scripted.ScriptedConnection;
import dev.ovnj.testkit.scripted.ScriptedOvsdbServer;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The client carries on through faults of its listeners and its connections: a listener that
 * throws is counted and the connection stays; a reconnect restores changed conditions and side
 * monitors and ignores what the old connection still delivers; a commit the cache could not
 * confirm is reported as not retriable; close leaves no thread behind, and closeBeforeExit none of
 * the client's own.
 */
class ClientFaultToleranceIT {

    private static void assertStillOnFirstConnection(OvsdbClient client, Clients.EventLog events) throws InterruptedException {
        // A dropped connection is reported within milliseconds; half a second is ample on a loaded machine.
        client.transactAndWait(client.transaction().add(Operations.comment("round trip")).build(), WAIT);
        Thread.sleep(500);
        assertThat(events.count(ConnectionEvent.Kind.DISCONNECTED)).as("disconnects").isZero();
        assertThat(client.stats().connects()).isEqualTo(1);
    }

    @Test
    void throwingLockListenerDoesNotDropTheConnection() throws Exception {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient holder = Clients.connect(server.remote());
             OvsdbClient thief = Clients.connect(server.remote())) {
            Clients.EventLog events = new Clients.EventLog();
            holder.addConnectionListener(events);
            AtomicInteger calls = new AtomicInteger();
            holder.addLockListener(new LockListener() {
                @Override
                public void locked(String lockId) {
                    calls.incrementAndGet();
                    throw new IllegalStateException("bug in a lock listener");
                }

                @Override
                public void stolen(String lockId) {
                    calls.incrementAndGet();
                    // What a listener that hands work to an executor its owner already shut down throws.
                    throw new java.util.concurrent.RejectedExecutionException("owner closed");
                }
            });
            assertThat(holder.lock("leader").get(20, TimeUnit.SECONDS)).isTrue();
            assertThat(thief.steal("leader").get(20, TimeUnit.SECONDS)).isTrue();
            Await.until(WAIT, "stolen delivered", () -> calls.get() >= 1);
            assertStillOnFirstConnection(holder, events);
        }
    }

    @Test
    void throwingSideMonitorListenerDoesNotDropTheConnection() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            Clients.EventLog events = new Clients.EventLog();
            client.addConnectionListener(events);
            AtomicInteger calls = new AtomicInteger();
            SideMonitor side = client.monitor(MonitorRequest.tables("Logical_Switch"), batch -> {
                if (batch.updates().stream().anyMatch(u -> u.kind() == RowUpdate.Kind.INSERT)) {
                    calls.incrementAndGet();
                    throw new IllegalStateException("bug in a side monitor listener");
                }
            }).get(20, TimeUnit.SECONDS);
            Nbctl.of(server).run("ls-add", "sw0");
            Await.until(WAIT, "insert delivered", () -> calls.get() >= 1);
            assertStillOnFirstConnection(client, events);
            assertThat(side.ended()).isNotDone();
            Nbctl.of(server).run("ls-add", "sw1");
            Await.until(WAIT, "the side monitor keeps delivering", () -> calls.get() >= 2);
        }
    }

    @Test
    void throwingCacheListenerIsCountedAndTheCacheCarriesOn() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            Clients.EventLog events = new Clients.EventLog();
            client.addConnectionListener(events);
            client.cache().addListener(batch -> {
                throw new AssertionError("bug in a cache listener");
            });
            Nbctl.of(server).run("ls-add", "sw0");
            Clients.awaitRow(client, "Logical_Switch", "sw0");
            Nbctl.of(server).run("ls-add", "sw1");
            Clients.awaitRow(client, "Logical_Switch", "sw1");
            assertStillOnFirstConnection(client, events);
            assertThat(client.listenerFailures()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void changedConditionsSurviveAReconnect() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "a");
            nbctl.run("ls-add", "b");
            TableMonitor onlyA = TableMonitor.all("Logical_Switch").where(Condition.eq("name", "a"));
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .monitor(MonitorRequest.of(onlyA)).build().startAndWait(WAIT)) {
                client.changeConditions(TableMonitor.all("Logical_Switch").where(Condition.eq("name", "b"))).join();
                Await.until(WAIT, "cache holds b only", () -> names(client).equals(List.of("b")));
                server.restart();
                Await.until(WAIT, "second sync", () -> client.stats().connects() == 2 && client.isSynced());
                assertThat(names(client)).containsExactly("b");
            }
        }
    }

    /**
     * OVS's IDL suite (*simple idl, monitor_cond_since, cluster disconnect*) found it: a condition
     * change cut off with its connection was forgotten, and the next connection resumed with the
     * old conditions. The IDLs monitor the newest ones, from a full snapshot.
     */
    @Test
    void aConditionChangeCutOffWithItsConnectionIsWhatTheNextConnectionMonitors() {
        try (OvsdbServer server = OvsdbServer.start(); FaultProxy proxy = FaultProxy.to(server)) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "a");
            nbctl.run("ls-add", "b");
            TableMonitor onlyA = TableMonitor.all("Logical_Switch").where(Condition.eq("name", "a"));
            try (OvsdbClient client = OvsdbClient.builder().remotes(proxy.remote())
                    .monitor(MonitorRequest.of(onlyA)).build().startAndWait(WAIT)) {
                assertThat(names(client)).containsExactly("a");
                // The request never reaches the server: the proxy holds it and then cuts the connection.
                proxy.blackhole();
                CompletableFuture<Void> change = client.changeConditions(
                        TableMonitor.all("Logical_Switch").where(Condition.eq("name", "b")));
                proxy.resetAll();
                proxy.heal();
                assertThat(change).failsWithin(WAIT);
                Await.until(WAIT, "second sync", () -> client.stats().connects() == 2 && client.isSynced());
                assertThat(names(client)).containsExactly("b");
                nbctl.run("ls-add", "c");
                nbctl.run("set", "Logical_Switch", "b", "other_config:x=y");
                Await.until(WAIT, "b's change arrives", () -> client.cache().table("Logical_Switch").rows().get(0)
                        .get("other_config").equals(java.util.Map.of("x", "y")));
                assertThat(names(client)).containsExactly("b");
            }
        }
    }

    private static List<Object> names(OvsdbClient client) {
        return client.cache().table("Logical_Switch").rows().stream().map(r -> r.get("name")).toList();
    }

    @Test
    void sideMonitorIsReopenedAfterAReconnect() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            List<UpdateBatch> batches = new CopyOnWriteArrayList<>();
            SideMonitor side = client.monitor(MonitorRequest.tables("Logical_Switch"), batches::add).get(20, TimeUnit.SECONDS);
            server.restart();
            Await.until(WAIT, "second sync", () -> client.stats().connects() == 2 && client.isSynced());
            Nbctl.of(server).run("ls-add", "after-restart");
            Await.until(WAIT, "the side monitor sees changes made after the reconnect", () -> batches.stream()
                    .flatMap(b -> b.updates().stream()).anyMatch(u -> "after-restart".equals(u.row().path("name").asText())));
            assertThat(side.ended()).isNotDone();
            side.cancel().get(20, TimeUnit.SECONDS);
            assertThat(side.ended()).isDone();
        }
    }

    /** A server without _Server (so the client confirms writes with a barrier) that dies on the barrier. */
    private static void diesOnBarrier(ScriptedConnection c, JsonNode m) {
        switch (m.path("method").asText()) {
            case "get_schema" -> c.reply(m, c.json(Schemas.ovnNorthboundJson().replace('"', '\'')));
            case "monitor_cond_since" -> c.reply(m, c.json("[false,'00000000-0000-0000-0000-000000000000',{}]"));
            case "transact" -> c.reply(m, c.json("[{}]"));
            case "echo" -> {
                if (m.path("params").size() > 0) {
                    c.close();
                } else {
                    c.reply(m, m.get("params"));
                }
            }
            default -> c.error(m, "unknown method");
        }
    }

    @Test
    void commitConfirmedByTheServerButNotByTheCacheIsNotRetriable() throws Exception {
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(ClientFaultToleranceIT::diesOnBarrier);
             OvsdbClient client = Clients.connect(server.remote())) {
            CompletableFuture<?> tx = client.transact(client.transaction().add(Operations.comment("x")).build());
            Throwable cause;
            try {
                tx.get(20, TimeUnit.SECONDS);
                throw new AssertionError("the transaction should not be reported as confirmed");
            } catch (ExecutionException e) {
                cause = e.getCause();
            }
            assertThat(cause.getClass().getSimpleName()).isEqualTo("CommitUnconfirmedException");
            assertThat(((OvsdbRpcException) cause).retriable()).isFalse();
        }
    }

    @Test
    void closeLeavesNoNonDaemonThread() {
        Await.until(Duration.ofSeconds(10), "no global event executor thread from earlier tests", () -> globalExecutorThreads().isEmpty());
        try (OvsdbServer server = OvsdbServer.start()) {
            OvsdbClient client = Clients.connect(server.remote());
            long start = System.nanoTime();
            client.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close() time").isLessThan(Duration.ofSeconds(3));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < deadline) {
                assertThat(globalExecutorThreads()).as("non-daemon threads after close").isEmpty();
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void closeBeforeExitEndsTheClientsThreadsWithoutWaitingForNettysSharedOne() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Set<Thread> before = Set.copyOf(ovnjThreads());
            OvsdbClient client = Clients.connect(server.remote());
            List<Thread> own = ovnjThreads().stream().filter(t -> !before.contains(t)).toList();
            assertThat(own).as("the client's I/O and callback threads").hasSizeGreaterThanOrEqualTo(2);
            // Netty's shared thread stays busy until the close has returned (or gives up after 20 s):
            // close() waits for that thread, and would return only after this task gave up.
            CountDownLatch returned = new CountDownLatch(1);
            Future<Boolean> shared = GlobalEventExecutor.INSTANCE.submit(() -> returned.await(20, TimeUnit.SECONDS));
            client.closeBeforeExit();
            returned.countDown();
            assertThat(shared.get(30, TimeUnit.SECONDS)).as("closeBeforeExit() returned while Netty's shared thread was busy").isTrue();
            for (Thread t : own) {
                t.join(WAIT.toMillis()); // ended, or ending: their executors have terminated
            }
            assertThat(own).as("the client's own threads after closeBeforeExit()").noneMatch(Thread::isAlive);
            assertThat(client.isSynced()).isFalse();
            client.close(); // a no-op after closeBeforeExit(): it returns at once
        }
    }

    private static List<Thread> ovnjThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("ovnj")).toList();
    }

    private static List<Thread> globalExecutorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon() && (t.getName().startsWith("globalEventExecutor") || t.getName().startsWith("ovnj")))
                .toList();
    }

    @Test
    void reconnectLogsOneInfoLinePerStateChangeAndNoStackTrace() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); StderrCapture log = StderrCapture.start()) {
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                    .backoff(Duration.ofMillis(20), Duration.ofMillis(100)).build().startAndWait(WAIT)) {
                server.stop();
                Await.until(WAIT, "disconnect noticed", () -> !client.isSynced());
                Thread.sleep(1500); // a dozen failed rounds at this backoff
                server.restart();
                Await.until(WAIT, "reconnected", () -> client.stats().connects() == 2 && client.isSynced());
            }
            List<String> lines = log.text().lines().filter(l -> l.contains("ConnectionSupervisor")).toList();
            assertThat(lines.stream().filter(l -> l.contains("disconnected from"))).hasSize(1);
            assertThat(lines.stream().filter(l -> l.contains("no usable server"))).as(String.join("\n", lines)).hasSize(1);
            assertThat(lines.stream().filter(l -> l.contains("connected to ") && !l.contains("disconnected"))).hasSize(2);
            assertThat(log.text()).as("stack traces belong at DEBUG").doesNotContain("\tat ");
        }
    }

    /** A cluster member that is leader at the given log index, on top of the fake Northbound. */
    static final class Member extends HostileServerIT.FakeNorthbound {
        private final int index;

        Member(int index) {
            this.index = index;
        }

        @Override
        public void onMessage(ScriptedConnection c, JsonNode m) {
            if ("monitor_cond".equals(m.path("method").asText()) && "_Server".equals(m.path("params").path(0).asText())) {
                c.reply(m, c.json(("{'Database':{'a112befa-c0e4-4328-b3b0-8ab8074e2d6e':{'initial':{'name':'OVN_Northbound',"
                        + "'model':'clustered','connected':true,'leader':true,'index':" + index + "}}}}").replace('\'', '"')));
            } else {
                super.onMessage(c, m);
            }
        }

        void serverModify(String row) {
            last.sendRaw(("{'id':null,'method':'update2','params':['ovnj-server',{'Database':{'a112befa-c0e4-4328-b3b0-8ab8074e2d6e':"
                    + "{'modify':" + row + "}}}]}").replace('\'', '"'));
        }
    }

    @Test
    void aLateServerUpdateFromTheOldConnectionCannotUnseatTheNextLeader() throws Exception {
        Member a = new Member(5);
        Member b = new Member(8);
        try (ScriptedOvsdbServer serverA = ScriptedOvsdbServer.start(a); ScriptedOvsdbServer serverB = ScriptedOvsdbServer.start(b)) {
            Clients.EventLog events = new Clients.EventLog();
            java.util.concurrent.atomic.AtomicBoolean slow = new java.util.concurrent.atomic.AtomicBoolean();
            OvsdbClient client = OvsdbClient.builder().remotes(serverA.remote() + "," + serverB.remote())
                    .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).build();
            client.addConnectionListener(events);
            client.cache().addListener(batch -> {
                if (slow.getAndSet(false)) {
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            try (client) {
                client.startAndWait(WAIT);
                assertThat(client.connectedRemote()).contains(Remote.parse(serverA.remote()));
                slow.set(true);
                // Held up behind a slow cache listener, A's last _Server update is handled only after
                // the client has already moved to B.
                a.update(HostileServerIT.MONITOR, HostileServerIT.SW0, "modify", "{'name':'renamed'}");
                a.serverModify("{'leader':false}");
                serverA.close();
                Await.until(WAIT, "synced with B", () -> client.isSynced()
                        && client.connectedRemote().equals(java.util.Optional.of(Remote.parse(serverB.remote()))));
                b.serverModify("{'index':9}");
                Thread.sleep(1000);
                assertThat(client.connectedRemote()).contains(Remote.parse(serverB.remote()));
                assertThat(client.stats().connects()).isEqualTo(2);
                assertThat(events.count(ConnectionEvent.Kind.DISCONNECTED)).isEqualTo(1);
            }
        }
    }
}
