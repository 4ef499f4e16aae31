package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The C driver's {@code idl-partial-update-map-column} and {@code idl-partial-update-set-column}
 * with ovnj's client: fixed sequences of partial map and set updates (a key set again, a key or
 * element deleted twice, a new row referenced by a set), each committed as a {@code mutate}, and
 * the rows the cache then holds, printed as the C driver prints them.
 */
final class PartialUpdateRun {
    private static final UUID ADDED = UUID.fromString("001e43d2-dd3f-4616-ab6a-83a490bb0991");
    private static final UUID ADDED2 = UUID.fromString("0026b3ba-571b-4729-8227-d860a5210ab8");

    private final DatabaseSchema schema;
    private final String remote;
    private final Duration timeout;
    private final PrintStream out;
    private int step;

    PartialUpdateRun(DatabaseSchema schema, String remote, Duration timeout, PrintStream out) {
        this.schema = schema;
        this.remote = remote;
        this.timeout = timeout;
        this.out = out;
    }

    void mapColumn() {
        try (OvsdbClient client = client(TableMonitor.all("simple2").columns("name", "smap", "imap"))) {
            label("Getting records");
            dumpSimple2(client);
            UUID row = client.cache().table("simple2").rows().get(0).uuid();
            commit(client, mutate("simple2", row, Mutation.delete("smap", Set.of("key1")),
                    Mutation.insert("smap", Map.of("key1", "myList1")), Mutation.delete("imap", Set.of(3L)),
                    Mutation.insert("imap", Map.of(3L, "myids2"))),
                    Operations.update("simple2").where(Condition.eq("_uuid", row)).set("name", "String2"));
            label("After insert element");
            dumpSimple2(client);
            commit(client, mutate("simple2", row, Mutation.delete("smap", Set.of("key1")),
                    Mutation.insert("smap", Map.of("key1", "myList1"))));
            label("After insert duplicated element");
            dumpSimple2(client);
            @SuppressWarnings("unchecked")
            String first = new TreeMap<>((Map<String, String>) client.cache().table("simple2").get(row).orElseThrow()
                    .get("smap")).firstKey();
            commit(client, mutate("simple2", row, Mutation.delete("smap", Set.of(first))));
            label("After delete element");
            dumpSimple2(client);
            commit(client, mutate("simple2", row, Mutation.delete("smap", Set.of(first))));
            label("After trying to delete a deleted element");
            dumpSimple2(client);
        }
        out.printf("%03d: End test%n", step);
    }

    void setColumn() {
        try (OvsdbClient client = client(TableMonitor.all("simple3").columns("name", "uset", "uref"),
                TableMonitor.all("simple4").columns("name"))) {
            label("Getting records");
            dumpSimple3(client);
            UUID row = client.cache().table("simple3").rows().get(0).uuid();
            commit(client, mutate("simple3", row, Mutation.insert("uset", Set.of(ADDED))),
                    Operations.update("simple3").where(Condition.eq("_uuid", row)).set("name", "String2"));
            label("After rename+add new value");
            dumpSimple3(client);
            commit(client, mutate("simple3", row, Mutation.insert("uset", Set.of(ADDED2))));
            label("After add new value");
            dumpSimple3(client);
            commit(client, mutate("simple3", row, Mutation.delete("uset", Set.of(ADDED))));
            label("After delete value");
            dumpSimple3(client);
            commit(client, mutate("simple3", row, Mutation.delete("uset", Set.of(ADDED))));
            label("After trying to delete a deleted value");
            dumpSimple3(client);
            Insert added = Operations.insert("simple4").uuidName("added").value("name", "test");
            commit(client, added, mutate("simple3", row, Mutation.insert("uref", Set.of(added.reference()))));
            label("After add to other table + set of strong ref");
            dumpSimple3(client);
        }
        out.printf("%03d: End test%n", step);
    }

    private OvsdbClient client(TableMonitor... tables) {
        OvsdbClient client = OvsdbClient.builder().remotes(remote).database(schema.name()).leaderOnly(false)
                .monitor(MonitorRequest.of(tables)).build();
        client.startAndWait(timeout);
        return client;
    }

    private static Operation mutate(String table, UUID row, Mutation... mutations) {
        return Operations.mutate(table).where(Condition.eq("_uuid", row)).mutation(mutations);
    }

    private void commit(OvsdbClient client, Operation... ops) {
        Transaction.Builder tx = Transaction.builder(client.schema());
        for (Operation op : ops) {
            tx.add(op);
        }
        client.transactAndWait(tx.build(), timeout);
    }

    private void label(String text) {
        out.printf("%03d: %s%n", step++, text);
    }

    @SuppressWarnings("unchecked")
    private void dumpSimple2(OvsdbClient client) {
        for (Row r : client.cache().table("simple2").rows()) {
            out.printf("%03d: name=%s smap=[%s] imap=[%s]%n", step, r.get("name"),
                    entries(new TreeMap<>((Map<String, String>) r.get("smap"))),
                    entries(new TreeMap<>((Map<Long, String>) r.get("imap"))));
        }
        step++;
    }

    private static String entries(Map<?, ?> sorted) {
        return sorted.entrySet().stream().map(e -> "[" + e.getKey() + " : " + e.getValue() + "]").collect(Collectors.joining(","));
    }

    @SuppressWarnings("unchecked")
    private void dumpSimple3(OvsdbClient client) {
        for (Row r : client.cache().table("simple3").rows()) {
            out.printf("%03d: table simple3: name=%s uset=[%s] uref=[%s] uuid=%s%n", step, r.get("name"),
                    uuids((Set<UUID>) r.get("uset")), uuids((Set<UUID>) r.get("uref")), r.uuid());
        }
        step++;
    }

    /** A set of UUIDs in the C IDL's order (by value, as their text sorts). */
    private static String uuids(Set<UUID> set) {
        return set.stream().map(UUID::toString).sorted(Comparator.naturalOrder()).collect(Collectors.joining(","));
    }

    static List<String> commands() {
        return List.of("idl-partial-update-map-column", "idl-partial-update-set-column");
    }
}
