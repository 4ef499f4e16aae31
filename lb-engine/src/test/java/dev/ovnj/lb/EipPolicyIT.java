package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EipPolicyIT {
    static final LoadBalancerSpec OUTSIDE = LoadBalancerSpec.builder("outside").routers("shalb-dev")
            .tcp("203.0.113.10:443", "10.1.0.9:443").build();
    static final LoadBalancerSpec INSIDE = LoadBalancerSpec.builder("inside").routers("shalb-dev")
            .tcp("168.119.17.54:443", "10.1.0.9:443").build();

    @Test
    void warnPolicyWritesAndReportsTheUnroutableVip() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            ApplyResult r = f.engine.apply("o", List.of(OUTSIDE, INSIDE)).get(20, TimeUnit.SECONDS);
            assertThat(r.statuses().get("outside").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(r.statuses().get("outside").warnings()).singleElement().asString()
                    .contains("VIP 203.0.113.10:443 lies in no network of router shalb-dev's ports");
            assertThat(r.statuses().get("inside").warnings()).isEmpty();
            assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).contains("203.0.113.10:443");
        }
    }

    @Test
    void rejectPolicyWritesNothingUntilTheVipBecomesRoutable() throws Exception {
        withRejectingEngine((nbctl, client, engine) -> {
            ApplyResult r = engine.apply("o", List.of(OUTSIDE, INSIDE)).get(20, TimeUnit.SECONDS);
            assertThat(r.statuses().get("outside").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(r.statuses().get("outside").reasons()).singleElement().asString().contains("203.0.113.10:443");
            assertThat(r.statuses().get("inside").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).isEqualTo("inside-tcp");

            // The router gets a port on the VIP's network: the spec becomes routable and is written.
            nbctl.run("lrp-add", "shalb-dev", "shalb-dev-ext2", "02:00:00:00:00:02", "203.0.113.1/24");
            Await.until(WAIT, "written once routable", () -> nbctl.run("lr-lb-list", "shalb-dev").contains("203.0.113.10:443"));
            Await.until(WAIT, "status applied", () -> engine.status("o").get("outside").state() == SpecStatus.State.APPLIED);
        });
    }

    @Test
    void aChangedOrRemovedRouterPortNetworkIsSeenByTheNextAdmission() throws Exception {
        // The engine keeps the routers' networks between passes until a router or port changes:
        // each of these changes must reach the next spec it admits.
        withRejectingEngine((nbctl, client, engine) -> {
            assertThat(engine.apply("o", List.of(INSIDE)).get(20, TimeUnit.SECONDS).statuses().get("inside").state())
                    .isEqualTo(SpecStatus.State.APPLIED);

            // The port's network moves to 203.0.113.0/24: a VIP in the old one is no longer routable.
            nbctl.run("set", "Logical_Router_Port", "shalb-dev-ext", "networks=\"203.0.113.1/24\"");
            Await.until(WAIT, "port network changed in the cache", () -> client.cache().read(() -> client.cache()
                    .table("Logical_Router_Port").rows().stream().anyMatch(r -> r.get("networks").toString().contains("203.0.113.1/24"))));
            LoadBalancerSpec moved = LoadBalancerSpec.builder("moved").routers("shalb-dev").tcp("168.119.17.55:443", "10.1.0.9:443").build();
            LoadBalancerSpec routable = LoadBalancerSpec.builder("routable").routers("shalb-dev").tcp("203.0.113.10:443", "10.1.0.9:443").build();
            assertThatThrownBy(() -> engine.upsert("o", moved).get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(InvalidSpecException.class)
                    .hasMessageContaining("VIP 168.119.17.55:443 lies in no network of router shalb-dev");
            assertThat(engine.upsert("o", routable).get(20, TimeUnit.SECONDS).statuses().get("routable").state())
                    .isEqualTo(SpecStatus.State.APPLIED);

            // The port goes away: no network of the router holds any VIP.
            nbctl.run("lrp-del", "shalb-dev-ext");
            Await.until(WAIT, "port gone from the cache", () -> client.cache().table("Logical_Router_Port").size() == 0);
            LoadBalancerSpec orphan = LoadBalancerSpec.builder("orphan").routers("shalb-dev").tcp("203.0.113.11:443", "10.1.0.9:443").build();
            assertThatThrownBy(() -> engine.upsert("o", orphan).get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(InvalidSpecException.class)
                    .hasMessageContaining("VIP 203.0.113.11:443 lies in no network of router shalb-dev");
        });
    }

    /** What a test does with a seeded server, its client and a started engine with {@link EipPolicy#REJECT}. */
    private interface WithEngine {
        void run(Nbctl nbctl, OvsdbClient client, LoadBalancerEngine engine) throws Exception;
    }

    private static void withRejectingEngine(WithEngine test) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).eipPolicy(EipPolicy.REJECT).build().start()) {
                client.startAndWait(WAIT);
                test.run(nbctl, client, engine);
            }
        }
    }
}
