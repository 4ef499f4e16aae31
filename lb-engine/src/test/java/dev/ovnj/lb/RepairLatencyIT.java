package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Repair latency as the engine records it, over many drifts: reported as median and p99. The
 * bound asserted is deliberately loose (seconds, against kube-dc's 2-minute watcher); the real
 * numbers are measured by the bench module.
 */
class RepairLatencyIT {

    @Test
    void repairsAreRecordedWithMillisecondLatency() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<LoadBalancerSpec> specs = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                specs.add(LoadBalancerSpec.builder("svc" + i).routers("shalb-dev").switches("shalb-dev-default")
                        .tcp("168.119.17." + (52 + i) + ":443", "10.1.0." + i + ":443").tcp("168.119.17." + (52 + i) + ":80", "10.1.0." + i + ":80").build());
            }
            f.engine.apply("o", specs).get(20, TimeUnit.SECONDS);
            for (int n = 0; n < 40; n++) {
                int before = f.repairs.size();
                String row = "svc" + (n % 5) + "-tcp";
                if (n % 2 == 0) {
                    f.nbctl.run("lb-del", row);
                } else {
                    f.nbctl.run("lb-del", row, "168.119.17." + (52 + n % 5) + ":80");
                }
                Await.until(WAIT, "repair " + n, () -> f.repairs.size() > before);
                Await.until(WAIT, "in sync " + n, () -> f.engine.plan("o", specs).isEmpty());
            }
            List<Long> micros = f.repairs.stream().map(r -> r.latency().toNanos() / 1000).sorted().toList();
            long p50 = micros.get(micros.size() / 2);
            long p99 = micros.get(Math.min(micros.size() - 1, (int) Math.ceil(micros.size() * 0.99) - 1));
            System.out.printf("repair latency over %d repairs: p50 %.1f ms, p99 %.1f ms%n", micros.size(), p50 / 1000.0, p99 / 1000.0);
            assertThat(micros).hasSizeGreaterThanOrEqualTo(40);
            assertThat(Duration.ofNanos(p99 * 1000)).isLessThan(Duration.ofSeconds(2));
            assertThat(f.engine.metrics().repairs()).isGreaterThanOrEqualTo(40);
        }
    }
}
