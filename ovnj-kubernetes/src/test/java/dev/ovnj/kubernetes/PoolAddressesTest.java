package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.nb.ip.IpAddresses;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An EipPool's spec.addresses against its port's networks: what it gives out, and what the allocator is told to skip. */
class PoolAddressesTest {
    private static final List<String> PORT = List.of("172.30.0.1/24", "fd00:30::1/64");

    @Test
    void withoutAddressesThePoolIsEachFamilysWholeNetworkOfHosts() {
        PoolAddresses all = PoolAddresses.resolve(List.of(), PORT, "r-a-ext");
        assertThat(all.toString()).isEqualTo("172.30.0.1-172.30.0.254, fd00:30::1-fd00:30::ffff:ffff:ffff:ffff");
        assertThat(all.exclusions(PORT)).isEmpty();
        assertThat(all.size()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void rangesCidrsAndAddressesAreClippedToHostsAndTheRestIsExcluded() {
        PoolAddresses pool = PoolAddresses.resolve(List.of("172.30.0.128/28", "172.30.0.100-172.30.0.120", "172.30.0.250",
                "172.30.0.252/30"), PORT, "r-a-ext");
        // The /30 holds .255, the network's broadcast address: never given out.
        assertThat(pool.toString()).isEqualTo("172.30.0.100-172.30.0.120, 172.30.0.128-172.30.0.143, 172.30.0.250, 172.30.0.252-172.30.0.254");
        assertThat(pool.size()).isEqualTo(21 + 16 + 1 + 3);
        assertThat(pool.contains(IpAddresses.parse("172.30.0.143"))).isTrue();
        assertThat(pool.contains(IpAddresses.parse("172.30.0.144"))).isFalse();
        assertThat(pool.exclusions(PORT).stream().map(PoolAddresses::format).toList()).containsExactly(
                "172.30.0.1-172.30.0.99", "172.30.0.121-172.30.0.127", "172.30.0.144-172.30.0.249", "172.30.0.251",
                "fd00:30::1-fd00:30::ffff:ffff:ffff:ffff");
        assertThat(pool.count(List.of(IpAddresses.parse("172.30.0.100"), IpAddresses.parse("172.30.0.1")))).isEqualTo(1);
    }

    @Test
    void anEntryOutsideThePortsNetworkOrMalformedOrOverlappingIsNamed() {
        assertThatThrownBy(() -> PoolAddresses.resolve(List.of("172.30.1.5-172.30.1.9"), PORT, "r-a-ext"))
                .hasMessage("spec.addresses: 172.30.1.5-172.30.1.9 is outside 172.30.0.0/24, the network of Logical_Router_Port r-a-ext"
                        + " that its addresses are given from (the port's first IPv4 network)");
        assertThatThrownBy(() -> PoolAddresses.resolve(List.of("10.0.0.1"), List.of("fd00:30::1/64"), "r-a-ext"))
                .hasMessage("spec.addresses: 10.0.0.1 is outside the networks [fd00:30::1/64] of Logical_Router_Port r-a-ext");
        assertThatThrownBy(() -> PoolAddresses.resolve(List.of("172.30.0.9-172.30.0.1"), PORT, "r-a-ext"))
                .hasMessageStartingWith("spec.addresses: \"172.30.0.9-172.30.0.1\" is not a range a-b, a CIDR or an address");
        assertThatThrownBy(() -> PoolAddresses.resolve(List.of("172.30.0.10-172.30.0.20", "172.30.0.16/30"), PORT, "r-a-ext"))
                .hasMessage("spec.addresses: 172.30.0.10-172.30.0.20 and 172.30.0.16-172.30.0.19 overlap");
    }

    @Test
    void poolsOverlapOnlyWithinOneFamily() {
        PoolAddresses a = PoolAddresses.resolve(List.of("172.30.0.100-172.30.0.120"), PORT, "r-a-ext");
        PoolAddresses b = PoolAddresses.resolve(List.of("172.30.0.120-172.30.0.130"), PORT, "r-a-ext");
        PoolAddresses v6 = PoolAddresses.resolve(List.of("fd00:30::100-fd00:30::120"), PORT, "r-a-ext");
        assertThat(b.overlapWith(a).map(PoolAddresses::format)).contains("172.30.0.120-172.30.0.130");
        assertThat(v6.overlapWith(a)).isEmpty();
    }
}
