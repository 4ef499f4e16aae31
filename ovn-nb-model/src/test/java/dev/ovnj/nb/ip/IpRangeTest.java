package dev.ovnj.nb.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class IpRangeTest {

    @Test
    void parsesKubeOvnStyleRanges() {
        IpRange range = IpRange.parse("168.119.17.56..168.119.17.58");

        assertThat(range.size()).isEqualTo(BigInteger.valueOf(3));
        assertThat(range.contains(IpAddresses.parse("168.119.17.55"))).isFalse();
        assertThat(range.contains(IpAddresses.parse("168.119.17.56"))).isTrue();
        assertThat(range.contains(IpAddresses.parse("168.119.17.58"))).isTrue();
        assertThat(range.contains(IpAddresses.parse("168.119.17.59"))).isFalse();
        assertThat(range).hasToString("168.119.17.56..168.119.17.58");
    }

    @Test
    void singleAddressIsARangeOfOne() {
        IpRange range = IpRange.parse("168.119.17.57");

        assertThat(range.size()).isEqualTo(BigInteger.ONE);
        assertThat(range.contains(IpAddresses.parse("168.119.17.57"))).isTrue();
        assertThat(range.contains(IpAddresses.parse("168.119.17.58"))).isFalse();
    }

    @Test
    void ipv6Ranges() {
        IpRange range = IpRange.parse("fd00:10::10..fd00:10::1f");

        assertThat(range.size()).isEqualTo(BigInteger.valueOf(16));
        assertThat(range.contains(IpAddresses.parse("fd00:10::1a"))).isTrue();
        assertThat(range.contains(IpAddresses.parse("fd00:10::20"))).isFalse();
        assertThat(range.contains(IpAddresses.parse("0.0.0.26"))).isFalse();
    }

    @Test
    void rejectsBackwardAndMixedRanges() {
        assertThatThrownBy(() -> IpRange.parse("10.0.0.9..10.0.0.1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpRange.parse("10.0.0.1..fd00::1")).isInstanceOf(IllegalArgumentException.class);
    }
}
