package dev.ovnj.lb.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class DesiredPolicyTest {

    @Test
    void anAllowForTheRangesAndADropPerFamilyMatchingTheBackendsAfterDnat() {
        LoadBalancerSpec spec = LoadBalancerSpec.builder("web").routers("lr0")
                .tcp("172.16.0.100:80", "10.0.0.3:8080", "10.0.0.2:8080").tcp("172.16.0.100:443", "10.0.0.2:8443")
                .udp("172.16.0.100:53", "10.0.0.2:53").tcp("[fd00:172::100]:80", "[fd00:10::2]:8080")
                .sourceRanges(List.of("203.0.113.7/32", "198.51.100.9/24")).build();
        List<DesiredPolicy> policies = DesiredPolicy.of("o", spec);
        assertThat(policies).extracting(DesiredPolicy::key).containsExactly("allow-ipv4", "drop-ipv4", "drop-ipv6");
        String backends = "((ip4.dst == {10.0.0.2, 10.0.0.3} && tcp.dst == 8080) || (ip4.dst == 10.0.0.2 && tcp.dst == 8443)"
                + " || (ip4.dst == 10.0.0.2 && udp.dst == 53))";
        // The ranges in canonical form (host bits cleared), sorted: the match is the same text on every pass.
        assertThat(policies.get(0).match()).isEqualTo("ct.dnat && ip4.src == {198.51.100.0/24, 203.0.113.7/32} && " + backends);
        assertThat(policies.get(0).priority()).isGreaterThan(policies.get(1).priority());
        assertThat(policies.get(1).match()).isEqualTo("ct.dnat && " + backends);
        assertThat(policies.get(1).action()).isEqualTo("drop");
        assertThat(policies.get(2).match()).isEqualTo("ct.dnat && ((ip6.dst == fd00:10::2 && tcp.dst == 8080))");
        assertThat(policies.get(0).externalIds()).containsEntry(DesiredRow.OWNER_KEY, "o").containsEntry(DesiredRow.SPEC_KEY, "web")
                .containsEntry(DesiredPolicy.POLICY_KEY, "allow-ipv4");
        assertThat(DesiredPolicy.of("o", LoadBalancerSpec.builder("x").tcp("172.16.0.100:80", "10.0.0.2:80").build())).isEmpty();
    }
}
