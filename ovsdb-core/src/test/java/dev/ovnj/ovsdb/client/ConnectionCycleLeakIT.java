package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.ResourceGauge;
import dev.ovnj.testkit.StderrCapture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Clients built, synced and closed over and over must give back every thread and direct buffer,
 * with Netty's leak detector at PARANOID watching every buffer. {@code -Dovnj.leakCycles=N}
 * changes the number of cycles (default 1,000).
 */
class ConnectionCycleLeakIT {
    static final int CYCLES = Integer.getInteger("ovnj.leakCycles", 1000);
    static final long DIRECT_TOLERANCE = 16L * 1024 * 1024;

    static final int BATCH = 50;

    /**
     * Builds, syncs and closes {@code n} clients, {@link #BATCH} at a time with their closes in
     * parallel.
     */
    private static void cycles(OvsdbServer server, int n) {
        for (int done = 0; done < n; done += BATCH) {
            List<OvsdbClient> batch = new ArrayList<>();
            for (int i = 0; i < Math.min(BATCH, n - done); i++) {
                batch.add(OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT));
            }
            List<Thread> closers = batch.stream().map(c -> new Thread(c::close, "closer")).toList();
            closers.forEach(Thread::start);
            for (Thread t : closers) {
                try {
                    t.join(WAIT.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    @Test
    void thousandConnectCloseCyclesReturnThreadsAndDirectMemoryAndLeakNoBuffer() {
        ResourceGauge.paranoidLeakDetection();
        try (OvsdbServer server = OvsdbServer.start(); StderrCapture err = StderrCapture.start()) {
            ResourceGauge.proveLeakReportsAreCaptured(err);
            cycles(server, 20);
            ResourceGauge base = ResourceGauge.read();
            cycles(server, CYCLES);
            Await.until(WAIT, "threads back to " + base.threads(), () -> ResourceGauge.read().threads() <= base.threads() + 2);
            ResourceGauge after = ResourceGauge.read();
            assertThat(after.jdkDirectBytes()).as("JDK direct buffers").isLessThanOrEqualTo(base.jdkDirectBytes() + DIRECT_TOLERANCE);
            if (base.nettyDirectBytes() >= 0) {
                assertThat(after.nettyDirectBytes()).as("Netty direct memory").isLessThanOrEqualTo(base.nettyDirectBytes() + DIRECT_TOLERANCE);
            }
            ResourceGauge.flushLeakReports();
            assertThat(err.text()).doesNotContain("LEAK:");
        }
    }
}
