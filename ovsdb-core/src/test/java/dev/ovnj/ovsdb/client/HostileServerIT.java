package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.FrameTooLargeException;
import dev.ovnj.ovsdb.wire.StringTooLongException;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Schemas;
import dev.ovnj.testkit.scripted.ScriptedConnection;
import dev.ovnj.testkit.scripted.ScriptedOvsdbServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A server that misbehaves in ways ovsdb-server never does. The client must report each clearly,
 * recover by reconnecting and resyncing where the connection can no longer be trusted, and never
 * buffer without bound.
 */
class HostileServerIT {
    static final String MONITOR = "ovnj-OVN_Northbound";
    static final String SW0 = "00000000-0000-0000-0000-0000000000a0";

    /**
     * A fake Northbound server that holds Logical_Switch rows and answers the client's handshake
     * with them; tests add misbehaviour on top.
     */
    static class FakeNorthbound implements ScriptedOvsdbServer.Script {
        final Map<String, String> switches = new ConcurrentHashMap<>(Map.of(SW0, "sw0"));
        final AtomicInteger monitors = new AtomicInteger();
        volatile ScriptedConnection last;
        volatile String schema = Schemas.ovnNorthboundJson();

        @Override
        public void onMessage(ScriptedConnection c, JsonNode m) {
            switch (m.path("method").asText()) {
                case "get_schema" -> c.reply(m, c.json(schema.replace('"', '\'')));
                case "monitor_cond_since" -> {
                    last = c;
                    monitors.incrementAndGet();
                    ObjectNode rows = JsonNodeFactory.instance.objectNode();
                    switches.forEach((uuid, name) -> rows.putObject(uuid).putObject("initial").put("name", name));
                    ArrayNode result = JsonNodeFactory.instance.arrayNode().add(false).add("00000000-0000-0000-0000-000000000000");
                    result.addObject().set("Logical_Switch", rows);
                    c.reply(m, result);
                }
                case "echo" -> c.reply(m, m.get("params"));
                case "set_db_change_aware" -> c.reply(m, JsonNodeFactory.instance.objectNode());
                // No _Server database, as before OVS 2.9: the client skips the cluster checks.
                default -> c.error(m, "unknown method");
            }
        }

        /** Sends an update3 for {@code monitorId} changing one switch. */
        void update(String monitorId, String uuid, String kind, String row) {
            last.sendRaw(("{'id':null,'method':'update3','params':['" + monitorId + "','11111111-1111-1111-1111-111111111111',"
                    + "{'Logical_Switch':{'" + uuid + "':{'" + kind + "':" + row + "}}}]}").replace('\'', '"'));
        }
    }

    private static OvsdbClient client(String remote, Clients.EventLog log) {
        OvsdbClient c = OvsdbClient.builder().remotes(remote).backoff(Duration.ofMillis(20), Duration.ofMillis(200)).build();
        c.addConnectionListener(log);
        return c;
    }

    private static Map<String, String> switches(OvsdbClient c) {
        return c.cache().table("Logical_Switch").rows().stream()
                .collect(Collectors.toMap(r -> r.uuid().toString(), r -> (String) r.get("name"), (a, b) -> a, TreeMap::new));
    }

