package dev.ovnj.nb.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class IpNetworkTest {

    private static java.net.InetAddress ip(String text) {
        return IpAddresses.parse(text);
    }

    @Test
    void ipv4Slash28KeepsThePortAddressAndKnowsItsBounds() {
        IpNetwork net = IpNetwork.parse("168.119.17.51/28");

        assertThat(net.address()).isEqualTo(ip("168.119.17.51"));
        assertThat(net.networkAddress()).isEqualTo(ip("168.119.17.48"));
        assertThat(net.lastAddress()).isEqualTo(ip("168.119.17.63"));
        assertThat(net.cidr()).isEqualTo("168.119.17.48/28");
        assertThat(net).hasToString("168.119.17.51/28");
        assertThat(net.family()).isEqualTo(IpFamily.IPV4);
    }

    @Test
    void ipv4HostsExcludeNetworkAndBroadcast() {
        IpRange hosts = IpNetwork.parse("168.119.17.51/28").hosts();

        assertThat(hosts.first()).isEqualTo(ip("168.119.17.49"));
        assertThat(hosts.last()).isEqualTo(ip("168.119.17.62"));
        assertThat(hosts.size()).isEqualTo(BigInteger.valueOf(14));
    }

    @Test
    void pointToPointAndSingleAddressNetworksKeepEveryAddress() {
        assertThat(IpNetwork.parse("10.0.0.0/31").hosts()).hasToString("10.0.0.0..10.0.0.1");
        assertThat(IpNetwork.parse("10.0.0.7/32").hosts()).hasToString("10.0.0.7");
        assertThat(IpNetwork.parse("fd00::/127").hosts()).hasToString("fd00::..fd00::1");
    }

    @Test
    void containsChecksPrefixBitsAndFamily() {
        IpNetwork net = IpNetwork.parse("168.119.17.51/28");

        assertThat(net.contains(ip("168.119.17.48"))).isTrue();
        assertThat(net.contains(ip("168.119.17.63"))).isTrue();
        assertThat(net.contains(ip("168.119.17.64"))).isFalse();
        assertThat(net.contains(ip("168.119.17.47"))).isFalse();
        assertThat(net.contains(ip("10.99.0.1"))).isFalse();
        assertThat(net.contains(ip("::a877:1133"))).isFalse();
    }

    @Test
    void ipv6Slash120() {
        IpNetwork net = IpNetwork.parse("fd00:10::1/120");

        assertThat(net.networkAddress()).isEqualTo(ip("fd00:10::"));
        assertThat(net.lastAddress()).isEqualTo(ip("fd00:10::ff"));
        assertThat(net.contains(ip("fd00:10::80"))).isTrue();
        assertThat(net.contains(ip("fd00:10::100"))).isFalse();
        assertThat(net.contains(ip("10.0.0.1"))).isFalse();
        // IPv6 has no broadcast: only the Subnet-Router anycast address is left out.
        assertThat(net.hosts()).hasToString("fd00:10::1..fd00:10::ff");
        assertThat(net.hosts().size()).isEqualTo(BigInteger.valueOf(255));
        assertThat(net.cidr()).isEqualTo("fd00:10::/120");
    }

    @Test
    void ipv6WideNetworkArithmeticDoesNotOverflow() {
        IpNetwork net = IpNetwork.parse("2001:db8::5/64");

        assertThat(net.lastAddress()).isEqualTo(ip("2001:db8::ffff:ffff:ffff:ffff"));
        assertThat(net.hosts().size()).isEqualTo(BigInteger.TWO.pow(64).subtract(BigInteger.ONE));
    }

    @Test
    void rejectsMalformedNetworks() {
        assertThatThrownBy(() -> IpNetwork.parse("168.119.17.51")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpNetwork.parse("168.119.17.51/33")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpNetwork.parse("fd00::1/129")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpNetwork.parse("example.com/24")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void containsComparesOnlyThePrefixBits() {
        IpNetwork n = IpNetwork.parse("168.119.17.51/28");
        assertThat(n.contains(IpAddresses.parse("168.119.17.48"))).isTrue();
        assertThat(n.contains(IpAddresses.parse("168.119.17.63"))).isTrue();
        assertThat(n.contains(IpAddresses.parse("168.119.17.64"))).isFalse();
        assertThat(n.contains(IpAddresses.parse("168.119.17.47"))).isFalse();
        assertThat(IpNetwork.parse("10.0.0.1/0").contains(IpAddresses.parse("255.1.2.3"))).isTrue();
        assertThat(IpNetwork.parse("10.0.0.1/32").contains(IpAddresses.parse("10.0.0.1"))).isTrue();
        assertThat(IpNetwork.parse("10.0.0.1/32").contains(IpAddresses.parse("10.0.0.2"))).isFalse();
        assertThat(IpNetwork.parse("10.1.0.1/9").contains(IpAddresses.parse("10.127.255.255"))).isTrue();
        assertThat(IpNetwork.parse("10.1.0.1/9").contains(IpAddresses.parse("10.128.0.0"))).isFalse();
        assertThat(IpNetwork.parse("fd00::1/64").contains(IpAddresses.parse("fd00::ffff:1"))).isTrue();
        assertThat(IpNetwork.parse("fd00::1/64").contains(IpAddresses.parse("fd00:0:0:1::1"))).isFalse();
        assertThat(IpNetwork.parse("fd00::1/64").contains(IpAddresses.parse("10.0.0.1"))).isFalse();
    }
}
