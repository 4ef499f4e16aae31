package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.Command;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Runs the packaged jar's demo as a separate process, the way the README's first command does. */
class DemoIT {

    @Test
    void demoAppliesThroughTheEngineAndRepairsDriftUnattended() {
        long start = System.nanoTime();
        OvnjProcess.Result r;
        long pid;
        try (OvnjProcess p = OvnjProcess.start("demo")) {
            pid = p.pid();
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
        Optional<String> noDataPlane = Chassis.unavailableReason();
        if (noDataPlane.isPresent()) {
            assertThat(r.out()).startsWith("real packets: not sent here (" + noDataPlane.get() + ")");
            return;
        }
        // Real packets: the EIP answered before the drift, each repair's blackout is printed under
        // it, and both VIPs answer after the repairs.
        assertThat(r.out()).contains("started a data plane").doesNotContain("real packets: not sent")
                .containsPattern("\\$ curl 168\\.119\\.17\\.51:2379 .*\nanswered by etcd[01] in \\d+ ms; the first answer came \\d+ ms after apply")
                .containsPattern("repaired shalb-dev-etcd-lb-tcp [^\n]*\n  traffic: the client's requests to 168\\.119\\.17\\.51:2379"
                        + " \\(one every 10 ms\\) were dark for \\d+ ms \\(\\d+ of \\d+ failed, the longest run \\d+ in a row\\)\n")
                .containsPattern("repaired shalb-dev-ingress-tcp \\(vips\\) [^\n]*\n  traffic: the client's requests to 168\\.119\\.17\\.51:443 ")
                .doesNotContain("still dark")
                .containsPattern("\\$ curl 168\\.119\\.17\\.51:443 .*\nanswered by ingress[01] in \\d+ ms\n");
        // Nothing of the demo's data plane is left: its namespaces are named after its pid.
        assertThat(Command.of("ip", "netns", "list").check()).doesNotContain("ovnj-" + pid + "-");
    }
}