    @Test
    void repliesWithUnknownOrDuplicateIdsAndUpdatesOfOtherMonitorsAreIgnored() {
        FakeNorthbound fake = new FakeNorthbound() {
            @Override
            public void onMessage(ScriptedConnection c, JsonNode m) {
                super.onMessage(c, m);
                if ("echo".equals(m.path("method").asText()) && m.path("params").path(0).asText().equals("twice")) {
                    // The same id answered again, with a different result.
                    c.send(c.json("{'id':" + m.get("id") + ",'result':['forged'],'error':null}"));
                }
            }
        };
        Clients.EventLog log = new Clients.EventLog();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), log)) {
            c.startAndWait(WAIT);
            fake.last.sendRaw("{\"id\":987654,\"result\":{},\"error\":null}{\"id\":\"no-such\",\"result\":[],\"error\":null}");
            JsonNode echoed = c.call("echo", JsonNodeFactory.instance.arrayNode().add("twice")).join();
            assertThat(echoed.get(0).asText()).as("the first answer wins").isEqualTo("twice");
            fake.update("someone-elses-monitor", SW0, "modify", "{'name':'hijacked'}");
            // A legitimate update sent after the junk proves the connection kept working in order.
            fake.update(MONITOR, SW0, "modify", "{'name':'renamed'}");
            Await.until(WAIT, "legitimate update applied", () -> "renamed".equals(switches(c).get(SW0)));
            assertThat(c.stats().connects()).as("no reconnect").isEqualTo(1);
            assertThat(log.count(ConnectionEvent.Kind.DISCONNECTED)).isZero();
        }
    }

    @Test
    void updateOfARowTheCacheDoesNotHoldDropsTheConnectionAndResyncs() {
        FakeNorthbound fake = new FakeNorthbound();
        Clients.EventLog log = new Clients.EventLog();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), log)) {
            c.startAndWait(WAIT);
            String ghost = UUID.randomUUID().toString();
            // The server "forgot" to send the insert; its real state has the row.
            fake.switches.put(ghost, "ghost");
            fake.update(MONITOR, ghost, "modify", "{'name':'ghost'}");
            Await.until(WAIT, "resynced", () -> c.stats().connects() == 2 && c.isSynced());
            assertThat(c.stats().inconsistencies()).isEqualTo(1);
            assertThat(switches(c)).isEqualTo(new TreeMap<>(fake.switches));
            assertThat(fake.monitors.get()).isEqualTo(2);
        }
    }

    @Test
    void valueOfTheWrongTypeDropsTheConnectionAndResyncs() {
        FakeNorthbound fake = new FakeNorthbound();
        Clients.EventLog log = new Clients.EventLog();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), log)) {
            c.startAndWait(WAIT);
            fake.update(MONITOR, SW0, "modify", "{'name':['set',[1,2]]}");
            Await.until(WAIT, "resynced", () -> c.stats().connects() == 2 && c.isSynced());
            assertThat(switches(c)).containsEntry(SW0, "sw0");
            assertThat(log.count(ConnectionEvent.Kind.DISCONNECTED)).isEqualTo(1);
        }
    }

    /**
     * The connection dies after the monitor reply arrived but before the client applied it (held
     * up here by a slow cache listener). The client must notice and reconnect, not stay "synced"
     * on a closed connection.
     */
    @Test
    void connectionClosedWhileTheInitialReplyIsBeingAppliedIsNoticed() {
        FakeNorthbound fake = new FakeNorthbound() {
            @Override
            public void onMessage(ScriptedConnection c, JsonNode m) {
                super.onMessage(c, m);
                if ("monitor_cond_since".equals(m.path("method").asText()) && monitors.get() == 1) {
                    c.close();
                }
            }
        };
        AtomicInteger slowOnce = new AtomicInteger();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), new Clients.EventLog())) {
            c.cache().addListener(events -> {
                if (slowOnce.getAndIncrement() == 0) {
                    sleep(300);
                }
            });
            c.start();
            Await.until(WAIT, "reconnected after the lost connection", () -> fake.monitors.get() == 2 && c.stats().connects() == 2);
            Await.until(WAIT, "synced on a live connection", c::isSynced);
            assertThat(c.call("echo", JsonNodeFactory.instance.arrayNode().add("alive")).join().get(0).asText()).isEqualTo("alive");
        }
    }

    @Test
    void schemaWithoutVersionIsAcceptedAsOvsdbServerDoes() {
        FakeNorthbound fake = new FakeNorthbound();
        fake.schema = fake.schema.replaceFirst("\"version\"\\s*:\\s*\"[0-9.]+\"\\s*,", "");
        assertThat(fake.schema).doesNotContain("\"version\"");
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), new Clients.EventLog())) {
            c.startAndWait(WAIT);
            assertThat(c.schema().version()).isEmpty();
            assertThat(switches(c)).containsEntry(SW0, "sw0");
        }
    }

    @Test
    void endlessMessageTripsTheSizeLimitWithoutGrowingTheHeapAndTheClientRecovers() {
        int limit = 8 * 1024 * 1024;
        AtomicInteger streamedMiB = new AtomicInteger();
        FakeNorthbound fake = endlessAfterTheFirstMonitor(streamedMiB);
        Clients.EventLog log = new Clients.EventLog();
        long heapBefore = usedHeapAfterGc();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake);
             OvsdbClient c = OvsdbClient.builder().remotes(server.remote()).frameLimits(FrameLimits.defaults().withMaxMessageBytes(limit)
                     // The message limit is what this test trips: the string may be longer.
                     .withMaxStringLength(2 * limit))
                     .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).build()) {
            c.addConnectionListener(log);
            c.startAndWait(WAIT);
            Await.until(WAIT, "size limit tripped", () -> log.events.stream().anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED
                    && e.cause().filter(x -> x instanceof FrameTooLargeException).isPresent()));
            Await.until(WAIT, "resynced", () -> c.stats().connects() == 2 && c.isSynced());
            assertThat(streamedMiB.get()).as("MiB streamed before the client hung up: about the limit, not more").isBetween(8, 63);
            assertThat(usedHeapAfterGc() - heapBefore).as("heap growth").isLessThan(64L * 1024 * 1024);
            assertThat(switches(c)).containsEntry(SW0, "sw0");
        }
    }

    /**
     * The same endless string with the default limits: the message limit is 1 GiB (large
     * Southbound dumps need it), and the string alone stops at its own bound, measured in MiB.
     */
    @Test
    void endlessStringTripsTheStringBoundWithTheDefaultMessageLimitAndTheClientRecovers() {
        AtomicInteger streamedMiB = new AtomicInteger();
        FakeNorthbound fake = endlessAfterTheFirstMonitor(streamedMiB);
        Clients.EventLog log = new Clients.EventLog();
        long heapBefore = usedHeapAfterGc();
        try (ScriptedOvsdbServer server = ScriptedOvsdbServer.start(fake); OvsdbClient c = client(server.remote(), log)) {
            assertThat(c.options().frameLimits()).isEqualTo(FrameLimits.defaults());
            c.startAndWait(WAIT);
            Await.until(WAIT, "string bound tripped", () -> log.events.stream().anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED
                    && e.cause().filter(x -> x instanceof StringTooLongException).isPresent()));
            Throwable cause = log.events.stream().filter(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED)
                    .map(e -> e.cause().orElse(null)).filter(x -> x instanceof StringTooLongException).findFirst().orElseThrow();
            assertThat(cause).hasMessageContaining("maxStringLength=" + FrameLimits.DEFAULT_MAX_STRING_LENGTH);
            Await.until(WAIT, "resynced", () -> c.stats().connects() == 2 && c.isSynced());
            // 4 Mi characters; the rest is what was in flight when the client hung up.
            assertThat(streamedMiB.get()).as("MiB streamed before the client hung up").isBetween(4, 63);
            assertThat(usedHeapAfterGc() - heapBefore).as("heap growth").isLessThan(64L * 1024 * 1024);
            assertThat(switches(c)).containsEntry(SW0, "sw0");
        }
    }

    /** A fake that answers the first monitor request, then starts {@link #streamForever}. */
    private static FakeNorthbound endlessAfterTheFirstMonitor(AtomicInteger streamedMiB) {
        return new FakeNorthbound() {
            @Override
            public void onMessage(ScriptedConnection c, JsonNode m) {
                super.onMessage(c, m);
                if ("monitor_cond_since".equals(m.path("method").asText()) && monitors.get() == 1) {
                    Thread t = new Thread(() -> streamForever(c, streamedMiB), "endless-string");
                    t.setDaemon(true);
                    t.start();
                }
            }
        };
    }

    /** An update3 whose string value never ends, 1 MiB at a time, until the client hangs up. */
    private static void streamForever(ScriptedConnection c, AtomicInteger mib) {
        c.sendRaw("{\"id\":null,\"method\":\"update3\",\"params\":[\"" + MONITOR + "\",\"x\",{\"Logical_Switch\":{\"" + SW0
                + "\":{\"modify\":{\"name\":\"");
        String chunk = "a".repeat(1024 * 1024);
        // Capped so that a client without limits would fail the test, not the machine (about 1 GiB).
        while (c.isOpen() && mib.get() < 1024) {
            c.sendRaw(chunk);
            mib.incrementAndGet();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
