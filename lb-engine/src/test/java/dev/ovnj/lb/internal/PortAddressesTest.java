package dev.ovnj.lb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.testkit.Schemas;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Addresses read from port rows as OVN writes them: MACs and keywords skipped, IPv6 matched in any spelling. */
class PortAddressesTest {
    private static final DatabaseSchema NB = DatabaseSchema.parse(Schemas.ovnNorthboundJson());

    private static Row switchPort(Set<String> addresses, Set<String> dynamic) {
        return Row.of(NB.table("Logical_Switch_Port"), UUID.randomUUID(),
                Map.of("name", "p", "addresses", addresses, "dynamic_addresses", dynamic));
    }

    @Test
    void addressesSkipMacsKeywordsAndPrefixLengthsAndComeCanonical() {
        Row port = switchPort(Set.of("00:00:00:00:00:01 10.1.0.5/24 FD00:0:0::5", "router", "unknown"),
                Set.of("00:00:00:00:00:02 10.1.0.6"));
        assertThat(PortAddresses.of(port)).containsExactlyInAnyOrder("10.1.0.5", "fd00::5", "10.1.0.6");
    }

    @Test
    void heldMatchesAWantedIpv6HostWrittenInAnotherSpelling() {
        Row port = switchPort(Set.of("00:00:00:00:00:01 10.1.0.5 fd00:0000::0005"), Set.of());
        Set<String> wanted = Set.of("fd00::5", "10.1.0.5", "10.1.0.9");
        assertThat(PortAddresses.held(port, wanted, PortAddresses.v6Heads(wanted))).containsExactlyInAnyOrder("fd00::5", "10.1.0.5");
        Set<String> v4Only = Set.of("10.1.0.9");
        assertThat(PortAddresses.held(port, v4Only, PortAddresses.v6Heads(v4Only))).isEmpty();
    }

    @Test
    void networkTakesTheDefaultPrefixOnlyWhereOneIsGiven() {
        assertThat(PortAddresses.network("10.1.0.0/24", 32)).contains(IpNetwork.parse("10.1.0.0/24"));
        assertThat(PortAddresses.network(" fd00:: ", 64)).contains(IpNetwork.parse("fd00::/64"));
        assertThat(PortAddresses.network("10.1.0.1", -1)).isEmpty();
        assertThat(PortAddresses.network("not-a-net", 32)).isEqualTo(Optional.empty());
    }

    @Test
    void aRouterPortAddressIsTheAddressBeforeTheSlash() {
        Row lrp = Row.of(NB.table("Logical_Router_Port"), UUID.randomUUID(),
                Map.of("name", "lrp", "networks", Set.of("10.1.0.1/24", "fd00::1/64", "bogus")));
        assertThat(PortAddresses.isRouterPortAddress(lrp, IpAddresses.parse("fd00:0::1"))).isTrue();
        assertThat(PortAddresses.isRouterPortAddress(lrp, IpAddresses.parse("10.1.0.2"))).isFalse();
    }
}
