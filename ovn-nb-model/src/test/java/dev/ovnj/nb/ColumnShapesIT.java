package dev.ovnj.nb;

import static dev.ovnj.nb.Northbound.transact;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.model.Acl;
import dev.ovnj.nb.model.ImmutableLoadBalancer;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.LogicalSwitchPort;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.TypedCache;
import dev.ovnj.ovsdb.typed.TypedOps;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every column shape of the Northbound schema written through the model and read back with
 * ovn-nbctl, and the other way round, against a real ovsdb-server. One server serves the class;
 * each test uses names of its own.
 */
class ColumnShapesIT {

    private static OvsdbServer server;
    private static OvsdbClient client;
    private static Nbctl nbctl;
    private static TypedCache cache;

    @BeforeAll
    static void startServer() {
        server = OvsdbServer.builder().schema(Northbound.MODEL_SCHEMA).start();
        nbctl = Nbctl.of(server);
        nbctl.run("init");
        client = Northbound.connect(server.remote(), Compatibility.STRICT);
        cache = TypedCache.of(client.cache(), OvnNorthboundModel.MODEL);
    }

    @AfterAll
    static void stopServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String get(String table, Object record, String column) {
        return nbctl.run("get", table, String.valueOf(record), column).trim();
    }

    @Test
    void modelWritesEveryShapeThatNbctlReads() {
        Insert ls = TypedOps.insert(LogicalSwitch.builder().name("w-ls")
                .externalIds(Map.of("owner", "model", "tier", "web")).build()).uuidName("ls");
        Insert acl = TypedOps.insert(Acl.builder().priority(1234).direction(Acl.Direction.FROM_LPORT)
                .match("ip4.src == 10.0.0.1").action(Acl.Action.ALLOW_RELATED).log(true)
                .name("w-acl").severity(Acl.Severity.ALERT).build()).uuidName("acl");
        Insert port = TypedOps.insert(LogicalSwitchPort.builder().name("w-port")
                .addresses(Set.of("00:00:00:00:00:01 10.0.0.5", "router")).tagRequest(7L).enabled(true).build())
                .uuidName("port");
        TransactionResult result = transact(client, ls, acl, port,
                Operations.mutate(LogicalSwitch.TABLE.name()).where(LogicalSwitch.NAME.eq("w-ls"))
                        .mutation(LogicalSwitch.ACLS.insert(acl.reference()), LogicalSwitch.PORTS.insert(port.reference())));

        UUID aclUuid = result.uuidOf("acl");
        UUID portUuid = result.uuidOf("port");
        // string, map
        assertThat(get("Logical_Switch", "w-ls", "name")).isEqualTo("w-ls");
        assertThat(get("Logical_Switch", "w-ls", "external_ids:tier")).isEqualTo("web");
        assertThat(get("Logical_Switch", "w-ls", "external_ids")).contains("owner=model");
        // strong references
        assertThat(get("Logical_Switch", "w-ls", "acls")).isEqualTo("[" + aclUuid + "]");
        assertThat(get("Logical_Switch", "w-ls", "ports")).isEqualTo("[" + portUuid + "]");
        // integer, enum, boolean, optional string, optional enum
        assertThat(get("ACL", aclUuid, "priority")).isEqualTo("1234");
        assertThat(get("ACL", aclUuid, "direction")).isEqualTo("from-lport");
        assertThat(get("ACL", aclUuid, "action")).isEqualTo("allow-related");
        assertThat(get("ACL", aclUuid, "log")).isEqualTo("true");
        assertThat(get("ACL", aclUuid, "name")).isEqualTo("w-acl");
        assertThat(get("ACL", aclUuid, "severity")).isEqualTo("alert");
        // set of strings, optional integer, optional boolean
        assertThat(nbctl.run("lsp-get-addresses", "w-port")).contains("00:00:00:00:00:01 10.0.0.5").contains("router");
        assertThat(get("Logical_Switch_Port", "w-port", "tag_request")).isEqualTo("7");
        assertThat(nbctl.run("lsp-get-enabled", "w-port").trim()).isEqualTo("enabled");
        assertThat(nbctl.run("acl-list", "w-ls")).contains("from-lport  1234 (ip4.src == 10.0.0.1) allow-related");
    }

