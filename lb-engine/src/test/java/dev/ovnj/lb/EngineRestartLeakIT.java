package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.ResourceGauge;
import dev.ovnj.testkit.StderrCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An engine whose server is killed and restarted many times must not accumulate threads, direct
 * memory or unreleased buffers (Netty's leak detector at PARANOID). {@code -Dovnj.restarts=N}
 * changes the number of restarts (default 100).
 */
class EngineRestartLeakIT {
    static final int RESTARTS = Integer.getInteger("ovnj.restarts", 100);

    @Test
    void hundredServerRestartsUnderAnEngineLeakNothing() throws Exception {
        ResourceGauge.paranoidLeakDetection();
        try (EngineFixture f = new EngineFixture(); StderrCapture err = StderrCapture.start()) {
            ResourceGauge.proveLeakReportsAreCaptured(err);
            List<LoadBalancerSpec> specs = List.of(spec(1, 1), spec(2, 1), spec(3, 1));
            f.engine.apply(OWNER, specs).get(20, TimeUnit.SECONDS);
            restarts(f, 3);
            ResourceGauge base = ResourceGauge.read();
            restarts(f, RESTARTS);
            Await.until(WAIT, "threads back to " + base.threads(), () -> ResourceGauge.read().threads() <= base.threads() + 2);
            ResourceGauge after = ResourceGauge.read();
            assertThat(after.jdkDirectBytes()).isLessThanOrEqualTo(base.jdkDirectBytes() + 16L * 1024 * 1024);
            if (base.nettyDirectBytes() >= 0) {
                assertThat(after.nettyDirectBytes()).isLessThanOrEqualTo(base.nettyDirectBytes() + 16L * 1024 * 1024);
            }
            // Still working: drift made now is repaired.
            f.nbctl.run("lb-del", "svc-2-tcp");
            Await.until(WAIT, "repaired", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(specs)));
            ResourceGauge.flushLeakReports();
            assertThat(err.text()).doesNotContain("LEAK:");
        }
    }

    private static void restarts(EngineFixture f, int n) {
        for (int i = 0; i < n; i++) {
            long connects = f.client.stats().connects();
            f.server.kill();
            f.server.restart();
            Await.until(WAIT, "resynced after restart " + i, () -> f.client.stats().connects() > connects && f.engine.isAvailable());
        }
    }
}
