package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client that cannot sync says why, and stops at once when waiting cannot help. */
class ConnectFailureIT {
    @TempDir
    Path dir;

    @Test
    void aServerThatDoesNotServeTheDatabaseFailsTheFirstSyncAtOnceWithWhatItServes() {
        try (OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient client = OvsdbClient.builder().remotes(sb.remote()).database("OVN_Northbound").build()) {
            long t0 = System.nanoTime();
            Throwable e = catchThrowable(() -> client.startAndWait(Duration.ofSeconds(20)));
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            assertThat(e).isInstanceOf(ConnectionRejectedException.class)
                    .hasMessageContaining("does not serve database OVN_Northbound").hasMessageContaining("OVN_Southbound");
            assertThat(((ConnectionRejectedException) e).isPermanent()).isTrue();
        }
    }

    @Test
    void aClientThatGaveUpSaysWhyAndFailsTransactionsAtOnce() throws Exception {
        try (OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient client = OvsdbClient.builder().remotes(sb.remote()).database("OVN_Northbound").build()) {
            java.util.concurrent.BlockingQueue<ConnectionEvent> events = new java.util.concurrent.LinkedBlockingQueue<>();
            client.addConnectionListener(events::add);
            assertThat(client.gaveUp()).isEmpty();
            assertThat(client.availability()).startsWith("connecting to");
            catchThrowable(() -> client.startAndWait(Duration.ofSeconds(20)));

            GaveUp why = client.gaveUp().orElseThrow();
            assertThat(why.remote().map(Remote::toString)).contains(sb.remote());
            assertThat(why.reason()).contains("does not serve database OVN_Northbound").contains("OVN_Southbound");
            assertThat(why.describe()).contains("gave up").contains(sb.remote());
            assertThat(client.availability()).isEqualTo(why.describe());
            ConnectionEvent e;
            do {
                e = events.poll(5, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(e).as("a GAVE_UP event").isNotNull();
            } while (e.kind() != ConnectionEvent.Kind.GAVE_UP);
            assertThat(e.cause()).containsSame(why.cause());

            // A request fails at once, naming the reason, and says retrying cannot help.
            Throwable tx = catchThrowable(() -> client.call("echo", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode()).get(1, java.util.concurrent.TimeUnit.SECONDS));
            assertThat(tx).isInstanceOf(java.util.concurrent.ExecutionException.class).cause()
                    .isInstanceOf(NotConnectedException.class).hasMessageContaining("OVN_Southbound");
            assertThat(((NotConnectedException) tx.getCause()).retriable()).isFalse();
        }
    }

    @Test
    void aTimedOutFirstSyncNamesTheLastAttemptsFailure() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String remote = "tcp:127.0.0.1:" + port;
        try (OvsdbClient client = OvsdbClient.builder().remotes(remote).build()) {
            Throwable e = catchThrowable(() -> client.startAndWait(Duration.ofMillis(1500)));
            assertThat(e).isInstanceOf(NotConnectedException.class)
                    .hasMessageContaining("did not complete within 1500 ms")
                    .hasMessageContaining("last attempt: cannot connect to " + remote);
        }
    }
}
