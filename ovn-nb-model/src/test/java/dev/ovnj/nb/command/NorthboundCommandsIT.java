package dev.ovnj.nb.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The typed command API as a controller uses it: a project's topology composed in one list,
 * looked up in the client's cache (no request while composing), sent as one transaction, and read
 * back with ovn-nbctl; a refusal throws ovn-nbctl's message and leaves the database untouched.
 */
class NorthboundCommandsIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aProjectIsOneTransactionComposedFromTheCache() {
        try (OvsdbServer server = OvsdbServer.start();
                OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT)) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "ext");
            Await.until(Duration.ofSeconds(20), "the switch in the cache", () -> client.cache().table("Logical_Switch").size() == 1);
            long before = client.stats().transactions();

            NorthboundCommands nb = NorthboundCommands.begin(client)
                    .lrAdd("r1", false, false)
                    .lsAdd("web", false)
                    .lsAdd("db", false)
                    .lrpAdd("r1", "r1-ext", "00:00:00:00:01:01", List.of("172.16.0.1/24"), false)
                    .lrpAdd("r1", "r1-web", "00:00:00:00:01:02", List.of("10.0.1.1/24"), false)
                    .lspAdd("ext", "ext-r1", null, null, false)
                    .lspSetType("ext-r1", "router")
                    .lspSetOptions("ext-r1", List.of("router-port=r1-ext"))
                    .lspSetAddresses("ext-r1", List.of("router"))
                    .lspAdd("web", "vm1", null, null, false)
                    .lspSetAddresses("vm1", List.of("00:00:00:00:02:01 10.0.1.10"))
                    .lrpSetGatewayChassis("r1-ext", "gw1", "20")
                    .lrNatAdd("r1", "snat", "172.16.0.1", "10.0.1.0/24", null, null, false, false, null)
                    .lrNatAdd("r1", "dnat_and_snat", "172.16.0.50", "10.0.1.10", "vm1", "00:00:00:00:03:01", false, false,
                            null)
                    .lrRouteAdd("r1", "0.0.0.0/0", "172.16.0.254", null, null, false, false, false, null)
                    .pgAdd("pg_web", List.of("vm1"))
                    .aclAdd("pg_web", "to-lport", "1001", "outport == @pg_web && tcp.dst == 80", "allow-related",
                            NorthboundCommands.AclOptions.NONE)
                    .addressSetAdd("as_web", List.of("10.0.1.10"), false);
            // Composing read the cache only: nothing was sent.
            assertThat(client.stats().transactions()).isEqualTo(before);
            List<Operation> ops = nb.operations();
            assertThat(ops.stream().filter(Insert.class::isInstance).count()).isEqualTo(14);
            nb.commitAndWait(WAIT);
            assertThat(client.stats().transactions()).isEqualTo(before + 1);

            assertThat(nbctl.run("lr-nat-list", "r1")).contains("snat", "10.0.1.0/24", "dnat_and_snat", "172.16.0.50", "vm1");
            assertThat(nbctl.run("acl-list", "pg_web")).isEqualTo(
                    "  to-lport  1001 (outport == @pg_web && tcp.dst == 80) allow-related");
            assertThat(nbctl.run("lrp-get-gateway-chassis", "r1-ext")).isEqualTo("r1-ext-gw1    20");
            assertThat(nbctl.run("--bare", "--columns=name", "find", "Logical_Switch_Port", "type=router")).isEqualTo("ext-r1");
            assertThat(nbctl.run("lr-route-list", "r1")).contains("0.0.0.0/0", "172.16.0.254");
            assertThat(nbctl.run("get", "Address_Set", "as_web", "addresses")).isEqualTo("[\"10.0.1.10\"]");
        }
    }

    @Test
    void aRefusalNamesTheProblemAndSendsNothing() {
        try (OvsdbServer server = OvsdbServer.start();
                OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT)) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "sw0");
            // ovn-nbctl's change reaches the client's cache a moment later.
            Await.until(Duration.ofSeconds(20), "the switch in the cache", () -> client.cache().table("Logical_Switch").size() == 1);
            long before = client.stats().transactions();
            NorthboundCommands nb = NorthboundCommands.begin(client).lsAdd("sw1", false);
            assertThatThrownBy(() -> nb.lsAdd("sw0", false)).isInstanceOf(NbctlException.class)
                    .hasMessage("sw0: a switch with this name already exists");
            assertThatThrownBy(() -> NorthboundCommands.begin(client).lspAdd("sw0", "p1", "parent", "5000", false))
                    .hasMessage("5000: invalid tag (must be in range 0 to 4095)");
            assertThatThrownBy(() -> NorthboundCommands.begin(client).lrNatAdd("r9", "snat", "1.1.1.1", "10.0.0.0/8", null,
                    null, false, false, null)).hasMessage("r9: router name not found");
            // --may-exist makes the duplicate a no-op, and an empty list sends nothing.
            NorthboundCommands.begin(client).lsAdd("sw0", true).commitAndWait(WAIT);
            assertThat(client.stats().transactions()).isEqualTo(before);
            assertThat(nbctl.run("ls-list")).doesNotContain("sw1");
        }
    }
}
