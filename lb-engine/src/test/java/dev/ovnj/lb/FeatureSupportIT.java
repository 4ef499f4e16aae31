package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A spec option or feature the connected OVN lacks is INVALID and not written: the release is read
 * from NB_Global options:northd_internal_version (set here by hand, as no ovn-northd runs), and a
 * newer release admits the same spec.
 */
class FeatureSupportIT {

    @Test
    void optionsAndHealthChecksTheConnectedOvnLacksAreInvalidUntilItIsNewEnough() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("set", "NB_Global", ".", "options:northd_internal_version=22.03.0-20.21.0-63.4");
            f.nbctl.run("lsp-add", "shalb-dev-default", "web1", "--", "lsp-set-addresses", "web1", "02:00:00:00:00:21 10.0.0.2 fd00::2");
            f.nbctl.run("set", "logical_switch", "shalb-dev-default", "other_config:subnet=10.0.0.0/24");
            LoadBalancerSpec affinity = LoadBalancerSpec.builder("affinity").routers("shalb-dev").tcp("168.119.17.52:80", "10.0.0.2:80")
                    .options(LbOptions.DEFAULTS.withAffinityTimeout(60)).build();
            LoadBalancerSpec v6 = LoadBalancerSpec.builder("v6").switches("shalb-dev-default")
                    .vip(VipSpec.tcp("[fd00::100]:80", "[fd00::2]:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("fd00::fe"))).build();
            ApplyResult r = f.engine.apply("t", List.of(affinity, v6)).get(30, TimeUnit.SECONDS);
            assertThat(r.statuses().get("affinity").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(r.statuses().get("affinity").reason()).isEqualTo("options.affinityTimeout (options:affinity_timeout) needs OVN 22.12"
                    + " or later; the connected OVN is 22.03 (NB_Global options:northd_internal_version 22.03.0-20.21.0-63.4);"
                    + " nothing is written for this spec");
            assertThat(r.statuses().get("v6").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(r.statuses().get("v6").reason()).startsWith("healthCheck on an IPv6 VIP needs OVN 23.03 or later");
            assertThat(f.nbctl.run("--bare", "--columns=name", "list", "load_balancer").trim()).isEmpty();

            // An upgraded ovn-northd writes its version: the same specs are admitted without a new call.
            f.nbctl.run("set", "NB_Global", ".", "options:northd_internal_version=23.03.1-20.27.0-70.6");
            f.nbctl.run("set", "logical_switch", "shalb-dev-default", "other_config:ipv6_prefix=\"fd00::\"");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!(f.engine.status("t").get("affinity").state() == SpecStatus.State.APPLIED
                    && f.engine.status("t").get("v6").state() == SpecStatus.State.APPLIED) && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(f.engine.status("t").get("affinity").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(f.engine.status("t").get("v6").state()).as(f.engine.status("t").get("v6").reasons().toString())
                    .isEqualTo(SpecStatus.State.APPLIED);
            assertThat(f.nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=v6-tcp").trim())
                    .isEqualTo("[fd00::2]=web1:[fd00::fe]");
        }
    }
}
