package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The search of {@link EipAllocator} for the lowest free address, without a database. */
class FirstFreeTest {

    private static InetAddress ip(String text) {
        return IpAddresses.parse(text);
    }

    @Test
    void skipsUsedAndExcludedAddresses() {
        IpNetwork net = IpNetwork.parse("168.119.17.51/28");

        assertThat(EipAllocator.firstFree(net, Set.of(), List.of())).contains(ip("168.119.17.49"));
        assertThat(EipAllocator.firstFree(net, Set.of(ip("168.119.17.49"), ip("168.119.17.50")),
                List.of(IpRange.parse("168.119.17.51..168.119.17.53")))).contains(ip("168.119.17.54"));
    }

    @Test
    void neverOffersNetworkOrBroadcastAddress() {
        IpNetwork net = IpNetwork.parse("168.119.17.51/28");

        assertThat(EipAllocator.firstFree(net, Set.of(), List.of(IpRange.parse("168.119.17.49..168.119.17.61"))))
                .contains(ip("168.119.17.62"));
        assertThat(EipAllocator.firstFree(net, Set.of(), List.of(IpRange.parse("168.119.17.49..168.119.17.62"))))
                .isEmpty();
    }

    @Test
    void ipv6StepsOverHugeExcludedRangesAtOnce() {
        IpNetwork net = IpNetwork.parse("2001:db8::1/64");

        assertThat(EipAllocator.firstFree(net, Set.of(ip("2001:db8::1")),
                List.of(IpRange.parse("2001:db8::2..2001:db8::ffff:ffff:ffff:fff0"))))
                .contains(ip("2001:db8::ffff:ffff:ffff:fff1"));
    }

    @Test
    void ignoresExcludesAndUsesOfTheOtherFamily() {
        IpNetwork net = IpNetwork.parse("fd00:10::1/120");

        assertThat(EipAllocator.firstFree(net, Set.of(ip("0.0.0.1"), ip("fd00:10::1")), List.of(IpRange.parse("0.0.0.2..0.0.0.9"))))
                .contains(ip("fd00:10::2"));
    }
}
