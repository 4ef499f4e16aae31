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
    void ovn2603RegisterStyleL4MatchIsTheSameKey() {
        // OVN 26.03's ls_in_lb and lr_in_dnat flows, as ovn-sbctl lflow-list printed them.
        LbFlow.Parsed sw = LbFlow.parse("ct.new && ip4.dst == 172.16.0.100 && reg1[16..23] == 6 && reg1[0..15] == 80",
                "reg4 = 172.16.0.100; reg2[0..15] = 80; ct_lb_mark(backends=10.0.0.2:80,10.0.0.3:80);").orElseThrow();
        assertThat(sw.key()).isEqualTo(LbFlow.lookupKey(Endpoint.parse("172.16.0.100:80"), "tcp"));
        assertThat(sw.backends()).containsExactly("10.0.0.2:80", "10.0.0.3:80");
        LbFlow.Parsed rt = LbFlow.parse("ct.new && !ct.rel && ip4 && ip4.dst == 172.16.0.100 && reg1[16..23] == 6 "
                + "&& reg1[0..15] == 80 && is_chassis_resident(\"cr-lrp-ext\")", "ct_lb_mark(backends=10.0.0.2:80);").orElseThrow();
        assertThat(rt.key()).isEqualTo(sw.key());
        assertThat(LbFlow.parse("ct.new && ip6.dst == fd00::10 && reg1[16..23] == 17 && reg1[0..15] == 53",
                "ct_lb_mark(backends=[fd00::2]:53);").orElseThrow().key())
                .isEqualTo(LbFlow.lookupKey(Endpoint.parse("[fd00::10]:53"), "udp"));
        assertThat(LbFlow.parse("ct.new && ip4.dst == 172.16.0.100 && reg1[16..23] == 132 && reg1[0..15] == 9",
                "ct_lb_mark(backends=10.0.0.2:9);").orElseThrow().key())
                .isEqualTo(LbFlow.lookupKey(Endpoint.parse("172.16.0.100:9"), "sctp"));
    }

    @Test
    void flowsThatDoNotBalanceAreIgnored() {
        assertThat(LbFlow.parse("reg0[2] == 1 && ip4.dst == 172.16.0.100 && tcp.dst == 80", "reg1 = 172.16.0.100; ct_lb;")).isEmpty();
        assertThat(LbFlow.parse("ip4.dst == 172.16.0.0/24", "ct_lb(backends=10.0.0.2:80);")).isEmpty();
        assertThat(LbFlow.parse("arp.tpa == $_rtr_lb_1_ip4", "next;")).isEmpty();
    }
}
