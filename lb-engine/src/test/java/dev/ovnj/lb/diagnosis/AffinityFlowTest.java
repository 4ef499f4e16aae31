package dev.ovnj.lb.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link AffinityFlow} on the flows ovn-northd 23.03, 25.03 and 26.03 write for a learned session-affinity backend. */
class AffinityFlowTest {

    @Test
    void readsTheRegistersOfEachRelease() {
        // OVN 23.03, router: the learned flow loads reg4 and reg8[0..15].
        assertThat(AffinityFlow.parse("reg9[6] == 1 && ct.new && ip4 && reg4 == 10.0.0.11 && reg8[0..15] == 8080",
                "reg0 = 172.30.0.11; ct_lb_mark(backends=10.0.0.11:8080);")).hasValueSatisfying(p -> {
                    assertThat(p.backend()).isEqualTo("10.0.0.11:8080");
                    assertThat(p.registers()).containsExactly("reg9[6] == 1", "reg4 == 10.0.0.11", "reg8[0..15] == 8080");
                });
        // OVN 25.03 and 26.03: reg2[0..15] for the port, and the VIP in the match.
        assertThat(AffinityFlow.parse("reg9[6] == 1 && ct.new && ip4.dst == 172.30.0.11 && reg4 == 10.0.0.12 && reg2[0..15] == 8080",
                "ct_lb_mark(backends=10.0.0.12:8080);")).hasValueSatisfying(p ->
                    assertThat(p.registers()).containsExactly("reg9[6] == 1", "reg4 == 10.0.0.12", "reg2[0..15] == 8080"));
        // IPv6: the backend in an xxreg, written without brackets.
        assertThat(AffinityFlow.parse("reg9[6] == 1 && ct.new && ip6 && xxreg1 == fd00::b && reg8[0..15] == 80",
                "ct_lb_mark(backends=[fd00::b]:80);")).hasValueSatisfying(p -> assertThat(p.backend()).isEqualTo("[fd00::b]:80"));
    }

    @Test
    void ordinaryLoadBalancingFlowsAreNotAffinityFlows() {
        assertThat(AffinityFlow.parse("ct.new && !ct.rel && ip4 && ip4.dst == 172.30.0.11 && tcp && tcp.dst == 80",
                "ct_lb_mark(backends=10.0.0.11:8080,10.0.0.12:8080);")).isEmpty();
        assertThat(AffinityFlow.parse("ct.new && ip4.dst == 172.30.0.11 && tcp.dst == 80", "ct_lb_mark(backends=10.0.0.11:8080);")).isEmpty();
        assertThat(AffinityFlow.parse("reg9[6] == 0 && ct.new && ip4 && reg4 == 172.30.0.11 && reg2[0..15] == 80",
                "commit_lb_aff(vip = \"172.30.0.11:80\", backend = \"10.0.0.11:8080\", proto = tcp, timeout = 60);")).isEmpty();
    }
}
