package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code skipSnat} on a distributed router with a gateway port is written as the spec says, and its
 * status warns that OVN leaves the replies without un-DNAT there (the CLI's {@code DoctorDataPlaneIT}
 * shows every connection fail on a real data plane); a gateway router ({@code options:chassis}),
 * where {@code lb_force_snat_ip} applies and {@code skip_snat} works, gets no warning.
 */
class SkipSnatRoutersIT {
    private static LoadBalancerSpec spec(String name, String router, String vip, boolean skipSnat) {
        return LoadBalancerSpec.builder(name).routers(router).tcp(vip, "10.1.0.9:443")
                .options(LbOptions.DEFAULTS.withSkipSnat(skipSnat)).build();
    }

    @Test
    void skipSnatOnADistributedRouterIsWrittenWithAWarningNamingTheRouter() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("lrp-set-gateway-chassis", "shalb-dev-ext", "hv1", "10",
                    "--", "lr-add", "gr", "--", "set", "logical_router", "gr", "options:chassis=hv1",
                    "--", "lrp-add", "gr", "gr-ext", "02:00:00:00:00:09", "168.119.17.1/28");
            ApplyResult r = f.engine.apply("o", List.of(spec("local", "shalb-dev", "168.119.17.52:443", true),
                    spec("cluster", "shalb-dev", "168.119.17.53:443", false), spec("gateway", "gr", "168.119.17.2:443", true)))
                    .get(20, TimeUnit.SECONDS);
            SpecStatus local = r.statuses().get("local");
            assertThat(local.state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(local.warnings()).singleElement().asString()
                    .startsWith("options.skipSnat on distributed router shalb-dev (gateway port shalb-dev-ext): OVN applies"
                            + " lb_force_snat_ip only on gateway routers (options:chassis)")
                    .contains("with it OVN does not un-DNAT the replies there: every connection through the VIPs fails");
            assertThat(f.nbctl.run("get", "load_balancer", "local-tcp", "options:skip_snat")).isEqualTo("\"true\"");
            assertThat(r.statuses().get("cluster").warnings()).isEmpty();
            assertThat(r.statuses().get("gateway").warnings()).isEmpty();
        }
    }
}
