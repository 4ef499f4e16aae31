package dev.ovnj.lb.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.Endpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the VIP and backends of northd's load-balancing flows, as OVN 23.03 writes them. */
class LbFlowTest {

    @Test
    void routerFlowWithGatewayPort() {
        LbFlow.Parsed p = LbFlow.parse("ct.new && !ct.rel && ip4 && ip4.dst == 172.16.0.100 && tcp && tcp.dst == 80 "
                + "&& is_chassis_resident(\"cr-lrp-ext\")", "ct_lb(backends=10.0.0.2:80,10.0.0.3:80);").orElseThrow();
        assertThat(p.key()).isEqualTo(LbFlow.lookupKey(Endpoint.parse("172.16.0.100:80"), "tcp"));
        assertThat(p.backends()).containsExactly("10.0.0.2:80", "10.0.0.3:80");
    }

    @Test
    void switchFlowWithCtLbMarkAndHashFields() {
        LbFlow.Parsed p = LbFlow.parse("ct.new && ip4.dst == 172.16.0.100 && udp.dst == 53",
                "reg0[1] = 0; ct_lb_mark(backends=10.0.0.2:53; hash_fields=\"ip_dst,ip_src\");").orElseThrow();
        assertThat(p.key()).isEqualTo(LbFlow.lookupKey(Endpoint.parse("172.16.0.100:53"), "udp"));
        assertThat(p.backends()).containsExactly("10.0.0.2:53");
    }

    @Test
    void ipv6IsCanonical() {
        LbFlow.Parsed p = LbFlow.parse("ct.new && !ct.rel && ip6 && ip6.dst == fd00:0::10 && tcp && tcp.dst == 443",
                "ct_lb(backends=[fd00:1:0::2]:443);").orElseThrow();
        assertThat(p.key()).isEqualTo(LbFlow.lookupKey(Endpoint.parse("[fd00::10]:443"), "tcp"));
        assertThat(p.backends()).isEqualTo(List.of("[fd00:1::2]:443"));
    }

    @Test
    void vipWithoutPortIsKeyedByAddressOnly() {
        LbFlow.Parsed p = LbFlow.parse("ct.new && !ct.rel && ip4 && ip4.dst == 172.16.0.100", "ct_lb(backends=10.0.0.2);")
                .orElseThrow();
        assertThat(p.key()).isEqualTo(LbFlow.lookupKey(Endpoint.parse("172.16.0.100"), "tcp"));
    }

    @Test
    void flowsThatDoNotBalanceAreIgnored() {
        assertThat(LbFlow.parse("reg0[2] == 1 && ip4.dst == 172.16.0.100 && tcp.dst == 80", "reg1 = 172.16.0.100; ct_lb;")).isEmpty();
        assertThat(LbFlow.parse("ip4.dst == 172.16.0.0/24", "ct_lb(backends=10.0.0.2:80);")).isEmpty();
        assertThat(LbFlow.parse("arp.tpa == $_rtr_lb_1_ip4", "next;")).isEmpty();
    }
}
