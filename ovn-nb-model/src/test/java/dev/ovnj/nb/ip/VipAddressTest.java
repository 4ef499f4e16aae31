package dev.ovnj.nb.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class VipAddressTest {

    @Test
    void ipv4WithPort() {
        VipAddress key = VipAddress.parse("1.2.3.4:80");

        assertThat(key.ip()).isEqualTo(IpAddresses.parse("1.2.3.4"));
        assertThat(key.port()).isEqualTo(OptionalInt.of(80));
        assertThat(key).hasToString("1.2.3.4:80");
    }

    @Test
    void bracketedIpv6WithPort() {
        VipAddress key = VipAddress.parse("[fd00::1]:80");

        assertThat(key.ip()).isEqualTo(IpAddresses.parse("fd00::1"));
        assertThat(key.port()).isEqualTo(OptionalInt.of(80));
        assertThat(key).hasToString("[fd00::1]:80");
    }

    @Test
    void bareAddressesHaveNoPort() {
        assertThat(VipAddress.parse("1.2.3.4")).isEqualTo(new VipAddress(IpAddresses.parse("1.2.3.4"), OptionalInt.empty()));
        assertThat(VipAddress.parse("fd00::1")).isEqualTo(new VipAddress(IpAddresses.parse("fd00::1"), OptionalInt.empty()));
        assertThat(VipAddress.parse("[fd00::1]")).isEqualTo(new VipAddress(IpAddresses.parse("fd00::1"), OptionalInt.empty()));
        assertThat(VipAddress.parse("fd00::1")).hasToString("fd00::1");
    }

    @Test
    void rejectsMalformedKeys() {
        assertThatThrownBy(() -> VipAddress.parse("1.2.3.4:http")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VipAddress.parse("1.2.3.4:0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VipAddress.parse("1.2.3.4:70000")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VipAddress.parse("[fd00::1:80")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VipAddress.parse("[fd00::1]80")).isInstanceOf(IllegalArgumentException.class);
    }
}
