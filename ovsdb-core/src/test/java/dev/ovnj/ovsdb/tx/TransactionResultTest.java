package dev.ovnj.ovsdb.tx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.data.Json;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TransactionResultTest {

    private static final UUID LB = UUID.fromString("cccccccc-0000-0000-0000-000000000001");
    private static final UUID LB2 = UUID.fromString("cccccccc-0000-0000-0000-000000000002");

    private final DatabaseSchema nb = SchemaFixtures.northbound();

    private final Transaction everyKind = Transaction.builder(nb)
            .add(Operations.insert("Load_Balancer").value("name", "web").uuidName("lb"),
                    Operations.select("Load_Balancer").columns("_uuid", "name"),
                    Operations.update("Load_Balancer").set("name", "api"),
                    Operations.mutate("Load_Balancer").mutation(Mutation.insert("protocol", "tcp")),
                    Operations.delete("Load_Balancer").where(Condition.eq("name", "old")),
                    Operations.wait("Load_Balancer").timeout(0),
                    Operations.comment("c"),
                    Operations.assertLock("l"),
                    Operations.commit(false))
            .build();

    private static ArrayNode result(String json) {
        return (ArrayNode) Json.parse(json);
    }

    @Test
    void decodesEveryKindOfResult() {
        TransactionResult result = everyKind.decode(result("[{'uuid':['uuid','" + LB + "']},"
                + "{'rows':[{'_uuid':['uuid','" + LB2 + "'],'name':'web'}]},"
                + "{'count':1},{'count':2},{'count':0},{},{},{},{}]"));
        assertThat(result.insertedUuid(0)).isEqualTo(LB);
        assertThat(result.uuidOf("lb")).isEqualTo(LB);
        assertThat(result.namedUuids()).containsExactly(Map.entry("lb", LB));
        Row row = result.rows(1).get(0);
        assertThat(row.uuid()).isEqualTo(LB2);
        assertThat(row.get("name")).isEqualTo("web");
        assertThat(row.has("vips")).isFalse();
        assertThat(result.count(2)).isEqualTo(1);
        assertThat(result.count(3)).isEqualTo(2);
        assertThat(result.count(4)).isZero();
        assertThat(result.results().subList(5, 9)).containsOnly(new OperationResult.Done());
    }

    @Test
    void selectWithoutColumnsDecodesCompleteRows() {
        Transaction tx = Transaction.builder(nb).add(Operations.select("Load_Balancer")).build();
        TransactionResult result = tx.decode(result("[{'rows':[{'_uuid':['uuid','" + LB + "'],"
                + "'_version':['uuid','" + LB2 + "'],'name':'web','protocol':['set',[]],'vips':['map',[]]}]}]"));
        assertThat(result.rows(0).get(0).get("protocol")).isEqualTo(Set.of());
        assertThat(result.rows(0).get(0).version()).contains(LB2);
    }

    @Test
    void unknownUuidNameNamed() {
        TransactionResult result = everyKind.decode(result("[{'uuid':['uuid','" + LB + "']},{'rows':[]},"
                + "{'count':1},{'count':2},{'count':0},{},{},{},{}]"));
        assertThatThrownBy(() -> result.uuidOf("nope"))
                .hasMessage("no insert of this transaction has uuid-name \"nope\"; known names: [lb]");
        assertThatThrownBy(() -> result.count(0))
                .hasMessageStartingWith("operation 0 yielded Inserted[uuid=" + LB + "], not Counted");
    }

    private TransactionException failure(String error, int failingIndex) {
        StringBuilder json = new StringBuilder("[");
        String[] ok = {"{'uuid':['uuid','" + LB + "']}", "{'rows':[]}", "{'count':1}", "{'count':1}",
            "{'count':1}", "{}", "{}", "{}", "{}"};
        for (int i = 0; i < ok.length; i++) {
            json.append(i > 0 ? "," : "");
            json.append(i < failingIndex ? ok[i] : i == failingIndex
                    ? "{'error':'" + error + "','details':'because'}" : "null");
        }
        return catchThrowableOfType(TransactionException.class, () -> everyKind.decode(result(json + "]")));
    }

    @Test
    void eachErrorStringMapsToItsException() {
        Map<String, Class<? extends TransactionException>> kinds = Map.ofEntries(
                Map.entry("constraint violation", ConstraintViolationException.class),
                Map.entry("referential integrity violation", ReferentialIntegrityException.class),
                Map.entry("timed out", WaitTimedOutException.class),
                Map.entry("not owner", NotOwnerException.class),
                Map.entry("aborted", AbortedException.class),
                Map.entry("duplicate uuid-name", DuplicateUuidNameException.class),
                Map.entry("resources exhausted", ResourcesExhaustedException.class),
                Map.entry("not supported", NotSupportedException.class),
                Map.entry("domain error", DomainErrorException.class),
                Map.entry("range error", RangeErrorException.class),
                Map.entry("I/O error", IoErrorException.class),
                Map.entry("syntax error", TransactionException.class));
        kinds.forEach((error, kind) -> {
            TransactionException e = failure(error, 3);
            assertThat(e).as(error).isExactlyInstanceOf(kind);
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.details()).contains("because");
            assertThat(e.operationIndex()).isEqualTo(3);
            assertThat(e.operation()).containsInstanceOf(Mutate.class);
            assertThat(e).hasMessage("operation 3 (mutate Load_Balancer) failed: " + error + ": because");
        });
    }

    @Test
    void waitTimeoutAtItsIndexIsRetriable() {
        TransactionException e = failure("timed out", 5);
        assertThat(e).isInstanceOf(WaitTimedOutException.class);
        assertThat(e.operationIndex()).isEqualTo(5);
        assertThat(e.operation()).containsInstanceOf(Wait.class);
        assertThat(e.retriable()).isTrue();
        assertThat(failure("I/O error", 8).retriable()).isTrue();
        assertThat(failure("not leader", 8).retriable()).isTrue();
        assertThat(failure("constraint violation", 0).retriable()).isFalse();
        assertThat(failure("referential integrity violation", 8).retriable()).isFalse();
    }

    @Test
    void resultTruncatedAfterErrorIsAccepted() {
        TransactionException e = catchThrowableOfType(TransactionException.class, () -> everyKind.decode(
                result("[{'error':'constraint violation'}]")));
        assertThat(e).isInstanceOf(ConstraintViolationException.class);
        assertThat(e.operationIndex()).isZero();
        assertThat(e.details()).isEmpty();
        assertThat(e).hasMessage("operation 0 (insert Load_Balancer as lb) failed: constraint violation");
    }

    @Test
    void trailingElementIsCommitError() {
        Transaction tx = Transaction.builder(nb)
                .add(Operations.delete("Load_Balancer"), Operations.commit(false))
                .build();
        TransactionException e = catchThrowableOfType(TransactionException.class, () -> tx.decode(result(
                "[{'count':1},{},{'error':'referential integrity violation','details':'row is referenced'}]")));
        assertThat(e).isInstanceOf(ReferentialIntegrityException.class);
        assertThat(e.operationIndex()).isEqualTo(-1);
        assertThat(e.operation()).isEmpty();
        assertThat(e).hasMessage("transaction commit failed: referential integrity violation: row is referenced");
    }

    @Test
    void malformedResultsRejected() {
        Transaction tx = Transaction.builder(nb).add(Operations.delete("Load_Balancer")).build();
        assertThatThrownBy(() -> tx.decode(result("[]")))
                .hasMessage("transact result has 0 elements for 1 operations and no error: []");
        assertThatThrownBy(() -> tx.decode(result("[{'uuid':['uuid','" + LB + "']}]")))
                .hasMessage("operation 0 (delete Load_Balancer) has a malformed result: {\"uuid\":[\"uuid\",\""
                        + LB + "\"]}");
        assertThatThrownBy(() -> tx.decode(result("[{'count':1},{'count':1}]")))
                .hasMessageStartingWith("transact result has 2 elements for 1 operations and no error");
    }
}
