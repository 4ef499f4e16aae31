package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.InactivityTimeoutException;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.fault.FaultProxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Dead peers are found by the inactivity probe, as OVS does, and the client recovers. */
class ProbeIT {
    static final Duration PROBE = Duration.ofMillis(500);

    private static OvsdbClient client(String remote, Clients.EventLog log) {
        OvsdbClient c = OvsdbClient.builder().remotes(remote).probeInterval(PROBE)
                .requestTimeout(Duration.ofSeconds(2)).backoff(Duration.ofMillis(50), Duration.ofMillis(500)).build();
        c.addConnectionListener(log);
        return c;
    }

    private static long awaitDeathMillis(Clients.EventLog log) {
        long start = System.nanoTime();
        Await.until(WAIT, "connection declared dead", () -> log.events.stream()
                .anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED
                        && e.cause().filter(c -> c instanceof InactivityTimeoutException).isPresent()));
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void pausedServerIsDeclaredDeadWithinTwoProbeIntervalsAndRejoinedAfterResume() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(server.remote(), log)) {
                c.startAndWait(WAIT);
                server.pause();
                long ms = awaitDeathMillis(log);
                assertThat(ms).isLessThanOrEqualTo(2 * PROBE.toMillis() + 400);
                assertThat(c.isSynced()).isFalse();
                server.resume();
                Await.until(WAIT, "resynced after resume", c::isSynced);
                assertThat(c.stats().connects()).isGreaterThanOrEqualTo(2);
            }
        }
    }

    /**
     * Over a unix socket ovsdb-server sends no probes of its own: the client's echo and its answer
     * are the only traffic, so a paused server must be found by the client's probe alone.
     */
    @Test
    void pausedServerOnAUnixSocketIsDeclaredDeadWithinTwoProbeIntervals() {
        try (OvsdbServer server = OvsdbServer.builder().unixSocket(true).start()) {
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(server.unixRemote().orElseThrow(), log)) {
                c.startAndWait(WAIT);
                server.pause();
                long ms = awaitDeathMillis(log);
                assertThat(ms).isLessThanOrEqualTo(2 * PROBE.toMillis() + 400);
                server.resume();
                Await.until(WAIT, "resynced after resume", c::isSynced);
            }
        }
    }

    /**
     * An idle connection over a unix socket lives on echoes and their answers alone. An answer
     * that came within a millisecond, followed by a timer a little late, used to count as no
     * answer: the connection closed every few intervals on a loaded machine (issue 36).
     */
    @Test
    void idleUnixSocketConnectionStaysUpOnEchoesAlone() throws InterruptedException {
        try (OvsdbServer server = OvsdbServer.builder().unixSocket(true).start()) {
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = OvsdbClient.builder().remotes(server.unixRemote().orElseThrow()).probeInterval(Duration.ofMillis(100))
                    .build()) {
                c.addConnectionListener(log);
                c.startAndWait(WAIT);
                // 40 probe intervals, each ending in an echo and its answer.
                Thread.sleep(4000);
                assertThat(log.count(ConnectionEvent.Kind.DISCONNECTED)).isZero();
                assertThat(c.stats().connects()).isEqualTo(1);
            }
        }
    }

    @Test
    void blackholedConnectionIsDeclaredDeadAndRecoversAfterHeal() {
        try (OvsdbServer server = OvsdbServer.start(); FaultProxy proxy = FaultProxy.to(server)) {
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(proxy.remote(), log)) {
                c.startAndWait(WAIT);
                proxy.blackhole();
                long ms = awaitDeathMillis(log);
                assertThat(ms).isLessThanOrEqualTo(2 * PROBE.toMillis() + 400);
                proxy.heal();
                Await.until(WAIT, "resynced after heal", c::isSynced);
                dev.ovnj.testkit.Nbctl.of(server).run("ls-add", "after-heal");
                Clients.awaitRow(c, "Logical_Switch", "after-heal");
            }
        }
    }

    @Test
    void largeInitialSyncDoesNotTripTheProbe() {
        try (OvsdbServer server = OvsdbServer.start()) {
            dev.ovnj.testkit.Nbctl nbctl = dev.ovnj.testkit.Nbctl.of(server);
            StringBuilder vips = new StringBuilder();
            for (int i = 0; i < 2000; i++) {
                vips.append(i == 0 ? "" : " ").append("vips:\"10.0.").append(i / 250).append('.').append(i % 250)
                        .append(":80\"=\"10.1.0.1:80,10.1.0.2:80,10.1.0.3:80\"");
            }
            nbctl.run("create", "Load_Balancer", "name=big");
            for (int b = 0; b < 20; b++) {
                nbctl.run(("set Load_Balancer big " + vips).split(" "));
            }
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = OvsdbClient.builder().remotes(server.remote()).probeInterval(Duration.ofMillis(100)).build()) {
                c.addConnectionListener(log);
                c.startAndWait(WAIT);
                assertThat(log.count(ConnectionEvent.Kind.DISCONNECTED)).isZero();
            }
        }
    }
}
