package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.tx.AbortedException;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.ConstraintViolationException;
import dev.ovnj.ovsdb.tx.DomainErrorException;
import dev.ovnj.ovsdb.tx.DuplicateUuidNameException;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.NotOwnerException;
import dev.ovnj.ovsdb.tx.OperationResult;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.RangeErrorException;
import dev.ovnj.ovsdb.tx.ReferentialIntegrityException;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionException;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.ovsdb.tx.Wait;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@code transact} operation and every error kind, against a real ovsdb-server with the OVN
 * Northbound 7.0.0 schema, with writes cross-checked through ovn-nbctl. One server serves the whole
 * class; each test works on rows whose names are unique to it.
 */
class TransactOperationsIT {

    private static final AtomicInteger SEQ = new AtomicInteger();

    private static OvsdbServer server;
    private static OvsdbClient client;
    private static Nbctl nbctl;

    @BeforeAll
    static void startServer() {
        server = OvsdbServer.start();
        nbctl = Nbctl.of(server);
        // Creates the single NB_Global row, as a real deployment has it.
        nbctl.run("init");
        client = Clients.connect(server.remote());
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

    // ---- insert ----

    @Test
    void insertWithUuidNameReturnsTheUuidTheServerChoseAndResolvesReferences() {
        String sw = unique("sw");
        String port = unique("lsp");
        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.insert("Logical_Switch_Port").uuidName("port").value("name", port)
                        .value("addresses", Set.of("00:00:00:00:00:01 10.0.0.1")))
                .add(Operations.insert("Logical_Switch").uuidName("sw").value("name", sw)
                        .value("ports", Set.of(new NamedUuid("port"))))
                .build(), WAIT);

        assertThat(r.results()).hasSize(2).allMatch(x -> x instanceof OperationResult.Inserted);
        UUID portUuid = r.uuidOf("port");
        UUID swUuid = r.uuidOf("sw");
        assertThat(r.insertedUuid(0)).isEqualTo(portUuid);
        assertThat(r.insertedUuid(1)).isEqualTo(swUuid);
        assertThat(r.namedUuids()).containsOnlyKeys("port", "sw");
        assertThat(portUuid).isNotEqualTo(swUuid);

