package dev.ovnj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the README's example against a 3-member RAFT cluster and reads back what it wrote with ovn-nbctl. */
class QuickstartIT {
    private static final String VIP = SeedTopology.FIRST_EIP + ":6443";

    @Test
    void declaresTheLoadBalancerOnAnEipAndRepairsItsDeletion() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl nbctl = Nbctl.of(cluster);
            SeedTopology.create(nbctl);

            try (Quickstart example = Quickstart.run(cluster.remotes(), out)) {
                assertThat(example.result().allApplied()).as(example.result().toString()).isTrue();
                assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-api-tcp", "vips"))
                        .isEqualTo("{\"" + VIP + "\"=\"10.1.0.10:6443,10.1.0.11:6443\"}");
                assertThat(nbctl.run("lr-lb-list", SeedTopology.ROUTER)).contains(VIP);
                assertThat(nbctl.run("ls-lb-list", SeedTopology.SWITCH)).contains(VIP);
                assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-api-tcp", "external_ids:ovnj.owner"))
                        .isEqualTo("shalb-dev");
                assertThat(nbctl.run("get", "Logical_Router_Port", SeedTopology.EXTERNAL_PORT, "external_ids"))
                        .isEqualTo("{ovnj.eip." + SeedTopology.FIRST_EIP + "=\"shalb-dev/api\"}");
                assertThat(printed.toString(StandardCharsets.UTF_8))
                        .contains("shalb-dev-api APPLIED []").contains("owner shalb-dev: 1 APPLIED").doesNotContain("repaired");

                // The listener half of the snippet: drift another client causes is printed as a repair.
                nbctl.run("lb-del", "shalb-dev-api-tcp");
                Await.until(Duration.ofSeconds(20), "repair printed",
                        () -> printed.toString(StandardCharsets.UTF_8).contains("repaired "));
                assertThat(printed.toString(StandardCharsets.UTF_8)).contains("repaired shalb-dev-api-tcp (recreated, attached to router shalb-dev");
                assertThat(nbctl.run("lr-lb-list", SeedTopology.ROUTER)).contains(VIP);
            }
        }
    }
}
