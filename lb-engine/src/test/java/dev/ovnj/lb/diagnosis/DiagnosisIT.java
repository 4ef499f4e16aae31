package dev.ovnj.lb.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every finding code on real NB/SB ovsdb-servers with ovn-northd running: each test breaks exactly
 * one thing of a healthy setup and sees that code and no other error.
 */
class DiagnosisIT {
    private static final LoadBalancerSpec WEB = LoadBalancerSpec.builder("web")
            .tcp(OvnSandbox.VIP, "10.0.0.2:80", "10.0.0.3:80").routers("lr0").switches("ls-int").build();

    private OvnSandbox ovn;

    @BeforeEach
    void start() {
        ovn = new OvnSandbox();
    }

    @AfterEach
    void stop() {
        ovn.close();
    }

    private static Diagnosis desired(LoadBalancerSpec... specs) {
        return Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(specs)).build();
    }

    private DiagnosisReport diagnose(Diagnosis d) {
        return ovn.diagnose(d, true);
    }

    private static Set<FindingCode> errorCodes(DiagnosisReport r) {
        return r.findings().stream().filter(f -> f.severity() == Severity.ERROR).map(Finding::code).collect(Collectors.toSet());
    }

    @Test
    void healthySetupHasNoFindingsWithOrWithoutTheFileAndWithTrace() {
        DiagnosisReport byFile = diagnose(desired(WEB));
        assertThat(byFile.findings()).isEmpty();
        assertThat(byFile.checked()).isEqualTo(1);
        assertThat(byFile.skipped()).extracting(SkippedCheck::code).containsExactly(FindingCode.TRACE_MISMATCH);

        DiagnosisReport byOwner = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).build());
        assertThat(byOwner.findings()).isEmpty();
        assertThat(byOwner.checked()).isEqualTo(1);

        DiagnosisReport traced = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(WEB))
                .tracer(OvnSandbox.trace(ovn.sb.remote())).build());
        assertThat(traced.findings()).isEmpty();
        assertThat(traced.skipped()).isEmpty();

        Tracer missing = new Tracer() {
            @Override
            public Optional<String> unavailable() {
                return Optional.of("ovn-trace is not installed (not found on PATH)");
            }

            @Override
            public String trace(String datapath, String microflow) {
                throw new AssertionError("an unavailable tracer must not be called");
            }

            @Override
            public String traceDetailed(String datapath, String microflow, List<String> options) {
                throw new AssertionError("an unavailable tracer must not be called");
            }
        };
        DiagnosisReport untraced = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).tracer(missing).build());
        assertThat(untraced.findings()).isEmpty();
        assertThat(untraced.skipped()).singleElement().satisfies(s -> {
            assertThat(s.code()).isEqualTo(FindingCode.TRACE_MISMATCH);
            assertThat(s.reason()).contains("not installed");
        });
    }

    @Test
    void withoutSouthboundTheSouthboundChecksAreSkipped() {
        DiagnosisReport r = ovn.diagnose(desired(WEB), false);
        assertThat(r.findings()).isEmpty();
        assertThat(r.skipped()).extracting(SkippedCheck::code).containsExactlyInAnyOrder(FindingCode.CHASSISREDIRECT_UNBOUND,
                FindingCode.NORTHD_NOT_SYNCED, FindingCode.NO_LFLOW, FindingCode.BACKEND_OFFLINE, FindingCode.TRACE_MISMATCH);
    }

    @Test
    void lbMissing() {
        LoadBalancerSpec api = LoadBalancerSpec.builder("api").tcp("172.16.0.101:443", "10.0.0.2:443").routers("lr0").build();
        DiagnosisReport r = diagnose(desired(WEB, api));
        assertThat(errorCodes(r)).containsExactly(FindingCode.LB_MISSING);
        Finding f = r.withCode(FindingCode.LB_MISSING).get(0);
        assertThat(f.lb()).isEqualTo("api");
        assertThat(f.message()).contains("api-tcp");
        assertThat(r.checked()).isEqualTo(2);

        DiagnosisReport unknown = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(WEB)).loadBalancer("nope").build());
        assertThat(unknown.checked()).isEqualTo(1);
        assertThat(unknown.findings()).singleElement().satisfies(missing -> {
            assertThat(missing.code()).isEqualTo(FindingCode.LB_MISSING);
            assertThat(missing.lb()).isEqualTo("nope");
        });
    }

    @Test
    void notAttached() {
        ovn.nbctl.run("ls-lb-del", "ls-int", "web-tcp");
        ovn.sync();
        DiagnosisReport r = diagnose(desired(WEB));
        assertThat(errorCodes(r)).containsExactly(FindingCode.NOT_ATTACHED);
        assertThat(r.withCode(FindingCode.NOT_ATTACHED).get(0).message()).contains("switch ls-int").contains("web-tcp");
    }

    @Test
    void notAttachedWithoutFileMeansOnNoRouterAndNoSwitch() {
        ovn.nbctl.run("lr-lb-del", "lr0", "web-tcp", "--", "ls-lb-del", "ls-int", "web-tcp");
        ovn.sync();
        for (DiagnosisReport r : List.of(diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).build()), diagnose(desired(WEB)))) {
            assertThat(errorCodes(r)).containsExactly(FindingCode.NOT_ATTACHED);
        }
        assertThat(diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).build()).findings()).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("on no router and no switch"));
    }

    @Test
    void aSwitchOnlyLoadBalancerHasTheSameFindingsWithAndWithoutTheFile() {
        // East-west: on the switch only, one backend without a port. Only the warning, either way.
        ovn.createLoadBalancer("east-tcp", "east", "10.0.0.100:80", "10.0.0.2:80,10.0.0.9:80");
        ovn.nbctl.run("ls-lb-add", "ls-int", "east-tcp");
        ovn.sync();
        LoadBalancerSpec east = LoadBalancerSpec.builder("east").tcp("10.0.0.100:80", "10.0.0.2:80", "10.0.0.9:80")
                .switches("ls-int").build();
        DiagnosisReport byFile = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(east)).build());
        DiagnosisReport byOwner = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).loadBalancer("east").build());
        assertThat(byFile.findings()).extracting(Finding::code).containsExactly(FindingCode.BACKEND_NO_PORT);
        assertThat(byOwner.findings()).isEqualTo(byFile.findings());
    }

    @Test
    void vipOutsideRouterNetworks() {
        ovn.createLoadBalancer("far-tcp", "far", "203.0.113.10:80", "10.0.0.2:80");
        ovn.nbctl.run("lr-lb-add", "lr0", "far-tcp");
        ovn.sync();
        LoadBalancerSpec far = LoadBalancerSpec.builder("far").tcp("203.0.113.10:80", "10.0.0.2:80").routers("lr0").build();
        DiagnosisReport r = diagnose(desired(WEB, far));
        assertThat(errorCodes(r)).containsExactly(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS);
        Finding f = r.withCode(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS).get(0);
        assertThat(f.lb()).isEqualTo("far");
        assertThat(f.vip()).contains("203.0.113.10:80");
        assertThat(f.message()).contains("172.16.0.1/24").contains("10.0.0.1/24");
    }

    @Test
    void noGatewayChassisIsOneFindingPerRouterNamingEveryLoadBalancerOnIt() {
        ovn.createLoadBalancer("api-tcp", "api", "172.16.0.101:443", "10.0.0.2:443");
        ovn.createLoadBalancer("dns-tcp", "dns", "172.16.0.102:53", "10.0.0.3:53");
        ovn.nbctl.run("lr-lb-add", "lr0", "api-tcp", "--", "lr-lb-add", "lr0", "dns-tcp",
                "--", "ls-lb-add", "ls-int", "api-tcp", "--", "ls-lb-add", "ls-int", "dns-tcp",
                "--", "lrp-del-gateway-chassis", "lrp-ext", "gw1");
        ovn.sync();
        LoadBalancerSpec api = LoadBalancerSpec.builder("api").tcp("172.16.0.101:443", "10.0.0.2:443").routers("lr0")
                .switches("ls-int").build();
        LoadBalancerSpec dns = LoadBalancerSpec.builder("dns").tcp("172.16.0.102:53", "10.0.0.3:53").routers("lr0")
                .switches("ls-int").build();
        for (DiagnosisReport r : List.of(diagnose(desired(WEB, api, dns)), diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).build()))) {
            assertThat(errorCodes(r)).containsExactly(FindingCode.NO_GATEWAY_CHASSIS);
            assertThat(r.checked()).isEqualTo(3);
            assertThat(r.withCode(FindingCode.NO_GATEWAY_CHASSIS)).singleElement().satisfies(f -> {
                assertThat(f.lbs()).containsExactlyInAnyOrder("web", "api", "dns");
                assertThat(f.lb()).isEqualTo(f.lbs().get(0));
                assertThat(f.message()).contains("router lr0").contains("3 load balancers").contains("web-tcp")
                        .contains("api-tcp").contains("dns-tcp");
            });
        }
    }

    @Test
    void chassisredirectUnbound() {
        ovn.sbctl.run("lsp-unbind", "cr-lrp-ext");
        ovn.sync();
        DiagnosisReport r = diagnose(desired(WEB));
        assertThat(errorCodes(r)).containsExactly(FindingCode.CHASSISREDIRECT_UNBOUND);
        assertThat(r.withCode(FindingCode.CHASSISREDIRECT_UNBOUND).get(0).message()).contains("cr-lrp-ext");
    }

    @Test
    void northdNotSynced() {
        ovn.northd.pause();
        ovn.nbctl.run("set", "load_balancer", "web-tcp", "vips:\"" + OvnSandbox.VIP + "\"=\"10.0.0.2:80\"");
        LoadBalancerSpec one = LoadBalancerSpec.builder("web").tcp(OvnSandbox.VIP, "10.0.0.2:80").routers("lr0").switches("ls-int").build();
        DiagnosisReport r = diagnose(desired(one));
        assertThat(errorCodes(r)).containsExactly(FindingCode.NORTHD_NOT_SYNCED);
        assertThat(r.withCode(FindingCode.NORTHD_NOT_SYNCED)).anySatisfy(f -> assertThat(f.message()).contains("stale"));

        ovn.northd.resume();
        ovn.sync();
        assertThat(diagnose(desired(one)).findings()).isEmpty();
    }

    @Test
    void northdNotSyncedForARouterOnlyLoadBalancerIsSeenInItsFlows() {
        ovn.nbctl.run("ls-lb-del", "ls-int", "web-tcp");
        ovn.sync();
        ovn.northd.pause();
        ovn.nbctl.run("set", "load_balancer", "web-tcp", "vips:\"" + OvnSandbox.VIP + "\"=\"10.0.0.3:80\"");
        LoadBalancerSpec routerOnly = LoadBalancerSpec.builder("web").tcp(OvnSandbox.VIP, "10.0.0.3:80").routers("lr0").build();
        DiagnosisReport r = diagnose(desired(routerOnly));
        assertThat(errorCodes(r)).containsExactly(FindingCode.NORTHD_NOT_SYNCED);
        assertThat(r.withCode(FindingCode.NORTHD_NOT_SYNCED).get(0).message()).contains("router lr0");
    }

    @Test
    void northdNotSyncedForANewRouterOnlyLoadBalancerIsSeenInTheRoutersAddressSet() {
        ovn.northd.pause();
        ovn.createLoadBalancer("new-tcp", "new", "172.16.0.101:80", "10.0.0.2:80");
        ovn.nbctl.run("lr-lb-add", "lr0", "new-tcp");
        LoadBalancerSpec fresh = LoadBalancerSpec.builder("new").tcp("172.16.0.101:80", "10.0.0.2:80").routers("lr0").build();
        DiagnosisReport r = diagnose(desired(WEB, fresh));
        assertThat(errorCodes(r)).containsExactly(FindingCode.NORTHD_NOT_SYNCED);
        // From OVN 25.03 on the missing Southbound Load_Balancer row of the router is a second finding.
        assertThat(r.withCode(FindingCode.NORTHD_NOT_SYNCED)).allSatisfy(f -> assertThat(f.lb()).isEqualTo("new"))
                .anySatisfy(f -> assertThat(f.message()).contains("_rtr_lb_").contains("172.16.0.101"));
    }

    @Test
    void noLflow() {
        ovn.northd.pause();
        List<String> flows = ovn.flowsWithAction("backends=10.0.0.2:80,10.0.0.3:80");
        assertThat(flows).isNotEmpty();
        for (String uuid : flows) {
            ovn.sbctl.run("destroy", "logical_flow", uuid);
        }
        DiagnosisReport r = diagnose(desired(WEB));
        assertThat(errorCodes(r)).containsExactly(FindingCode.NO_LFLOW);
        assertThat(r.withCode(FindingCode.NO_LFLOW)).extracting(Finding::message)
                .anySatisfy(m -> assertThat(m).contains("router lr0"))
                .anySatisfy(m -> assertThat(m).contains("switch ls-int"));
    }

    @Test
    void backendOffline() {
        ovn.nbctl.run("--id=@hc", "create", "load_balancer_health_check", "vip=\"" + OvnSandbox.VIP + "\"",
                "options:interval=5", "options:timeout=20", "options:success_count=3", "options:failure_count=3",
                "--", "add", "load_balancer", "web-tcp", "health_check", "@hc");
        ovn.nbctl.run("set", "load_balancer", "web-tcp", "ip_port_mappings:10.0.0.2=\"web1:10.0.0.254\"",
                "ip_port_mappings:10.0.0.3=\"web2:10.0.0.254\"");
        ovn.sync();
        String monitor = ovn.sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor", "logical_port=web1").trim();
        assertThat(monitor).isNotEmpty();
        ovn.sbctl.run("set", "service_monitor", monitor, "status=online");
        ovn.sbctl.run("set", "service_monitor", ovn.sbctl.run("--bare", "--columns=_uuid", "find", "service_monitor",
                "logical_port=web2").trim(), "status=online");
        ovn.sync();
        assertThat(diagnose(desired(WEB)).findings()).isEmpty();

        ovn.sbctl.run("set", "service_monitor", monitor, "status=offline");
        ovn.sync();
        DiagnosisReport r = diagnose(desired(WEB));
        assertThat(errorCodes(r)).containsExactly(FindingCode.BACKEND_OFFLINE);
        assertThat(r.withCode(FindingCode.BACKEND_OFFLINE)).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("10.0.0.2:80").contains("web1").contains("offline"));
    }

    @Test
    void backendNoPortIsAWarning() {
        ovn.createLoadBalancer("odd-tcp", "odd", "172.16.0.102:80", "10.0.0.2:80,10.0.0.9:80");
        ovn.nbctl.run("lr-lb-add", "lr0", "odd-tcp", "--", "ls-lb-add", "ls-int", "odd-tcp");
        ovn.sync();
        DiagnosisReport r = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).build());
        assertThat(r.errors()).isZero();
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo(FindingCode.BACKEND_NO_PORT);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.lb()).isEqualTo("odd");
            assertThat(f.message()).contains("10.0.0.9:80");
        });
        assertThat(r.checked()).isEqualTo(2);
    }

    @Test
    void conflict() {
        ovn.nbctl.run("lb-add", "other", OvnSandbox.VIP, "10.0.0.3:80", "tcp");
        ovn.nbctl.run("lr-lb-add", "lr0", "other");
        ovn.sync();
        DiagnosisReport r = diagnose(desired(WEB));
        assertThat(errorCodes(r)).containsExactly(FindingCode.CONFLICT);
        assertThat(r.withCode(FindingCode.CONFLICT).get(0).message()).contains("other").contains("router lr0");
    }

    @Test
    void traceMismatch() {
        ovn.northd.pause();
        ovn.sbctl.run("create", "logical_flow", "logical_datapath=" + ovn.datapath("lr0"), "pipeline=ingress",
                "table_id=0", "priority=200", "match=\"ip4.dst == 172.16.0.100\"", "actions=\"drop;\"");
        Diagnosis d = Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(WEB)).tracer(OvnSandbox.trace(ovn.sb.remote())).build();
        DiagnosisReport r = diagnose(d);
        assertThat(errorCodes(r)).containsExactly(FindingCode.TRACE_MISMATCH);
        assertThat(r.withCode(FindingCode.TRACE_MISMATCH).get(0).message()).contains("lrp-ext").contains("dropped");
    }

    @Test
    void vipFilterNarrowsTheCheck() {
        ovn.createLoadBalancer("far-tcp", "far", "203.0.113.10:80", "10.0.0.2:80");
        ovn.nbctl.run("lr-lb-add", "lr0", "far-tcp");
        ovn.sync();
        DiagnosisReport r = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).vip(OvnSandbox.VIP).build());
        assertThat(r.checked()).isEqualTo(1);
        assertThat(r.findings()).isEmpty();
        DiagnosisReport byName = diagnose(Diagnosis.builder().loadBalancer("far").build());
        assertThat(byName.checked()).isEqualTo(1);
        assertThat(errorCodes(byName)).containsExactly(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS);
    }

    @Test
    void ipv6LoadBalancerIsHealthyThenStale() {
        ovn.createLoadBalancer("web6-tcp", "web6", "[fd00:172::100]:80", "[fd00:10::2]:80,[fd00:10::3]:80");
        ovn.nbctl.run("lr-lb-add", "lr0", "web6-tcp", "--", "ls-lb-add", "ls-int", "web6-tcp");
        ovn.sync();
        LoadBalancerSpec web6 = LoadBalancerSpec.builder("web6").tcp("[fd00:172::100]:80", "[fd00:10::2]:80", "[fd00:10::3]:80")
                .routers("lr0").switches("ls-int").build();
        DiagnosisReport healthy = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).specs(List.of(WEB, web6))
                .tracer(OvnSandbox.trace(ovn.sb.remote())).build());
        assertThat(healthy.findings()).isEmpty();
        assertThat(healthy.skipped()).isEmpty();

        ovn.northd.pause();
        ovn.nbctl.run("set", "load_balancer", "web6-tcp", "vips:\"[fd00:172::100]:80\"=\"[fd00:10::2]:80\"");
        LoadBalancerSpec one = LoadBalancerSpec.builder("web6").tcp("[fd00:172::100]:80", "[fd00:10::2]:80")
                .routers("lr0").switches("ls-int").build();
        DiagnosisReport stale = diagnose(desired(WEB, one));
        assertThat(errorCodes(stale)).containsExactly(FindingCode.NORTHD_NOT_SYNCED);
        assertThat(stale.findings()).allSatisfy(f -> assertThat(f.lb()).isEqualTo("web6"));
    }

    @Test
    void traceSeesASubsetOfTheDesiredBackendsAsAMismatch() {
        ovn.northd.pause();
        // A stale flow for the VIP, at a higher priority than northd's, that balances to one backend only:
        // northd's own router flow for the VIP copied (its stage's table and match differ by release).
        String dp = ovn.datapath("lr0");
        String northds = ovn.flowsWithAction("backends=10.0.0.2:80,10.0.0.3:80").stream()
                .filter(uuid -> ovn.sbctl.run("--bare", "--columns=logical_datapath", "list", "logical_flow", uuid).trim().equals(dp))
                .findFirst().orElseThrow();
        String table = ovn.sbctl.run("--bare", "--columns=table_id", "list", "logical_flow", northds).trim();
        String match = ovn.sbctl.run("--bare", "--columns=match", "list", "logical_flow", northds).trim();
        ovn.sbctl.run("create", "logical_flow", "logical_datapath=" + dp, "pipeline=ingress",
                "table_id=" + table, "priority=200", "match=\"" + match.replace("\"", "\\\"") + "\"",
                "actions=\"ct_lb(backends=10.0.0.2:80);\"");
        DiagnosisReport r = diagnose(Diagnosis.builder().owner(OvnSandbox.OWNER).vip(OvnSandbox.VIP)
                .tracer(OvnSandbox.trace(ovn.sb.remote())).build());
        assertThat(errorCodes(r)).containsExactly(FindingCode.TRACE_MISMATCH);
        assertThat(r.withCode(FindingCode.TRACE_MISMATCH).get(0).message()).contains("[10.0.0.2:80]")
                .contains("[10.0.0.2:80, 10.0.0.3:80]");
    }
}
