package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the packaged jar's demo as a separate process, the way the README's first command does. */
class DemoIT {

    @Test
    void demoAppliesThroughTheEngineAndRepairsDriftUnattended() {
        long start = System.nanoTime();
        OvnjProcess.Result r;
        try (OvnjProcess p = OvnjProcess.start("demo")) {
            r = p.await(Duration.ofSeconds(60));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("$ ovn-nbctl lb-list").contains("$ ovn-nbctl lr-lb-list shalb-dev")
                .contains("$ ovn-nbctl ls-lb-list shalb-dev-default")
                .contains("168.119.17.51:2379").contains("10.1.0.40:2379,10.1.0.41:2379")
                .contains("[fd00:10:1::100]:443").containsPattern("udp +168\\.119\\.17\\.51:53")
                .containsPattern("repaired shalb-dev-etcd-lb-tcp \\(recreated[^)]*\\) in \\d+\\.\\d ms")
                .containsPattern("repaired shalb-dev-ingress-tcp \\(vips\\) in \\d+\\.\\d ms")
                .contains("the database matches the desired state again")
                .contains("stopping ovsdb-server");
        assertThat(r.err()).isEmpty();
    }
}
