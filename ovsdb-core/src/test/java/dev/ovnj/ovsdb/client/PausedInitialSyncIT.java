package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.InactivityTimeoutException;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A server frozen (SIGSTOP) for 10 s while the client makes its first, large sync. */
class PausedInitialSyncIT {
    static final Duration PROBE = Duration.ofSeconds(2);

    @Test
    void clientDeclaresTheFrozenServerDeadAndSyncsCorrectlyAfterItResumes() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            for (int lb = 0; lb < 10; lb++) {
                List<String> args = new ArrayList<>(List.of("create", "Load_Balancer", "name=big-" + lb));
                for (int i = 0; i < 1000; i++) {
                    args.add("vips:\"10." + lb + "." + i / 250 + "." + i % 250 + ":80\"=\"10.1.0.1:80,10.1.0.2:80\"");
                }
                nbctl.run(args.toArray(String[]::new));
            }
            Clients.EventLog log = new Clients.EventLog();
            OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).probeInterval(PROBE)
                    .backoff(Duration.ofMillis(100), Duration.ofSeconds(1)).build();
            client.addConnectionListener(log);
            // Frozen before the client starts, so that the handshake's replies are stuck behind
            // SIGSTOP (the kernel still accepts the connection). Pausing from a CONNECTING listener
            // raced with the connection: that listener runs on the callback thread, and a server
            // that answered the handshake before the signal froze composing the dump, which the
            // probe spares (the request timeout bounds it).
            server.pause();
            // The bound counts from the first connection attempt, not from the pause: the client's
            // start (class loading, the event loop) is not the probe's time.
            AtomicLong connectingAt = new AtomicLong();
            client.addConnectionListener(e -> {
                if (e.kind() == ConnectionEvent.Kind.CONNECTING) {
                    connectingAt.compareAndSet(0, System.nanoTime());
                }
            });
            long pausedAt = System.nanoTime();
            try (client) {
                client.start();
                // Before the first sync the probe's verdict fails the handshake's pending request, so it
                // arrives as the cause of a ConnectionClosedException.
                Await.until(WAIT, "declared dead", () -> log.events.stream().anyMatch(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED
                        && e.cause().filter(c -> c.getCause() instanceof InactivityTimeoutException).isPresent()));
                long deadAfterMs = (System.nanoTime() - connectingAt.get()) / 1_000_000;
                assertThat(deadAfterMs).as("declared dead within two probe intervals").isLessThanOrEqualTo(2 * PROBE.toMillis() + 1000);
                assertThat(client.isSynced()).isFalse();
                long remaining = 10_000 - (System.nanoTime() - pausedAt) / 1_000_000;
                Thread.sleep(Math.max(0, remaining));
                assertThat(client.stats().connects()).as("nothing synced while frozen").isZero();
                server.resume();

                client.startAndWait(WAIT);
                assertThat(client.stats().fullSyncs()).isEqualTo(1);
                Map<String, String> expected = new TreeMap<>();
                for (String line : nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips", "list", "Load_Balancer")
                        .split("\n")) {
                    String[] p = line.split(",", 2);
                    expected.put(p[0], String.valueOf(p[1].replace("\"", "").split(" ").length));
                }
                Map<String, String> cached = new TreeMap<>();
                client.cache().table("Load_Balancer").rows().forEach(r -> cached.put((String) r.get("name"),
                        String.valueOf(((Map<?, ?>) r.get("vips")).size())));
                assertThat(cached).as("name to number of VIPs, cache vs ovn-nbctl").isEqualTo(expected).hasSize(10)
                        .allSatisfy((name, vips) -> assertThat(vips).isEqualTo("1000"));
            }
        }
    }
}