    @Test
    void nbctlWritesEveryShapeThatTheModelReads() {
        nbctl.run("ls-add", "n-ls", "--", "set", "Logical_Switch", "n-ls", "external_ids:owner=nbctl");
        nbctl.run("acl-add", "n-ls", "to-lport", "2000", "ip4", "drop");
        nbctl.run("lsp-add", "n-ls", "n-port");
        nbctl.run("lsp-set-addresses", "n-port", "00:00:00:00:00:02 10.0.0.6");
        nbctl.run("lsp-set-enabled", "n-port", "disabled");
        nbctl.run("set", "Logical_Switch_Port", "n-port", "tag_request=9");
        nbctl.run("lr-add", "n-lr");
        nbctl.run("lb-add", "n-lb", "10.0.0.10:80", "10.0.0.2:80,10.0.0.3:80", "udp");
        nbctl.run("set", "Load_Balancer", "n-lb", "selection_fields=ip_src,ip_dst");
        nbctl.run("lr-lb-add", "n-lr", "n-lb");
        // The next nbctl change reaching the cache shows all earlier ones have too.
        nbctl.run("ls-add", "n-marker");
        Await.until(Northbound.WAIT, "n-marker in the cache", () -> Northbound.byName(cache.table(LogicalSwitch.class), LogicalSwitch::name, "n-marker").isPresent());

        LogicalSwitch ls = Northbound.byName(cache.table(LogicalSwitch.class), LogicalSwitch::name, "n-ls").orElseThrow();
        assertThat(ls.externalIds()).containsEntry("owner", "nbctl");
        assertThat(ls.acls()).hasSize(1);
        Acl acl = cache.table(Acl.class).get(ls.acls().iterator().next()).orElseThrow();
        assertThat(acl.priority()).isEqualTo(2000L);
        assertThat(acl.direction()).isEqualTo(Acl.Direction.TO_LPORT);
        assertThat(acl.action()).isEqualTo(Acl.Action.DROP);
        assertThat(acl.match()).isEqualTo("ip4");
        assertThat(acl.log()).isFalse();
        assertThat(acl.severity()).isEmpty();

        LogicalSwitchPort port = cache.table(LogicalSwitchPort.class).get(ls.ports().iterator().next()).orElseThrow();
        assertThat(port.name()).isEqualTo("n-port");
        assertThat(port.addresses()).containsExactly("00:00:00:00:00:02 10.0.0.6");
        assertThat(port.enabled()).contains(false);
        assertThat(port.tagRequest()).contains(9L);

        LoadBalancer lb = Northbound.byName(cache.table(LoadBalancer.class), LoadBalancer::name, "n-lb").orElseThrow();
        assertThat(lb.vips()).containsExactly(Map.entry("10.0.0.10:80", "10.0.0.2:80,10.0.0.3:80"));
        assertThat(lb.protocol()).contains(LoadBalancer.Protocol.UDP);
        assertThat(lb.selectionFields()).containsExactlyInAnyOrder(LoadBalancer.SelectionFields.IP_SRC,
                LoadBalancer.SelectionFields.IP_DST);
        LogicalRouter lr = Northbound.byName(cache.table(LogicalRouter.class), LogicalRouter::name, "n-lr").orElseThrow();
        assertThat(lr.loadBalancer()).containsExactly(lb.uuid().orElseThrow());
    }

    @Test
    void typedUpdateClearsSetsMapsAndOptionalsToEmpty() {
        nbctl.run("lb-add", "c-lb", "10.0.1.10:80", "10.0.1.2:80", "tcp");
        nbctl.run("set", "Load_Balancer", "c-lb", "selection_fields=ip_src", "external_ids:owner=nbctl");
        Await.until(Northbound.WAIT, "c-lb in the cache", () -> Northbound.byName(cache.table(LoadBalancer.class), LoadBalancer::name, "c-lb").isPresent());
        LoadBalancer lb = Northbound.byName(cache.table(LoadBalancer.class), LoadBalancer::name, "c-lb").orElseThrow();
        assertThat(lb.vips()).isNotEmpty();

        LoadBalancer cleared = ImmutableLoadBalancer.copyOf(lb).withVips(Map.of()).withExternalIds(Map.of())
                .withSelectionFields(Set.of()).withProtocol(Optional.empty());
        transact(client, TypedOps.update(cleared, LoadBalancer.VIPS, LoadBalancer.EXTERNAL_IDS,
                LoadBalancer.SELECTION_FIELDS, LoadBalancer.PROTOCOL));

        assertThat(get("Load_Balancer", "c-lb", "vips")).isEqualTo("{}");
        assertThat(get("Load_Balancer", "c-lb", "external_ids")).isEqualTo("{}");
        assertThat(get("Load_Balancer", "c-lb", "selection_fields")).isEqualTo("[]");
        assertThat(get("Load_Balancer", "c-lb", "protocol")).isEqualTo("[]");
        assertThat(cache.table(LoadBalancer.class).get(lb.uuid().orElseThrow()).orElseThrow().vips()).isEmpty();
    }

    @Test
    void oneTransactionInsertsALoadBalancerAndAttachesItByNamedUuid() {
        nbctl.run("lr-add", "a-lr");
        nbctl.run("ls-add", "a-ls");
        Insert lb = TypedOps.insert(LoadBalancer.builder().name("a-web").putVips("192.0.2.10:80", "10.0.2.2:80")
                .protocol(LoadBalancer.Protocol.TCP).build()).uuidName("lb");
        TransactionResult result = transact(client, lb,
                Operations.mutate(LogicalRouter.TABLE.name()).where(LogicalRouter.NAME.eq("a-lr"))
                        .mutation(LogicalRouter.LOAD_BALANCER.insert(lb.reference())),
                Operations.mutate(LogicalSwitch.TABLE.name()).where(LogicalSwitch.NAME.eq("a-ls"))
                        .mutation(LogicalSwitch.LOAD_BALANCER.insert(lb.reference())));

        assertThat(result.count(1)).isEqualTo(1);
        assertThat(result.count(2)).isEqualTo(1);
        assertThat(nbctl.run("lr-lb-list", "a-lr")).contains("a-web").contains("192.0.2.10:80");
        assertThat(nbctl.run("ls-lb-list", "a-ls")).contains("a-web").contains("192.0.2.10:80");
        UUID lbUuid = result.uuidOf("lb");
        assertThat(Northbound.byName(cache.table(LogicalRouter.class), LogicalRouter::name, "a-lr").orElseThrow()
                .loadBalancer()).containsExactly(lbUuid);
    }
}
