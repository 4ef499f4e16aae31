package dev.ovnj.testkit.lb;

import static dev.ovnj.testkit.lb.EngineAssertions.assertThatSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The assertions on what the engine wrote, against a real ovsdb-server: they pass on what
 * ovn-nbctl also sees, and fail, saying what was expected and what was written, when the
 * database differs.
 */
@OvsdbTest
class EngineAssertionsIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static LoadBalancerSpec web() {
        return LoadBalancerSpec.builder("web").routers("r1").switches("ls1")
                .tcp("10.0.0.10:80", "10.1.0.1:8080", "10.1.0.2:8080").udp("10.0.0.10:53", "10.1.0.3:53")
                .options(LbOptions.DEFAULTS.withReject(true)).build();
    }

    @Test
    void theRowsVipsOptionsAndAttachmentsOfAnAppliedSpecAreAsserted(OvsdbServer server) throws Exception {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("lr-add", "r1");
        nbctl.run("ls-add", "ls1");
        nbctl.run("ls-add", "ls2");
        try (OvsdbClient nb = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).build().start()) {
            nb.startAndWait(WAIT);
            ApplyResult result = engine.apply("team-a", List.of(web())).get(30, TimeUnit.SECONDS);
            assertThat(result.allApplied()).as(result.toString()).isTrue();

            assertThatSpec(engine, nb, "team-a", "web")
                    .isApplied()
                    .hasRowNames("web-tcp", "web-udp")
                    .hasVip("10.0.0.10:80", "10.1.0.1:8080", "10.1.0.2:8080")
                    .hasVip("10.0.0.10:53", "10.1.0.3:53")
                    .hasExactlyVips(Map.of("10.0.0.10:80", "10.1.0.1:8080,10.1.0.2:8080", "10.0.0.10:53", "10.1.0.3:53"))
                    .hasOption("reject", "true")
                    .isAttachedToRouters("r1")
                    .isAttachedToSwitches("ls1");
            // The same, as ovn-nbctl sees it.
            assertThat(nbctl.run("get", "Load_Balancer", "web-tcp", "options:reject")).isEqualTo("\"true\"");
            assertThat(nbctl.run("ls-lb-list", "ls1")).contains("web-tcp").contains("web-udp");
            assertThat(nbctl.run("ls-lb-list", "ls2")).isEmpty();

            WrittenSpec written = WrittenSpec.read(engine, nb, "team-a", "web");
            assertThat(written.routers()).containsExactly("r1");
            assertThat(written.status()).map(SpecStatus::state).contains(SpecStatus.State.APPLIED);

            // What differs from the expectation fails, naming it and showing what was written.
            assertThatThrownBy(() -> assertThatSpec(engine, nb, "team-a", "web").isAttachedToSwitches("ls1", "ls2"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("Expecting spec team-a/web to have switches [ls1, ls2], but found [ls1]")
                    .hasMessageContaining("row web-tcp vips {10.0.0.10:80=10.1.0.1:8080,10.1.0.2:8080}");
            assertThatThrownBy(() -> assertThatSpec(engine, nb, "team-a", "web").hasVip("10.0.0.10:80", "10.1.0.1:8080"))
                    .hasMessageContaining("to have VIP 10.0.0.10:80 -> 10.1.0.1:8080, but found 10.0.0.10:80 -> 10.1.0.1:8080,10.1.0.2:8080");
            assertThatThrownBy(() -> assertThatSpec(engine, nb, "team-a", "nope").isApplied())
                    .hasMessageContaining("to have state APPLIED, but found nothing declared under that name");
        }
    }

    @Test
    void aRemovedSpecHasNoRowsAndNothingDeclared(OvsdbServer server) throws Exception {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("lr-add", "r1");
        nbctl.run("ls-add", "ls1");
        try (OvsdbClient nb = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).build().start()) {
            nb.startAndWait(WAIT);
            engine.apply("team-a", List.of(web())).get(30, TimeUnit.SECONDS);
            assertThatSpec(engine, nb, "team-a", "web").hasRowNames("web-tcp", "web-udp");

            engine.apply("team-a", List.of()).get(30, TimeUnit.SECONDS);

            assertThatSpec(engine, nb, "team-a", "web").hasNoRows().isAttachedToRouters().isAttachedToSwitches();
            assertThatThrownBy(() -> assertThatSpec(engine, nb, "team-a", "web").hasState(SpecStatus.State.APPLIED))
                    .hasMessageContaining("but found nothing declared under that name");
            assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).isEmpty();
            assertThat(nbctl.run("lr-lb-list", "r1")).isEmpty();
        }
    }
}
