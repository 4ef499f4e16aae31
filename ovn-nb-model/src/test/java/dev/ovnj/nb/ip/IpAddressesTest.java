package dev.ovnj.nb.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class IpAddressesTest {

    @Test
    void formatsIpv6Canonically() {
        assertThat(IpAddresses.format(IpAddresses.parse("FD00:0:0:0:0:0:0:1"))).isEqualTo("fd00::1");
        assertThat(IpAddresses.format(IpAddresses.parse("2001:db8:0:0:1:0:0:1"))).isEqualTo("2001:db8::1:0:0:1");
        assertThat(IpAddresses.format(IpAddresses.parse("2001:db8:0:1:1:1:1:1"))).isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(IpAddresses.format(IpAddresses.parse("::"))).isEqualTo("::");
        assertThat(IpAddresses.format(IpAddresses.parse("fd00::"))).isEqualTo("fd00::");
        assertThat(IpAddresses.format(IpAddresses.parse("::1"))).isEqualTo("::1");
    }

    @Test
    void integerRoundTripKeepsTheFamily() {
        assertThat(IpAddresses.toInteger(IpAddresses.parse("0.0.1.2"))).isEqualTo(BigInteger.valueOf(258));
        assertThat(IpAddresses.fromInteger(BigInteger.valueOf(258), 32)).isEqualTo(IpAddresses.parse("0.0.1.2"));
        assertThat(IpAddresses.fromInteger(BigInteger.valueOf(258), 128)).isEqualTo(IpAddresses.parse("::102"));
        BigInteger top = BigInteger.TWO.pow(32).subtract(BigInteger.ONE);
        assertThat(IpAddresses.fromInteger(top, 32)).isEqualTo(IpAddresses.parse("255.255.255.255"));
        assertThatThrownBy(() -> IpAddresses.fromInteger(top.add(BigInteger.ONE), 32)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesHostNamesAndBadOctetsWithoutResolving() {
        assertThatThrownBy(() -> IpAddresses.parse("localhost")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpAddresses.parse("1.2.3.256")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpAddresses.parse("1.2.3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpAddresses.parse("fd00::1::2")).isInstanceOf(IllegalArgumentException.class);
    }
}