        assertThat(uuidsByName("Logical_Switch", sw)).containsExactly(swUuid.toString());
        assertThat(uuidsByName("Logical_Switch_Port", port)).containsExactly(portUuid.toString());
        // The named-uuid became the real reference.
        assertThat(nbctl.run("--bare", "--columns=ports", "list", "Logical_Switch", swUuid.toString()))
                .isEqualTo(portUuid.toString());
        assertThat(nbctl.run("lsp-list", sw)).contains(port);
        assertThat(nbctl.run("lsp-get-addresses", port)).isEqualTo("00:00:00:00:00:01 10.0.0.1");
    }

    @Test
    void insertWithChosenUuidCreatesTheRowWithExactlyThatUuid() {
        String name = unique("as-chosen");
        UUID chosen = UUID.randomUUID();
        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.insert("Address_Set").uuid(chosen).uuidName("as").value("name", name)
                        .value("addresses", Set.of("192.0.2.1")))
                .build(), WAIT);

        assertThat(r.insertedUuid(0)).isEqualTo(chosen);
        assertThat(r.uuidOf("as")).isEqualTo(chosen);
        assertThat(nbctl.run("--bare", "--columns=_uuid,name", "list", "Address_Set", chosen.toString()))
                .isEqualTo(chosen + "\n" + name);
        assertThat(uuidsByName("Address_Set", name)).containsExactly(chosen.toString());
        assertThat(client.cache().table("Address_Set").get(chosen)).hasValueSatisfying(
                row -> assertThat(row.get("name")).isEqualTo(name));
    }

    @Test
    void insertWithAUuidThatAlreadyExistsFailsAndInsertsNothing() {
        UUID chosen = UUID.randomUUID();
        String first = unique("as-dup-uuid-a");
        client.transactAndWait(client.transaction()
                .add(Operations.insert("Address_Set").uuid(chosen).value("name", first)).build(), WAIT);

        String witness = unique("as-dup-uuid-witness");
        String second = unique("as-dup-uuid-b");
        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.insert("Address_Set").uuid(chosen).value("name", second))
                .build());

        assertThat(e.getClass()).isEqualTo(TransactionException.class);
        assertThat(e.operationIndex()).isEqualTo(1);
        assertThat(e.error()).isEqualTo("duplicate uuid");
        assertThat(e.details()).hasValueSatisfying(d -> assertThat(d).contains("duplicate a UUID already present"));
        assertThat(e.retriable()).isFalse();
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();
        assertThat(uuidsByName("Address_Set", second)).isEmpty();
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Address_Set", chosen.toString())).isEqualTo(first);
    }

    // ---- select ----

    @Test
    void selectReturnsFullRowsOrOnlyTheRequestedColumns() {
        String tag = unique("sel");
        UUID a = insertAddressSet(tag + "-a", Set.of("10.0.0.1", "10.0.0.2"), Map.of("test", tag));
        UUID b = insertAddressSet(tag + "-b", Set.of(), Map.of("test", tag, "extra", "x"));
        Condition ours = Condition.includes("external_ids", Map.of("test", tag));

        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.select("Address_Set").where(ours))
                .add(Operations.select("Address_Set").where(ours).columns("name"))
                .add(Operations.select("Address_Set").where(ours).columns("_uuid", "addresses"))
                .add(Operations.select("Address_Set").where(ours, Condition.eq("name", tag + "-none")))
                .build(), WAIT);

        // Without columns: every column, including _uuid and _version.
        List<Row> full = r.rows(0);
        assertThat(full).extracting(Row::uuid).containsExactlyInAnyOrder(a, b);
        Row fullA = full.stream().filter(row -> row.uuid().equals(a)).findFirst().orElseThrow();
        assertThat(fullA.presentColumns()).contains("_uuid", "_version", "name", "addresses", "external_ids");
        assertThat(fullA.version()).isPresent();
        assertThat(fullA.get("name")).isEqualTo(tag + "-a");
        assertThat(fullA.get("addresses")).isEqualTo(Set.of("10.0.0.1", "10.0.0.2"));
        assertThat(fullA.get("external_ids")).isEqualTo(Map.of("test", tag));

        // With columns: exactly those columns, not even _uuid.
        List<Row> names = r.rows(1);
        assertThat(names).extracting(row -> row.get("name")).containsExactlyInAnyOrder(tag + "-a", tag + "-b");
        assertThat(names).allSatisfy(row -> {
            assertThat(row.presentColumns()).containsExactly("name");
            assertThat(row.has("addresses")).isFalse();
            assertThatThrownBy(row::uuid).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> row.get("addresses")).isInstanceOf(IllegalStateException.class);
        });

        List<Row> partial = r.rows(2);
        assertThat(partial).allSatisfy(row -> assertThat(row.presentColumns()).containsExactlyInAnyOrder("_uuid", "addresses"));
        assertThat(partial.stream().collect(Collectors.toMap(Row::uuid, row -> row.get("addresses"))))
                .isEqualTo(Map.of(a, Set.of("10.0.0.1", "10.0.0.2"), b, Set.of()));

        assertThat(r.rows(3)).isEmpty();
    }

    // ---- update ----

    @Test
    void updateSetsColumnsAndClearsSetAndMapColumnsToEmpty() {
        String name = unique("as-upd");
        String other = unique("as-upd-other");
        UUID uuid = insertAddressSet(name, Set.of("10.1.0.1", "10.1.0.2"), Map.of("a", "1", "b", "2"));
        insertAddressSet(other, Set.of("10.9.0.1"), Map.of("keep", "me"));
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "addresses")).isEqualTo("[\"10.1.0.1\", \"10.1.0.2\"]");

        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.update("Address_Set").where(Condition.eq("name", name))
                        .set("addresses", Set.of())
                        .set("external_ids", Map.of()))
                .add(Operations.update("Address_Set").where(Condition.eq("name", name + "-missing"))
                        .set("addresses", Set.of("10.0.0.99")))
                .build(), WAIT);

        assertThat(r.count(0)).isEqualTo(1);
        assertThat(r.count(1)).isZero();
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "addresses")).isEqualTo("[]");
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "external_ids")).isEqualTo("{}");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Address_Set", uuid.toString())).isEqualTo(name);
        // The other row is untouched.
        assertThat(nbctl.run("--bare", "--columns=addresses,external_ids", "find", "Address_Set", "name=" + other))
                .isEqualTo("10.9.0.1\nkeep=me");

        // Update of a scalar column on several rows at once reports how many matched.
        String tag = unique("upd-many");
        UUID m1 = insertMirror(tag + "-1", 1, tag);
        UUID m2 = insertMirror(tag + "-2", 2, tag);
        TransactionResult many = client.transactAndWait(client.transaction()
                .add(Operations.update("Mirror").where(Condition.includes("external_ids", Map.of("test", tag)))
                        .set("sink", "10.20.30.40").set("type", "erspan"))
                .build(), WAIT);
        assertThat(many.count(0)).isEqualTo(2);
        for (UUID m : List.of(m1, m2)) {
            assertThat(nbctl.run("--bare", "--columns=sink,type", "list", "Mirror", m.toString()))
                    .isEqualTo("10.20.30.40\nerspan");
        }
    }

    // ---- mutate ----

    @Test
    void mutateWithEveryArithmeticMutator() {
        String name = unique("mirror-arith");
        UUID mirror = insertMirror(name, 10, name);
        Condition row = Condition.eq("name", name);
        // Each step on its own, cross-checked with ovn-nbctl; integer division and remainder
        // truncate toward zero as in C.
        record Step(Mutation mutation, long expected) {
        }
        List<Step> steps = List.of(
                new Step(Mutation.add("index", 5L), 15),
                new Step(Mutation.subtract("index", 22L), -7),
                new Step(Mutation.multiply("index", -6L), 42),
                new Step(Mutation.divide("index", 5L), 8),
                new Step(Mutation.modulo("index", 5L), 3),
                new Step(Mutation.subtract("index", 20L), -17),
                new Step(Mutation.divide("index", 2L), -8),
                new Step(Mutation.modulo("index", 3L), -2));
        for (Step step : steps) {
            TransactionResult r = client.transactAndWait(client.transaction()
                    .add(Operations.mutate("Mirror").where(row).mutation(step.mutation()))
                    .build(), WAIT);
            assertThat(r.count(0)).as(step.mutation().toString()).isEqualTo(1);
            assertThat(nbctl.run("get", "Mirror", mirror.toString(), "index")).as(step.mutation().toString())
                    .isEqualTo(Long.toString(step.expected()));
        }

        // Several mutations in one operation apply in order: ((-2 + 10) * 3 - 4) / 4 % 3 = 5 % 3 = 2.
        TransactionResult chained = client.transactAndWait(client.transaction()
                .add(Operations.mutate("Mirror").where(row).mutation(
                        Mutation.add("index", 10L), Mutation.multiply("index", 3L), Mutation.subtract("index", 4L),
                        Mutation.divide("index", 4L), Mutation.modulo("index", 3L)))
                .add(Operations.select("Mirror").where(row).columns("index"))
                .build(), WAIT);
        assertThat(chained.count(0)).isEqualTo(1);
        assertThat(chained.rows(1)).extracting(r -> r.get("index")).containsExactly(2L);
        assertThat(nbctl.run("get", "Mirror", mirror.toString(), "index")).isEqualTo("2");

        // NB_Global.nb_cfg, the counter ovn-nbctl --wait bumps: mutate all rows (there is exactly one).
        long before = (Long) client.transactAndWait(client.transaction()
                .add(Operations.select("NB_Global").columns("nb_cfg")).build(), WAIT).rows(0).get(0).get("nb_cfg");
        TransactionResult global = client.transactAndWait(client.transaction()
                .add(Operations.mutate("NB_Global").mutation(Mutation.add("nb_cfg", 7L), Mutation.multiply("nb_cfg", 2L)))
                .build(), WAIT);
        assertThat(global.count(0)).isEqualTo(1);
        assertThat(nbctl.run("get", "NB_Global", ".", "nb_cfg")).isEqualTo(Long.toString((before + 7) * 2));
        client.transactAndWait(client.transaction()
                .add(Operations.update("NB_Global").set("nb_cfg", before)).build(), WAIT);
        assertThat(nbctl.run("get", "NB_Global", ".", "nb_cfg")).isEqualTo(Long.toString(before));
    }

    @Test
    void mutateInsertsAndDeletesSetElementsAndMapEntries() {
        String name = unique("as-mut");
        UUID uuid = insertAddressSet(name, Set.of("10.2.0.1", "10.2.0.2"),
                Map.of("k1", "v1", "k2", "v2", "k3", "v3"));
        Condition row = Condition.eq("name", name);

        TransactionResult r = client.transactAndWait(client.transaction()
                // Set insert: a new element and one already present.
                .add(Operations.mutate("Address_Set").where(row)
                        .mutation(Mutation.insert("addresses", Set.of("10.2.0.3", "10.2.0.1"))))
                // Set delete: one present element and one absent (ignored).
                .add(Operations.mutate("Address_Set").where(row)
                        .mutation(Mutation.delete("addresses", Set.of("10.2.0.2", "10.2.0.99"))))
                // Map insert: an existing key keeps its value, a new key is added.
                .add(Operations.mutate("Address_Set").where(row)
                        .mutation(Mutation.insert("external_ids", Map.of("k1", "changed", "k4", "v4"))))
                // Map delete by keys.
                .add(Operations.mutate("Address_Set").where(row)
                        .mutation(Mutation.delete("external_ids", Set.of("k2"))))
                // Map delete by key-value pairs: only entries whose value matches go.
                .add(Operations.mutate("Address_Set").where(row)
                        .mutation(Mutation.delete("external_ids", Map.of("k3", "v3", "k4", "wrong"))))
                // A bare atom stands for a set of one.
                .add(Operations.mutate("Address_Set").where(row).mutation(Mutation.insert("addresses", "10.2.0.4")))
                .add(Operations.mutate("Address_Set").where(Condition.eq("name", name + "-missing"))
                        .mutation(Mutation.insert("addresses", "10.2.0.5")))
                .build(), WAIT);

        assertThat(r.results()).extracting(x -> ((OperationResult.Counted) x).count())
                .containsExactly(1L, 1L, 1L, 1L, 1L, 1L, 0L);
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "addresses"))
                .isEqualTo("[\"10.2.0.1\", \"10.2.0.3\", \"10.2.0.4\"]");
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "external_ids")).isEqualTo("{k1=v1, k4=v4}");

        // Deleting every element and every key leaves the columns empty.
        client.transactAndWait(client.transaction()
                .add(Operations.mutate("Address_Set").where(row).mutation(
                        Mutation.delete("addresses", Set.of("10.2.0.1", "10.2.0.3", "10.2.0.4")),
                        Mutation.delete("external_ids", Set.of("k1", "k4"))))
                .build(), WAIT);
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "addresses")).isEqualTo("[]");
        assertThat(nbctl.run("get", "Address_Set", uuid.toString(), "external_ids")).isEqualTo("{}");
    }

    // ---- delete ----

    @Test
    void deleteRemovesTheMatchingRowsAndCountsThem() {
        String tag = unique("del");
        insertAddressSet(tag + "-a", Set.of(), Map.of("test", tag));
        insertAddressSet(tag + "-b", Set.of(), Map.of("test", tag));
        UUID keep = insertAddressSet(tag + "-c", Set.of(), Map.of("test", tag));

        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.delete("Address_Set").where(Condition.includes("external_ids", Map.of("test", tag)),
                        Condition.ne("name", tag + "-c")))
                .add(Operations.delete("Address_Set").where(Condition.eq("name", tag + "-a")))
                .build(), WAIT);

        assertThat(r.count(0)).isEqualTo(2);
        assertThat(r.count(1)).isZero();
        assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Address_Set", "external_ids:test=" + tag))
                .isEqualTo(keep.toString());
        assertThat(client.cache().table("Address_Set").rows()).extracting(row -> row.get("name"))
                .doesNotContain(tag + "-a", tag + "-b").contains(tag + "-c");
    }

    // ---- wait ----

    @Test
    void waitThatIsAlreadySatisfiedLetsTheTransactionCommit() {
        String name = unique("as-wait-ok");
        insertAddressSet(name, Set.of("10.3.0.1"), Map.of());
        String added = unique("as-wait-ok-added");
        Condition row = Condition.eq("name", name);

        TransactionResult r = client.transactAndWait(client.transaction()
                .add(Operations.wait("Address_Set").where(row).columns("addresses")
                        .row(Map.of("addresses", Set.of("10.3.0.1"))).timeout(0))
                .add(Operations.wait("Address_Set").where(row).columns("name", "addresses").until(Wait.Until.NE)
                        .row(Map.of("name", name, "addresses", Set.of("10.3.0.2"))).timeout(0))
                // No timeout: the server would wait indefinitely, but it already holds.
                .add(Operations.wait("Address_Set").where(Condition.eq("name", name + "-none")).columns("name"))
                .add(Operations.insert("Address_Set").value("name", added))
                .build(), WAIT);

        assertThat(r.get(0)).isEqualTo(new OperationResult.Done());
        assertThat(r.get(1)).isEqualTo(new OperationResult.Done());
        assertThat(r.get(2)).isEqualTo(new OperationResult.Done());
        assertThat(uuidsByName("Address_Set", added)).containsExactly(r.insertedUuid(3).toString());
    }

    @Test
    void waitWithATimeoutHoldsTheTransactionUntilAnotherClientSatisfiesIt() throws Exception {
        String name = unique("as-wait-later");
        insertAddressSet(name, Set.of("10.4.0.1"), Map.of());
        String added = unique("as-wait-later-added");

        CompletableFuture<TransactionResult> pending = client.transact(client.transaction()
                .add(Operations.wait("Address_Set").where(Condition.eq("name", name)).columns("addresses")
                        .row(Map.of("addresses", Set.of("10.4.0.2"))).timeout(15_000))
                .add(Operations.insert("Address_Set").value("name", added))
                .build());
        Thread.sleep(300);
        assertThat(pending).isNotDone();
        assertThat(uuidsByName("Address_Set", added)).isEmpty();

        nbctl.run("set", "Address_Set", name, "addresses=10.4.0.2");
        TransactionResult r = pending.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(r.get(0)).isEqualTo(new OperationResult.Done());
        assertThat(uuidsByName("Address_Set", added)).containsExactly(r.insertedUuid(1).toString());
    }

    @Test
    void waitThatTimesOutFailsWithItsIndexAndRollsBack() {
        String name = unique("as-wait-fail");
        insertAddressSet(name, Set.of("10.5.0.1"), Map.of());
        String witness = unique("as-wait-fail-witness");
        Condition row = Condition.eq("name", name);

        // Timeout 0: the optimistic-concurrency check fails at once.
        TransactionException immediate = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.mutate("Address_Set").where(row).mutation(Mutation.insert("addresses", "10.5.0.9")))
                .add(Operations.wait("Address_Set").where(row).columns("addresses")
                        .row(Map.of("addresses", Set.of("10.5.0.1"))).timeout(0))
                .build());
        assertThat(immediate).isInstanceOf(WaitTimedOutException.class);
        assertThat(immediate.operationIndex()).isEqualTo(2);
        assertThat(immediate.operation()).hasValueSatisfying(op -> assertThat(op.op()).isEqualTo("wait"));
        assertThat(immediate.error()).isEqualTo("timed out");
        assertThat(immediate.retriable()).isTrue();
        assertThat(immediate.details()).hasValue("\"where\" clause test failed");
        assertNotCommitted(witness, name, "[\"10.5.0.1\"]");

        // A positive timeout that nothing satisfies: the server holds the transaction, then fails it.
        long start = System.nanoTime();
        TransactionException later = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.wait("Address_Set").where(row).columns("addresses")
                        .row(Map.of("addresses", Set.of("10.5.0.7"))).timeout(500))
                .build());
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(later).isInstanceOf(WaitTimedOutException.class);
        assertThat(later.operationIndex()).isEqualTo(1);
        assertThat(later.error()).isEqualTo("timed out");
        assertThat(later.details()).hasValueSatisfying(d -> assertThat(d).startsWith("\"wait\" timed out after"));
        assertThat(elapsedMs).isGreaterThanOrEqualTo(450);
        assertNotCommitted(witness, name, "[\"10.5.0.1\"]");
    }

    // ---- commit, comment ----

    @Test
    void commitDurableOrNotAndCommentAreAccepted() throws IOException {
        String durable = unique("as-durable");
        String lazy = unique("as-lazy");
        String comment = "ovnj TransactOperationsIT " + unique("comment");

        TransactionResult r1 = client.transactAndWait(client.transaction()
                .add(Operations.insert("Address_Set").value("name", durable))
                .add(Operations.comment(comment))
                .add(Operations.commit(true))
                .build(), WAIT);
        assertThat(r1.results()).hasSize(3);
        assertThat(r1.get(1)).isEqualTo(new OperationResult.Done());
        assertThat(r1.get(2)).isEqualTo(new OperationResult.Done());
        assertThat(uuidsByName("Address_Set", durable)).containsExactly(r1.insertedUuid(0).toString());
        // A durable commit is on disk when the reply arrives, and the comment is recorded with it.
        String log = Files.readString(server.databaseFile(), StandardCharsets.UTF_8);
        assertThat(log).contains("\"_comment\":\"" + comment + "\"").contains(durable);

        TransactionResult r2 = client.transactAndWait(client.transaction()
                .add(Operations.commit(false))
                .add(Operations.insert("Address_Set").value("name", lazy))
                .build(), WAIT);
        assertThat(r2.get(0)).isEqualTo(new OperationResult.Done());
        assertThat(uuidsByName("Address_Set", lazy)).containsExactly(r2.insertedUuid(1).toString());
    }

    // ---- conditions ----

    @Test
    void everyConditionFunctionSelectsTheRightRows() {
        String tag = unique("cond");
        for (long i = 1; i <= 5; i++) {
            insertMirror(tag + "-" + i, i, tag);
        }
        Condition ours = Condition.includes("external_ids", Map.of("test", tag));
        Map<String, Condition> numeric = new java.util.LinkedHashMap<>();
        numeric.put("<", Condition.lt("index", 3L));
        numeric.put("<=", Condition.le("index", 3L));
        numeric.put("==", Condition.eq("index", 3L));
        numeric.put("!=", Condition.ne("index", 3L));
        numeric.put(">=", Condition.ge("index", 4L));
        numeric.put(">", Condition.gt("index", 4L));
        Map<String, Set<Long>> expected = Map.of(
                "<", Set.of(1L, 2L), "<=", Set.of(1L, 2L, 3L), "==", Set.of(3L),
                "!=", Set.of(1L, 2L, 4L, 5L), ">=", Set.of(4L, 5L), ">", Set.of(5L));
        Transaction.Builder tx = client.transaction();
        numeric.values().forEach(c -> tx.add(Operations.select("Mirror").where(ours, c).columns("index")));
        TransactionResult r = client.transactAndWait(tx.build(), WAIT);
        int i = 0;
        for (String function : numeric.keySet()) {
            assertThat(r.rows(i++)).as("index %s", function).extracting(row -> (Long) row.get("index"))
                    .containsExactlyInAnyOrderElementsOf(expected.get(function));
        }

        // Sets and maps: includes, excludes, and == / != on whole values.
        String s = unique("cond-sets");
        insertAddressSet(s + "-ab", Set.of("a", "b"), Map.of("test", s, "color", "red"));
        insertAddressSet(s + "-bc", Set.of("b", "c"), Map.of("test", s, "color", "blue"));
        insertAddressSet(s + "-c", Set.of("c"), Map.of("test", s));
        insertAddressSet(s + "-none", Set.of(), Map.of("test", s));
        Condition mine = Condition.includes("external_ids", Map.of("test", s));
        List<Condition> conditions = List.of(
                Condition.includes("addresses", Set.of("b")),
                Condition.includes("addresses", Set.of("b", "c")),
                Condition.includes("addresses", Set.of()),
                Condition.excludes("addresses", Set.of("a")),
                Condition.excludes("addresses", Set.of("a", "c")),
                Condition.includes("addresses", "c"),
                Condition.eq("addresses", Set.of("c")),
                Condition.ne("addresses", Set.of("c")),
                Condition.eq("addresses", Set.of()),
                Condition.includes("external_ids", Map.of("color", "red")),
                Condition.excludes("external_ids", Map.of("color", "red")),
                Condition.excludes("external_ids", Map.of("color", "green")),
                Condition.TRUE,
                Condition.FALSE);
        List<Set<String>> sets = List.of(
                Set.of("ab", "bc"),
                Set.of("bc"),
                Set.of("ab", "bc", "c", "none"),
                Set.of("bc", "c", "none"),
                Set.of("none"),
                Set.of("bc", "c"),
                Set.of("c"),
                Set.of("ab", "bc", "none"),
                Set.of("none"),
                Set.of("ab"),
                Set.of("bc", "c", "none"),
                Set.of("ab", "bc", "c", "none"),
                Set.of("ab", "bc", "c", "none"),
                Set.of());
        Transaction.Builder tx2 = client.transaction();
        conditions.forEach(c -> tx2.add(Operations.select("Address_Set").where(mine, c).columns("name")));
        TransactionResult r2 = client.transactAndWait(tx2.build(), WAIT);
        for (int k = 0; k < conditions.size(); k++) {
            Set<String> got = r2.rows(k).stream().map(row -> ((String) row.get("name")).substring(s.length() + 1))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(got).as("%s", conditions.get(k)).isEqualTo(new TreeSet<>(sets.get(k)));
        }
    }

    // ---- abort, assert ----

    @Test
    void abortFailsWithItsIndexAndRollsBack() {
        String name = unique("as-abort");
        insertAddressSet(name, Set.of("10.6.0.1"), Map.of());
        String witness = unique("as-abort-witness");

        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.update("Address_Set").where(Condition.eq("name", name)).set("addresses", Set.of()))
                .add(Operations.abort())
                .build());

        assertThat(e).isInstanceOf(AbortedException.class);
        assertThat(e.operationIndex()).isEqualTo(2);
        assertThat(e.error()).isEqualTo("aborted");
        assertThat(e.details()).hasValue("aborted by request");
        assertThat(e.retriable()).isFalse();
        assertNotCommitted(witness, name, "[\"10.6.0.1\"]");
    }

    @Test
    void assertOfALockNotHeldFailsWithNotOwnerAndOfAHeldLockSucceeds() {
        // A lock name is an <id>: ovsdb-server answers anything else with a "syntax error", so the
        // client refuses it up front.
        assertThatThrownBy(() -> Operations.assertLock("not-an-id")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not-an-id");
        String lock = "ovnj_txit_lock_" + SEQ.incrementAndGet();
        String witness = unique("as-assert-witness");

        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.assertLock(lock))
                .build());
        assertThat(e).isInstanceOf(NotOwnerException.class);
        assertThat(e.operationIndex()).isEqualTo(1);
        assertThat(e.error()).isEqualTo("not owner");
        assertThat(e.details()).hasValue("Asserted lock " + lock + " not held.");
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();

        assertThat(client.lock(lock).join()).isTrue();
        try {
            TransactionResult r = client.transactAndWait(client.transaction()
                    .add(Operations.assertLock(lock))
                    .add(Operations.insert("Address_Set").value("name", witness))
                    .build(), WAIT);
            assertThat(r.get(0)).isEqualTo(new OperationResult.Done());
            assertThat(uuidsByName("Address_Set", witness)).containsExactly(r.insertedUuid(1).toString());
        } finally {
            client.unlock(lock).join();
        }
    }

    // ---- server-side errors ----

    @Test
    void secondNbGlobalRowViolatesMaxRowsAtCommit() {
        String before = nbctl.run("--bare", "--columns=_uuid", "list", "NB_Global");
        String witness = unique("as-maxrows-witness");

        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.insert("NB_Global").value("name", "second"))
                .build());

        assertThat(e).isInstanceOf(ConstraintViolationException.class);
        assertThat(e.operationIndex()).isEqualTo(-1);
        assertThat(e.operation()).isEmpty();
        assertThat(e.error()).isEqualTo("constraint violation");
        assertThat(e.details()).hasValueSatisfying(d -> assertThat(d).contains("NB_Global").contains("2 rows"));
        assertThat(nbctl.run("--bare", "--columns=_uuid", "list", "NB_Global")).isEqualTo(before);
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();
    }

    @Test
    void duplicateIndexedNameViolatesTheIndexAtCommit() {
        String name = unique("as-index");
        UUID existing = insertAddressSet(name, Set.of("10.7.0.1"), Map.of());
        String witness = unique("as-index-witness");

        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.insert("Address_Set").value("name", name).value("addresses", Set.of("10.7.0.2")))
                .build());

        assertThat(e).isInstanceOf(ConstraintViolationException.class);
        assertThat(e.operationIndex()).isEqualTo(-1);
        assertThat(e.details()).hasValueSatisfying(d -> assertThat(d).contains("Address_Set").contains(name));
        assertThat(uuidsByName("Address_Set", name)).containsExactly(existing.toString());
        assertNotCommitted(witness, name, "[\"10.7.0.1\"]");
    }

    @Test
    void mutationResultsOutsideTheColumnConstraintsAreConstraintViolationsOfTheOperation() {
        String port = unique("bfd-port");
        String witness = unique("as-bfd-witness");
        UUID bfd = client.transactAndWait(client.transaction()
                .add(Operations.insert("BFD").value("logical_port", port).value("dst_ip", "10.8.0.1")
                        .value("min_tx", Set.of(5L)))
                .build(), WAIT).insertedUuid(0);
        Condition row = Condition.eq("logical_port", port);

        // BFD.min_tx has minInteger 1: 5 - 10 breaks it.
        TransactionException below = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.mutate("BFD").where(row).mutation(Mutation.subtract("min_tx", 10L)))
                .build());
        assertThat(below).isInstanceOf(ConstraintViolationException.class);
        assertThat(below.operationIndex()).isEqualTo(1);
        assertThat(below.error()).isEqualTo("constraint violation");
        assertThat(below.details()).hasValue("-5 is less than minimum allowed value 1");

        // BFD.min_tx holds at most one integer: inserting a second breaks it.
        TransactionException tooMany = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.select("BFD").where(row))
                .add(Operations.mutate("BFD").where(row).mutation(Mutation.insert("min_tx", Set.of(7L))))
                .build());
        assertThat(tooMany).isInstanceOf(ConstraintViolationException.class);
        assertThat(tooMany.operationIndex()).isEqualTo(2);
        assertThat(tooMany.details()).hasValue("Attempted to store 2 elements in set of up to 1 integers.");

        assertThat(nbctl.run("get", "BFD", bfd.toString(), "min_tx")).isEqualTo("5");
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();
    }

    @Test
    void strongReferenceToAMissingRowIsAReferentialIntegrityViolationAtCommit() {
        String sw = unique("sw-ri");
        UUID missing = UUID.randomUUID();

        TransactionException e = failure(client.transaction()
                .add(Operations.insert("Logical_Switch").value("name", sw).value("ports", Set.of(missing)))
                .build());
        assertThat(e).isInstanceOf(ReferentialIntegrityException.class);
        assertThat(e.operationIndex()).isEqualTo(-1);
        assertThat(e.operation()).isEmpty();
        assertThat(e.error()).isEqualTo("referential integrity violation");
        assertThat(e.details()).hasValueSatisfying(d -> assertThat(d).contains(missing.toString()));
        assertThat(uuidsByName("Logical_Switch", sw)).isEmpty();

        // The same through a mutate of an existing switch: the switch keeps its old ports.
        String existing = unique("sw-ri-existing");
        nbctl.run("ls-add", existing);
        String witness = unique("as-ri-witness");
        TransactionException viaMutate = failure(client.transaction()
                .add(Operations.insert("Address_Set").value("name", witness))
                .add(Operations.mutate("Logical_Switch").where(Condition.eq("name", existing))
                        .mutation(Mutation.insert("ports", missing)))
                .build());
        assertThat(viaMutate).isInstanceOf(ReferentialIntegrityException.class);
        assertThat(viaMutate.operationIndex()).isEqualTo(-1);
        assertThat(nbctl.run("get", "Logical_Switch", existing, "ports")).isEqualTo("[]");
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();
    }

    @Test
    void divisionByZeroIsADomainErrorAndOverflowARangeError() {
        String name = unique("mirror-math-err");
        UUID mirror = insertMirror(name, 7, name);
        String witness = unique("as-math-witness");
        Condition row = Condition.eq("name", name);

        for (Mutation byZero : List.of(Mutation.divide("index", 0L), Mutation.modulo("index", 0L))) {
            TransactionException e = failure(client.transaction()
                    .add(Operations.insert("Address_Set").value("name", witness))
                    .add(Operations.mutate("Mirror").where(row).mutation(Mutation.add("index", 1L), byZero))
                    .build());
            assertThat(e).as(byZero.toString()).isInstanceOf(DomainErrorException.class);
            assertThat(e.operationIndex()).isEqualTo(1);
            assertThat(e.error()).isEqualTo("domain error");
            assertThat(e.details()).hasValue("Division by zero.");
        }

        for (Mutation overflow : List.of(Mutation.add("index", Long.MAX_VALUE), Mutation.subtract("index", Long.MIN_VALUE),
                Mutation.multiply("index", Long.MAX_VALUE / 2))) {
            TransactionException e = failure(client.transaction()
                    .add(Operations.insert("Address_Set").value("name", witness))
                    .add(Operations.comment("overflow"))
                    .add(Operations.mutate("Mirror").where(row).mutation(overflow))
                    .build());
            assertThat(e).as(overflow.toString()).isInstanceOf(RangeErrorException.class);
            assertThat(e.operationIndex()).isEqualTo(2);
            assertThat(e.error()).isEqualTo("range error");
            assertThat(e.details()).hasValue("Result of \"" + overflow.mutator().symbol() + "\" operation is out of range.");
        }

        assertThat(nbctl.run("get", "Mirror", mirror.toString(), "index")).isEqualTo("7");
        assertThat(uuidsByName("Address_Set", witness)).isEmpty();
    }

    @Test
    void duplicateUuidNameIsRejectedByTheBuilderBeforeAnythingIsSent() {
        String a = unique("as-dupname-a");
        String b = unique("as-dupname-b");
        Transaction.Builder builder = client.transaction()
                .add(Operations.insert("Address_Set").uuidName("x").value("name", a));
        long transactionsBefore = client.stats().transactions();

        assertThatThrownBy(() -> builder.add(Operations.insert("Address_Set").uuidName("x").value("name", b)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation 1")
                .hasMessageContaining("duplicate uuid-name \"x\"");
        assertThat(client.stats().transactions()).isEqualTo(transactionsBefore);
        assertThat(uuidsByName("Address_Set", a)).isEmpty();
        assertThat(uuidsByName("Address_Set", b)).isEmpty();
    }

    @Test
    void duplicateUuidNameSentAnywayIsMappedFromTheServersError() throws Exception {
        // The builder refuses duplicates, so forge them in the JSON to see the server's own answer.
        String a = unique("as-dupname-srv-a");
        String b = unique("as-dupname-srv-b");
        Transaction tx = client.transaction()
                .add(Operations.insert("Address_Set").uuidName("x").value("name", a))
                .add(Operations.insert("Address_Set").uuidName("y").value("name", b))
                .build();
        ArrayNode params = tx.toParams();
        ((ObjectNode) params.get(2)).put("uuid-name", "x");

        JsonNode result = client.call("transact", params).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        TransactionException e = catchThrowableOfType(() -> tx.decode((ArrayNode) result), TransactionException.class);

        assertThat(e).isInstanceOf(DuplicateUuidNameException.class);
        assertThat(e.operationIndex()).isEqualTo(1);
        assertThat(e.error()).isEqualTo("duplicate uuid-name");
        assertThat(e.details()).hasValue("This \"uuid-name\" appeared on an earlier \"insert\" operation.");
        assertThat(uuidsByName("Address_Set", a)).isEmpty();
        assertThat(uuidsByName("Address_Set", b)).isEmpty();
    }

    // ---- helpers ----

    private static String unique(String base) {
        return base + "-" + SEQ.incrementAndGet();
    }

    private static TransactionException failure(Transaction tx) {
        TransactionException e = catchThrowableOfType(() -> client.transactAndWait(tx, WAIT), TransactionException.class);
        assertThat(e).as("transaction %s should fail", tx).isNotNull();
        System.out.println("[TransactOperationsIT] " + e.getClass().getSimpleName() + " index=" + e.operationIndex()
                + " error=\"" + e.error() + "\" details=\"" + e.details().orElse(null) + "\"");
        return e;
    }

    private static List<String> uuidsByName(String table, String name) {
        String out = nbctl.run("--bare", "--columns=_uuid", "find", table, "name=\"" + name + "\"");
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    /** The failed transaction left neither its inserted witness row nor its change to {@code name}. */
    private static void assertNotCommitted(String witness, String name, String addresses) {
        assertThat(uuidsByName("Address_Set", witness)).as("row inserted by the failed transaction").isEmpty();
        assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Address_Set", "name=\"" + name + "\"")).isNotEmpty();
        assertThat(nbctl.run("get", "Address_Set", name, "addresses")).isEqualTo(addresses);
    }

    private static UUID insertAddressSet(String name, Set<String> addresses, Map<String, String> externalIds) {
        return client.transactAndWait(client.transaction()
                .add(Operations.insert("Address_Set").value("name", name).value("addresses", addresses)
                        .value("external_ids", externalIds))
                .build(), WAIT).insertedUuid(0);
    }

    private static UUID insertMirror(String name, long index, String tag) {
        Insert insert = Operations.insert("Mirror").value("name", name).value("filter", "from-lport")
                .value("sink", "10.0.0.1").value("type", "gre").value("index", index)
                .value("external_ids", Map.of("test", tag));
        return client.transactAndWait(client.transaction().add(insert).build(), WAIT).insertedUuid(0);
    }
}
