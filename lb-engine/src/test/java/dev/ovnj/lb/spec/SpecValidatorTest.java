package dev.ovnj.lb.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {

    private static List<String> errors(LoadBalancerSpec spec) {
        return SpecValidator.validate("o", spec).stream().map(e -> e.field() + ": " + e.message()).toList();
    }

    private static LoadBalancerSpec.Builder base() {
        return LoadBalancerSpec.builder("s").routers("r");
    }

    @Test
    void validSpecsPass() {
        assertThat(errors(base().tcp("168.119.17.51:2379", "10.1.0.40:2379").udp("168.119.17.51:53").buildUnchecked())).isEmpty();
        assertThat(errors(base().tcp("[2a01:4f8::10]:443", "[fd00::5]:8443").buildUnchecked())).isEmpty();
    }

    @Test
    void eachSyntaxProblemNamesItsField() {
        assertThat(errors(base().tcp("168.119.17.300:80", "10.0.0.1:80").buildUnchecked()))
                .containsExactly("vips[0].vip: \"168.119.17.300:80\": \"168.119.17.300\" is not an IPv4 address");
        assertThat(errors(base().tcp("10.0.0.1:0", "10.0.0.2:80").buildUnchecked())).singleElement().asString()
                .startsWith("vips[0].vip").contains("out of range");
        assertThat(errors(base().tcp("10.0.0.1:65536", "10.0.0.2:80").buildUnchecked())).singleElement().asString().contains("out of range 1..65535");
        assertThat(errors(base().tcp("10.0.0.1", "10.0.0.2").buildUnchecked())).containsExactly("vips[0].vip: \"10.0.0.1\" needs a port (1..65535)");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2").buildUnchecked()))
                .containsExactly("vips[0].backends[0]: \"10.0.0.2\" needs a port because the VIP has one");
        assertThat(errors(base().tcp("10.0.0.1:80", "[fd00::1]:80").buildUnchecked()))
                .containsExactly("vips[0].backends[0]: \"[fd00::1]:80\" is IPv6 but the VIP 10.0.0.1:80 is IPv4");
        assertThat(errors(base().tcp("fd00::1:80", "[fd00::2]:80").buildUnchecked())).singleElement().asString().contains("[ADDR]:PORT");
        assertThat(errors(base().tcp("web.example.com:80", "10.0.0.2:80").buildUnchecked())).singleElement().asString().contains("is not an IPv4 address");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80", "10.0.0.2:80").buildUnchecked()))
                .containsExactly("vips[0].backends[1]: \"10.0.0.2:80\" is listed twice");
        assertThat(errors(LoadBalancerSpec.builder("s").buildUnchecked())).containsExactly("vips: at least one VIP is needed");
    }

    @Test
    void optionsAreChecked() {
        LbOptions bad = LbOptions.DEFAULTS.withAffinityTimeout(70000).withHairpinSnatIp("169.254.0.5:80")
                .withNeighborResponder("sometimes").withSelectionFields(java.util.Set.of("ip_src", "vlan"));
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").options(bad).buildUnchecked())).containsExactlyInAnyOrder(
                "options.affinityTimeout: 70000 is out of range 1..65535 seconds",
                "options.hairpinSnatIp: \"169.254.0.5:80\" must be an address without a port",
                "options.neighborResponder: \"sometimes\" is not one of reachable, all, none",
                "options.selectionFields: \"vlan\" is not one of eth_src, eth_dst, ip_src, ip_dst, tp_src, tp_dst");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").externalIds(Map.of("ovnj.owner", "x")).buildUnchecked()))
                .containsExactly("externalIds.ovnj.owner: keys starting with ovnj. are reserved for the engine");
    }

    @Test
    void sourceRangesAreCheckedForFormFamilyCountAndSwitches() {
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").sourceRanges(List.of("198.51.100.0/24", "203.0.113.7/32"))
                .buildUnchecked())).isEmpty();
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").tcp("[fd00::1]:80", "[fd00::2]:80")
                .sourceRanges(List.of("198.51.100.0/24", "2001:db8::/32")).buildUnchecked())).isEmpty();
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").sourceRanges(List.of("198.51.100.0", "10.0.0.0/33", "2001:db8::/32"))
                .buildUnchecked())).containsExactly(
                "sourceRanges[0]: \"198.51.100.0\" is not a network address/prefix such as 198.51.100.0/24 or 2001:db8::/48"
                        + " (not an address/prefix network: 198.51.100.0)",
                "sourceRanges[1]: \"10.0.0.0/33\" is not a network address/prefix such as 198.51.100.0/24 or 2001:db8::/48"
                        + " (prefix length 33 is out of range for 10.0.0.0)",
                "sourceRanges[2]: \"2001:db8::/32\" is IPv6 but every VIP of this spec is IPv4");
        List<String> many = java.util.stream.IntStream.range(0, SpecValidator.MAX_SOURCE_RANGES + 1).mapToObj(i -> "10.9." + i + ".0/24").toList();
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80").sourceRanges(many).buildUnchecked()))
                .containsExactly("sourceRanges: 65 ranges are more than the 64 one router policy match may carry");
        assertThat(errors(base().switches("sw").tcp("10.0.0.1:80", "10.0.0.2:80").sourceRanges(List.of("198.51.100.0/24"))
                .buildUnchecked())).singleElement().asString().startsWith("switches: a spec with sourceRanges is attached to routers only");
    }

    @Test
    void crossSpecProblemsAreFound() {
        LoadBalancerSpec a = LoadBalancerSpec.builder("a").tcp("10.0.0.1:80", "10.0.0.2:80").buildUnchecked();
        LoadBalancerSpec b = LoadBalancerSpec.builder("b").tcp("10.0.0.1:80", "10.0.0.3:80").udp("10.0.0.1:80", "10.0.0.3:80").buildUnchecked();
        LoadBalancerSpec a2 = LoadBalancerSpec.builder("a").tcp("10.0.0.9:80", "10.0.0.2:80").buildUnchecked();
        Map<String, List<SpecError>> result = SpecValidator.validate("o", List.of(a, b, a2));
        assertThat(result.get("a")).extracting(SpecError::message).containsExactly("declared twice for this owner");
        assertThat(result.get("b")).extracting(SpecError::toString)
                .containsExactly("owner o, spec b, vips[0].vip: tcp 10.0.0.1:80 is already used by spec a of this owner");
    }

    @Test
    void endpointsPrintInOvnCanonicalForm() {
        assertThat(Endpoint.parse("[2a01:04f8:0000:0000::0010]:443")).hasToString("[2a01:4f8::10]:443");
        assertThat(Endpoint.parse("10.0.0.1:80")).hasToString("10.0.0.1:80");
        assertThat(Endpoint.parse("10.0.0.1")).hasToString("10.0.0.1");
        assertThat(Protocol.parse("UDP")).isEqualTo(Protocol.UDP);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Protocol.parse("http")).hasMessage("protocol \"http\" is not one of tcp, udp, sctp");
    }

    @Test
    void healthCheckProblemsNameTheirField() {
        HealthCheck hc = HealthCheck.DEFAULTS;
        assertThat(errors(base().vip(VipSpec.of(Protocol.SCTP, "10.0.0.1:80", List.of("10.0.0.2:80")).withHealthCheck(hc)).buildUnchecked()))
                .singleElement().asString().startsWith("vips[0].healthCheck: OVN does not health-check SCTP");
        assertThat(errors(base().vip(VipSpec.tcp("10.0.0.1:80", "10.0.0.2:80").withHealthCheck(hc.withSourceIp("fd00::1"))).buildUnchecked()))
                .containsExactly("vips[0].healthCheck.sourceIp: \"fd00::1\" is IPv6 but the VIP 10.0.0.1:80 is IPv4");
        assertThat(errors(base().vip(VipSpec.tcp("10.0.0.1:80", "10.0.0.2:80").withHealthCheck(hc.withInterval(0))).buildUnchecked()))
                .containsExactly("vips[0].healthCheck.interval: 0 is out of range 1..65535");
        assertThat(errors(base().vip(VipSpec.tcp("10.0.0.1:80", "10.0.0.2:80").withBackendPort("10.0.0.9", "p9")).buildUnchecked()))
                .containsExactly("vips[0].backendPorts.10.0.0.9: \"10.0.0.9\" is not the address of a backend of 10.0.0.1:80");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80")
                .healthCheckSources(Map.of("ls", List.of("10.0.0.250", "10.0.0.251"))).buildUnchecked()))
                .containsExactly("healthCheckSources.ls: give at most one IPv4 and one IPv6 source per switch");
        assertThat(errors(base()
                .vip(VipSpec.tcp("10.0.0.1:80", "10.0.0.2:80").withHealthCheck(hc).withBackendPort("10.0.0.2", "a"))
                .vip(VipSpec.tcp("10.0.0.1:81", "10.0.0.2:81").withHealthCheck(hc).withBackendPort("10.0.0.2", "b")).buildUnchecked()))
                .singleElement().asString().startsWith("vips[1].healthCheck: backend 10.0.0.2 is checked by 10.0.0.1:80 and 10.0.0.1:81"
                        + " with different logical ports (a, b)");
        assertThat(errors(base().vip(VipSpec.tcp("[fd00::1]:80", "[fd00::2]:80").withHealthCheck(hc.withSourceIp("fd00::fe"))
                .withBackendPort("fd00::2", "web")).healthCheckSources(Map.of("ls", List.of("10.0.0.250", "fd00::fe"))).buildUnchecked())).isEmpty();
    }

    @Test
    void plainIpv4BackendsAreCheckedAgainstTheVipAsAnyOther() {
        // Canonical a.b.c.d:port backends take a shortcut only under an IPv4 VIP with a port.
        assertThat(errors(base().tcp("[fd00::1]:80", "10.0.0.2:80").buildUnchecked()))
                .containsExactly("vips[0].backends[0]: \"10.0.0.2:80\" is IPv4 but the VIP [fd00::1]:80 is IPv6");
        assertThat(errors(base().tcp("10.0.0.1", "10.0.0.2:80").buildUnchecked())).containsExactly("vips[0].vip: \"10.0.0.1\" needs a port (1..65535)");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.3:80", "10.0.0.2:80", "10.0.0.3:80", "10.0.0.2:8080").buildUnchecked()))
                .containsExactly("vips[0].backends[2]: \"10.0.0.3:80\" is listed twice");
        assertThat(errors(base().tcp("10.0.0.1:80", "10.0.0.2:80", "10.0.0.02:80").buildUnchecked())).singleElement().asString()
                .startsWith("vips[0].backends[1]");
    }
}
