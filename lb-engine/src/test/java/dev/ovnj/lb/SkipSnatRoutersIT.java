package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code skipSnat} on a distributed router with a gateway port is refused (INVALID, nothing
 * written), its reason naming the router and why: OVN would leave the replies without un-DNAT
 * there (the CLI's {@code DoctorDataPlaneIT} shows every connection fail on a real data plane),
 * and the backends see the client's address there anyway. On a gateway router
 * ({@code options:chassis}), where {@code lb_force_snat_ip} applies and {@code skip_snat} works,
 * it is written. The router losing or gaining its gateway port re-judges the spec.
 */
class SkipSnatRoutersIT {
    private static LoadBalancerSpec spec(String name, String router, String vip, boolean skipSnat) {
        return LoadBalancerSpec.builder(name).routers(router).tcp(vip, "10.1.0.9:443")
                .options(LbOptions.DEFAULTS.withSkipSnat(skipSnat)).build();
    }

    @Test
    void skipSnatOnADistributedRouterIsRefusedNamingTheRouterAndOnAGatewayRouterWritten() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("lrp-set-gateway-chassis", "shalb-dev-ext", "hv1", "10",
                    "--", "lr-add", "gr", "--", "set", "logical_router", "gr", "options:chassis=hv1",
                    "--", "lrp-add", "gr", "gr-ext", "02:00:00:00:00:09", "168.119.17.1/28");
            ApplyResult r = f.engine.apply("o", List.of(spec("local", "shalb-dev", "168.119.17.52:443", true),
                    spec("cluster", "shalb-dev", "168.119.17.53:443", false), spec("gateway", "gr", "168.119.17.2:443", true)))
                    .get(20, TimeUnit.SECONDS);
            SpecStatus local = r.statuses().get("local");
            assertThat(local.state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(local.reasons()).singleElement().asString()
                    .startsWith("options.skipSnat on distributed router shalb-dev (gateway port shalb-dev-ext): OVN applies"
                            + " lb_force_snat_ip only on gateway routers (options:chassis)")
                    .contains("the backends see the client's address there without skip_snat (it is not needed)")
                    .contains("OVN would not un-DNAT the replies: they would leave with the backend's address")
                    .contains("not written");
            assertThat(f.nbctl.run("--bare", "--columns=name", "find", "load_balancer", "name=local-tcp")).isEmpty();
            assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).doesNotContain("168.119.17.52");

            assertThat(r.statuses().get("cluster").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(r.statuses().get("cluster").warnings()).isEmpty();
            SpecStatus gateway = r.statuses().get("gateway");
            assertThat(gateway.state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(gateway.warnings()).isEmpty();
            assertThat(f.nbctl.run("get", "load_balancer", "gateway-tcp", "options:skip_snat")).isEqualTo("\"true\"");
            assertThat(f.nbctl.run("lr-lb-list", "gr")).contains("168.119.17.2:443");

            // The router loses its gateway port: no longer a distributed router with a gateway, the spec is written.
            f.nbctl.run("lrp-del-gateway-chassis", "shalb-dev-ext", "hv1");
            Await.until(WAIT, "written once the router has no gateway port",
                    () -> f.nbctl.run("lr-lb-list", "shalb-dev").contains("168.119.17.52:443"));
            Await.until(WAIT, "status applied", () -> f.engine.status("o").get("local").state() == SpecStatus.State.APPLIED);
            assertThat(f.nbctl.run("get", "load_balancer", "local-tcp", "options:skip_snat")).isEqualTo("\"true\"");

            // It gains one again: re-judged INVALID (its rows stay, as for any spec that turns invalid).
            f.nbctl.run("lrp-set-gateway-chassis", "shalb-dev-ext", "hv1", "10");
            Await.until(WAIT, "status invalid", () -> f.engine.status("o").get("local").state() == SpecStatus.State.INVALID);
            assertThat(f.engine.status("o").get("local").reasons()).singleElement().asString().contains("shalb-dev-ext");
            assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).contains("168.119.17.52:443");
        }
    }
}
