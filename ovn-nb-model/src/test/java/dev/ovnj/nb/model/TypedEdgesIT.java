package dev.ovnj.nb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.ValueConstraintException;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.typed.TypedCache;
import dev.ovnj.ovsdb.typed.TypedOps;
import dev.ovnj.ovsdb.typed.TypedTable;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The typed API's edges against a real ovsdb-server, cross-checked with ovn-nbctl: a mutate by
 * condition with no table-name string, an insert into a non-root table that nothing refers to
 * (refused before it is sent, because the server would garbage-collect the row and still return
 * its UUID), and a row read back from the server with a value its schema accepts.
 */
class TypedEdgesIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static OvsdbServer server;
    private static OvsdbClient client;

    @BeforeAll
    static void start() {
        server = OvsdbServer.start();
        Nbctl.of(server).run("ls-add", "ls1");
        Nbctl.of(server).run("lr-add", "r1");
        Nbctl.of(server).run("lb-add", "lb1", "10.0.0.10:80", "10.0.1.1:8080");
        client = OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT);
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

    private static Acl acl(String name) {
        return Acl.builder().name(name).direction(Acl.Direction.TO_LPORT).action(Acl.Action.DROP)
                .match("ip4.src == 10.9.9.9").priority(1001).build();
    }

    @Test
    void aMutateByConditionNamesTheTableByItsModel() {
        UUID lb = UUID.fromString(Nbctl.of(server).run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=lb1"));

        client.transactAndWait(client.transaction()
                .add(TypedOps.mutate(LogicalRouter.TABLE, LogicalRouter.NAME.eq("r1"))
                        .mutation(LogicalRouter.LOAD_BALANCER.insert(lb)))
                .build(), WAIT);

        assertThat(Nbctl.of(server).run("lr-lb-list", "r1")).contains("lb1").contains("10.0.0.10:80");
    }

    @Test
    void anInsertIntoANonRootTableThatNothingRefersToIsRefusedBeforeItIsSent() {
        assertThatThrownBy(() -> client.transaction().add(TypedOps.insert(acl("lonely"))).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inserts into ACL, which is not a root table, a row that no operation of this"
                        + " transaction refers to")
                .hasMessageContaining("Logical_Switch.acls").hasMessageContaining("Port_Group.acls");
        // A uuid-name alone is no reference either.
        assertThatThrownBy(() -> client.transaction().add(TypedOps.insert(acl("named")).uuidName("a")).build())
                .hasMessageContaining("not a root table");

        assertThat(Nbctl.of(server).run("--bare", "--columns=name", "find", "ACL", "name=lonely")).isEmpty();
    }

    @Test
    void theServerDeletesSuchARowAtCommitYetReturnsItsUuidWhichIsWhyItIsRefused() {
        // The same insert sent around the client's check, as raw JSON: the server answers with a
        // UUID and the row is gone once the transaction commits.
        String reply = Command.of("ovsdb-client", "transact", server.remote(), "[\"OVN_Northbound\","
                + "{\"op\":\"insert\",\"table\":\"ACL\",\"row\":{\"name\":\"gone\",\"direction\":\"to-lport\","
                + "\"action\":\"drop\",\"match\":\"ip4\",\"priority\":1}}]").check();
        Matcher uuid = Pattern.compile("\"uuid\",\"([0-9a-f-]{36})\"").matcher(reply);

        assertThat(uuid.find()).as("the server's reply %s", reply).isTrue();
        assertThat(Nbctl.of(server).run("--bare", "--columns=_uuid", "find", "ACL", "name=gone")).isEmpty();
    }

    @Test
    void anInsertReferredToInTheSameTransactionIsWrittenAndKept() {
        Insert insert = TypedOps.insert(acl("kept")).uuidName("kept");
        TransactionResult result = client.transactAndWait(client.transaction()
                .add(insert)
                .add(TypedOps.mutate(LogicalSwitch.TABLE, LogicalSwitch.NAME.eq("ls1"))
                        .mutation(LogicalSwitch.ACLS.insert(insert.reference())))
                .build(), WAIT);

        UUID inserted = result.namedUuids().get("kept");
        assertThat(Nbctl.of(server).run("--bare", "--columns=_uuid", "find", "ACL", "name=kept")).isEqualTo(inserted.toString());
        assertThat(Nbctl.of(server).run("acl-list", "ls1")).contains("ip4.src == 10.9.9.9").contains("1001");
    }

    @Test
    void aRowBuiltWithAValueOutsideTheSchemaFailsAtBuildNotInTheTransaction() {
        assertThatThrownBy(() -> Acl.builder().direction(Acl.Direction.TO_LPORT).action(Acl.Action.DROP)
                .match("ip4").priority(70000).build())
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("ACL.priority: 70000 is greater than maximum allowed value 32767");
    }

    @Test
    void rowsReadFromTheServerConvertWithTheirUuidAndPassTheirOwnConstraints() {
        Nbctl.of(server).run("acl-add", "ls1", "from-lport", "32767", "ip4.dst == 10.8.8.8", "allow");

        TypedTable<Acl> acls = TypedCache.of(client.cache(), OvnNorthboundModel.MODEL).table(Acl.class);
        Await.until(WAIT, "the ACL in the cache", () -> acls.rows().stream().anyMatch(a -> a.priority() == 32767));

        assertThat(acls.rows().stream().filter(a -> a.match().equals("ip4.dst == 10.8.8.8")))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.uuid()).isPresent();
                    assertThat(a.priority()).isEqualTo(32767);
                });
    }
}
