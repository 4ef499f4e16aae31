package dev.ovnj.lb.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** build() refuses what can never work, with the engine's own words; typed endpoints build the same specs. */
class LoadBalancerSpecBuilderTest {

    private static SpecException refused(LoadBalancerSpec.Builder b) {
        try {
            b.build();
        } catch (SpecException e) {
            return e;
        }
        throw new AssertionError("build() accepted an invalid spec");
    }

    private static List<String> fieldsAndMessages(List<SpecError> errors) {
        return errors.stream().map(e -> e.field() + ": " + e.message()).toList();
    }

    @Test
    void aHostNameVipIsRefusedWhereTheSpecIsBuilt() {
        assertThatThrownBy(() -> LoadBalancerSpec.builder("web").tcp("web.example.com:80", "10.0.0.2:80").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spec web, vips[0].vip: \"web.example.com:80\": \"web.example.com\" is not an IPv4 address");
    }

    @Test
    void portsOutOfRangeAreRefusedNamingTheirField() {
        SpecException vip = refused(LoadBalancerSpec.builder("web").tcp("10.0.0.1:70000", "10.0.0.2:80"));
        assertThat(vip.errors()).singleElement().satisfies(e -> {
            assertThat(e.spec()).isEqualTo("web");
            assertThat(e.owner()).isNull();
            assertThat(e.field()).isEqualTo("vips[0].vip");
            assertThat(e.message()).contains("out of range 1..65535");
        });
        SpecException backend = refused(LoadBalancerSpec.builder("web").udp("10.0.0.1:53", "10.0.0.2:53", "10.0.0.3:70000"));
        assertThat(backend.errors()).extracting(SpecError::field).containsExactly("vips[0].backends[1]");
    }

    @Test
    void everyProblemIsListedOnce() {
        SpecException e = refused(LoadBalancerSpec.builder("web").tcp("10.0.0.1:80", "[fd00::2]:80")
                .options(LbOptions.DEFAULTS.withAffinityTimeout(70000)));
        assertThat(fieldsAndMessages(e.errors())).containsExactly(
                "vips[0].backends[0]: \"[fd00::2]:80\" is IPv6 but the VIP 10.0.0.1:80 is IPv4",
                "options.affinityTimeout: 70000 is out of range 1..65535 seconds");
        assertThat(e.getMessage()).isEqualTo(String.join("; ", e.errors().stream().map(SpecError::toString).toList()));
    }

    @Test
    void theBuilderAndTheEngineReportTheSameProblemsInTheSameWords() {
        LoadBalancerSpec.Builder b = LoadBalancerSpec.builder("web").tcp("10.0.0.1", "10.0.0.2:80", "10.0.0.2:80")
                .vip(VipSpec.tcp("10.0.0.5:443", "10.0.0.6:443").withHealthCheck(HealthCheck.DEFAULTS.withInterval(0)));
        List<SpecError> engine = SpecValidator.validate("team-a", b.buildUnchecked());
        assertThat(engine).hasSize(3);
        assertThat(fieldsAndMessages(refused(b).errors())).isEqualTo(fieldsAndMessages(engine));
        assertThat(engine.get(0)).hasToString("owner team-a, spec web, " + engine.get(0).field() + ": " + engine.get(0).message());
    }

    @Test
    void buildUncheckedLeavesTheVerdictToTheEngine() {
        LoadBalancerSpec spec = LoadBalancerSpec.builder("web").tcp("web.example.com:80").buildUnchecked();
        assertThat(spec.vips()).extracting(VipSpec::vip).containsExactly("web.example.com:80");
        assertThat(SpecValidator.validate("o", spec)).extracting(SpecError::field).containsExactly("vips[0].vip");
    }

    @Test
    void typedEndpointsBuildTheSpecTheStringsDo() throws Exception {
        LoadBalancerSpec typed = LoadBalancerSpec.builder("web").routers("r")
                .tcp(Endpoint.of("10.0.0.1", 80), Endpoint.of(InetAddress.getByName("10.1.0.1"), 8080), Endpoint.of("10.1.0.2", 8080))
                .udp(Endpoint.of("[2001:db8:0::1]", 53), Endpoint.of("fd00::5", 53))
                .build();
        LoadBalancerSpec strings = LoadBalancerSpec.builder("web").routers("r")
                .tcp("10.0.0.1:80", "10.1.0.1:8080", "10.1.0.2:8080")
                .udp("[2001:db8::1]:53", "[fd00::5]:53")
                .build();
        assertThat(typed).isEqualTo(strings);
        assertThat(VipSpec.tcp(Endpoint.of("10.0.0.1", 80), Endpoint.of("10.1.0.1", 80)))
                .isEqualTo(VipSpec.tcp("10.0.0.1:80", "10.1.0.1:80"));
    }

    @Test
    void typedEndpointsRefuseBadValuesAtOnce() {
        assertThatThrownBy(() -> Endpoint.of("10.0.0.1", 70000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port 70000 is out of range 1..65535");
        assertThatThrownBy(() -> Endpoint.of("10.0.0.1", 0)).hasMessageContaining("out of range");
        // A host name is never looked up: it is not an address.
        assertThatThrownBy(() -> Endpoint.of("web.example.com", 80)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.of("10.0.0.1:80", 80)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Endpoint.of("fd00:0::1", 443)).hasToString("[fd00::1]:443");
        assertThat(Endpoint.parse(Endpoint.of("10.0.0.1", 80).toString())).isEqualTo(Endpoint.of("10.0.0.1", 80));
    }
}
