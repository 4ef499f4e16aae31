package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpNetwork;
import static dev.ovnj.nb.eip.EipTopology.EXT6_PORT;
import static dev.ovnj.nb.eip.EipTopology.EXT_PORT;
import static dev.ovnj.nb.eip.EipTopology.ROUTER;
import static dev.ovnj.nb.eip.EipTopology.SWITCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link EipView} on the seed topology, cross-checked with what ovn-nbctl wrote. */
class EipViewIT {
    private static OvsdbServer server;
    private static OvsdbClient client;
    private static EipView view;

    @BeforeAll
    static void start() {
        server = OvsdbServer.start();
        EipTopology.seed(server);
        client = EipTopology.connect(server);
        view = new EipView(client);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static IpNetwork ext() {
        return IpNetwork.parse("168.119.17.51/28");
    }

    private static UUID uuidOf(String table, String name) {
        return UUID.fromString(Nbctl.of(server).run("--bare", "--columns=_uuid", "find", table, "name=" + name));
    }

    @Test
    void portAddressIsFoundAsTheOwnAddressOfTheExternalPort() {
        EipRealization r = view.realization("168.119.17.51");

        assertThat(r.portNetworks()).containsExactly(new PortNetwork(ROUTER, EXT_PORT, ext(), true));
        assertThat(r.isPortAddress()).isTrue();
        assertThat(r.nats()).isEmpty();
        assertThat(r.vips()).isEmpty();
        assertThat(r.isUnused()).isFalse();
    }

    @Test
    void vipsAreFoundWithTheirAttachments() {
        for (String[] lb : new String[][] {{"168.119.17.55", "shalb-dev-api"}, {"168.119.17.53", "shalb-dev-api2"}}) {
            EipRealization r = view.realization(lb[0]);

            assertThat(r.portNetworks()).containsExactly(new PortNetwork(ROUTER, EXT_PORT, ext(), false));
            assertThat(r.isPortAddress()).isFalse();
            assertThat(r.vips()).containsExactly(new VipUse(lb[1], uuidOf("Load_Balancer", lb[1]), lb[0] + ":6443",
                    Optional.of("tcp"), OptionalInt.of(6443), List.of(ROUTER), List.of(SWITCH)));
            assertThat(r.nats()).isEmpty();
        }
    }

    @Test
    void floatingIpIsFoundAsNat() {
        EipRealization r = view.realization("168.119.17.60");
        UUID nat = UUID.fromString(Nbctl.of(server).run("--bare", "--columns=_uuid", "find", "NAT", "external_ip=\"168.119.17.60\""));

        assertThat(r.nats()).containsExactly(new NatUse(ROUTER, nat, "dnat_and_snat", "10.1.0.5"));
        assertThat(r.portNetworks()).containsExactly(new PortNetwork(ROUTER, EXT_PORT, ext(), false));
        assertThat(r.vips()).isEmpty();
    }

    @Test
    void addressOutsideEveryNetworkIsUnused() {
        EipRealization r = view.realization("10.99.0.1");

        assertThat(r.portNetworks()).isEmpty();
        assertThat(r.isUnused()).isTrue();
        assertThat(view.realization("168.119.17.52").isUnused()).isTrue();
        assertThat(view.realization("168.119.17.52").portNetworks()).hasSize(1);
    }

    @Test
    void routableOnChecksTheRoutersPortNetworks() {
        assertThat(view.routableOn(ROUTER, "168.119.17.55")).isTrue();
        assertThat(view.routableOn(ROUTER, "168.119.17.63")).isTrue();
        assertThat(view.routableOn(ROUTER, "10.99.0.1")).isFalse();
        assertThat(view.routableOn(ROUTER, "168.119.17.64")).isFalse();
        assertThatThrownBy(() -> view.routableOn("no-such-router", "168.119.17.55"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-router");
    }

    @Test
    void ipv6PortNetworkAndVip() {
        IpNetwork ext6 = IpNetwork.parse("fd00:10::1/120");

        EipRealization own = view.realization("fd00:10:0:0::1");
        assertThat(own.portNetworks()).containsExactly(new PortNetwork(ROUTER, EXT6_PORT, ext6, true));

        EipRealization vip = view.realization("fd00:10::55");
        assertThat(vip.portNetworks()).containsExactly(new PortNetwork(ROUTER, EXT6_PORT, ext6, false));
        assertThat(vip.vips()).containsExactly(new VipUse("shalb-dev-api6", uuidOf("Load_Balancer", "shalb-dev-api6"),
                "[fd00:10::55]:443", Optional.of("tcp"), OptionalInt.of(443), List.of(ROUTER), List.of(SWITCH)));

        assertThat(view.routableOn(ROUTER, "fd00:10::ff")).isTrue();
        assertThat(view.routableOn(ROUTER, "fd00:10::100")).isFalse();
    }

    @Test
    void viewFollowsChangesMadeBehindItsBack() {
        Nbctl.of(server).run("lr-nat-add", ROUTER, "dnat_and_snat", "168.119.17.61", "10.1.0.6");
        Await.until(EipTopology.WAIT, "NAT .61 in the cache",
                () -> !view.realization("168.119.17.61").nats().isEmpty());

        assertThat(view.realization("168.119.17.61").nats()).extracting(NatUse::logicalIp).containsExactly("10.1.0.6");
        Nbctl.of(server).run("lr-nat-del", ROUTER, "dnat_and_snat", "168.119.17.61");
    }
}
