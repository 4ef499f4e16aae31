package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every {@link OvnFeatures} entry against the real ovn-northd of the release the tests run (the host's
 * 23.03, or another through testkit's OvnRelease): northd writes its version into NB_Global, and a
 * spec using the feature is APPLIED, with the option in the Northbound row, exactly when the release
 * is at least the one the table names; otherwise it is INVALID naming that release and nothing is
 * written. Run on 23.03, 25.03 and 26.03 by the release suite, each entry is seen on both sides of
 * its release wherever the matrix allows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReleaseFeaturesIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private OvnCentral central;
    private Nbctl nbctl;
    private OvsdbClient nb;
    private LoadBalancerEngine engine;
    private String release;

    @BeforeAll
    void start() {
        central = OvnCentral.start();
        nbctl = central.nbctl();
        nbctl.run("lr-add", "lr0", "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24", "fd00:10::1/64");
        nbctl.run("ls-add", "ls-int", "--", "set", "logical_switch", "ls-int", "other_config:subnet=10.0.0.0/24",
                "other_config:ipv6_prefix=\"fd00:10::\"",
                "--", "lsp-add", "ls-int", "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 10.0.0.2 fd00:10::2");
        central.sync();
        String[] v = OvnRelease.current().ovnVersion().split("\\.");
        release = v[0] + "." + v[1];
        nb = OvsdbClient.builder().remotes(central.northbound().remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        engine = LoadBalancerEngine.builder(nb).build();
        engine.start();
        nb.startAndWait(WAIT);
    }

    @AfterAll
    void stop() {
        if (engine != null) {
            engine.close();
        }
        if (nb != null) {
            nb.close();
        }
        if (central != null) {
            central.close();
        }
    }

    private static LoadBalancerSpec.Builder lb(String name) {
        return LoadBalancerSpec.builder(name).routers("lr0").switches("ls-int");
    }

    @Test
    void theReleaseIsReadFromNorthdAndTheSchemaTableKnowsIt() {
        String[] rel = nb.cache().read(() -> OvnFeatures.release(nb.cache())).orElseThrow();
        assertThat(rel[0]).isEqualTo(release);
        assertThat(rel[1]).startsWith("NB_Global options:northd_internal_version " + OvnRelease.current().ovnVersion());
        // The schema fallback maps this release's own NB schema version to it.
        String schema = nb.cache().schema().version().orElseThrow();
        assertThat(OvnFeatures.SCHEMA_RELEASES).containsEntry(schema, release);
    }

    @Test
    void everyFeatureIsAppliedFromItsReleaseOnAndInvalidBefore() throws Exception {
        HealthCheck hc = HealthCheck.DEFAULTS.withSourceIp("10.0.0.254");
        Map<OvnFeatures.Feature, LoadBalancerSpec> specs = new LinkedHashMap<>();
        specs.put(OvnFeatures.HEALTH_CHECK, lb("hc").vip(VipSpec.tcp("172.16.0.10:80", "10.0.0.2:80").withHealthCheck(hc)).build());
        specs.put(OvnFeatures.SELECTION_FIELDS, lb("sel").tcp("172.16.0.11:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withSelectionFields(java.util.Set.of("ip_src"))).build());
        specs.put(OvnFeatures.HAIRPIN_SNAT_IP, lb("hairpin").tcp("172.16.0.12:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withHairpinSnatIp("169.254.0.5")).build());
        specs.put(OvnFeatures.GROUPS, LoadBalancerSpec.builder("grouped").group("g1").tcp("172.16.0.13:80", "10.0.0.2:80").build());
        specs.put(OvnFeatures.NEIGHBOR_RESPONDER, lb("responder").tcp("172.16.0.14:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withNeighborResponder("none")).build());
        specs.put(OvnFeatures.AFFINITY_TIMEOUT, lb("affinity").tcp("172.16.0.15:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withAffinityTimeout(60)).build());
        specs.put(OvnFeatures.IPV6_HEALTH_CHECK, LoadBalancerSpec.builder("v6").switches("ls-int")
                .vip(VipSpec.tcp("[fd00:172::10]:80", "[fd00:10::2]:80").withHealthCheck(HealthCheck.DEFAULTS.withSourceIp("fd00:10::fe")))
                .build());
        specs.put(OvnFeatures.CT_FLUSH, lb("flush").tcp("172.16.0.16:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withCtFlush(true)).build());
        specs.put(OvnFeatures.USE_STATELESS_NAT, lb("stateless").tcp("172.16.0.17:80", "10.0.0.2:80")
                .options(LbOptions.DEFAULTS.withUseStatelessNat(true)).build());
        specs.put(OvnFeatures.DISTRIBUTED, lb("distributed").vip(VipSpec.tcp("172.16.0.18:80", "10.0.0.2:80").withHealthCheck(
                HealthCheck.DEFAULTS.withSourceIp("10.0.0.253"))).options(LbOptions.DEFAULTS.withDistributed(true)).build());
        Map<OvnFeatures.Feature, String> option = Map.of(OvnFeatures.HAIRPIN_SNAT_IP, "hairpin_snat_ip=\"169.254.0.5\"",
                OvnFeatures.NEIGHBOR_RESPONDER, "neighbor_responder=none", OvnFeatures.AFFINITY_TIMEOUT, "affinity_timeout=60",
                OvnFeatures.CT_FLUSH, "ct_flush=\"true\"", OvnFeatures.USE_STATELESS_NAT, "use_stateless_nat=\"true\"",
                OvnFeatures.DISTRIBUTED, "distributed=\"true\"");
        // Every entry of the table is exercised here or, for the router-port source, in HealthCheckIT.
        assertThat(specs.keySet()).containsExactlyInAnyOrderElementsOf(OvnFeatures.TABLE.stream()
                .filter(f -> f != OvnFeatures.ROUTER_PORT_HEALTH_CHECK_SOURCE).toList());

        ApplyResult r = engine.apply("features", List.copyOf(specs.values())).get(60, TimeUnit.SECONDS);
        for (Map.Entry<OvnFeatures.Feature, LoadBalancerSpec> e : specs.entrySet()) {
            OvnFeatures.Feature f = e.getKey();
            SpecStatus st = r.statuses().get(e.getValue().name());
            String row = e.getValue().name() + "-tcp";
            if (OvnFeatures.compare(release, f.release()) >= 0) {
                assertThat(st.state()).as(f.what() + " on " + release + ": " + st.reasons()).isEqualTo(SpecStatus.State.APPLIED);
                if (option.containsKey(f)) {
                    String written = nbctl.run("--bare", "--columns=options", "find", "load_balancer", "name=" + row);
                    assertThat(written.replace("\"", "")).as(f.what()).contains(option.get(f).replace("\"", ""));
                }
            } else {
                assertThat(st.state()).as(f.what() + " on " + release).isEqualTo(SpecStatus.State.INVALID);
                assertThat(st.reason()).startsWith(f.what() + " needs OVN " + f.release() + " or later; the connected OVN is " + release);
                assertThat(nbctl.run("--bare", "--columns=name", "find", "load_balancer", "name=" + row).trim()).isEmpty();
            }
        }
        central.sync();
        // ovn-northd of this release accepted what was written: it is still active and in sync.
        assertThat(central.northd().appctl("status")).contains("active");
        engine.apply("features", List.of()).get(30, TimeUnit.SECONDS);
    }
}
