package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionResult;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class OvsdbClientIT {

    @Test
    void insertsAndAttachesInOneTransactionWithReadYourWrites() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "shalb-dev");
            nbctl.run("ls-add", "shalb-dev-default");
            try (OvsdbClient client = Clients.connect(server.remote())) {
                assertThat(client.cache().table("Logical_Router").size()).isEqualTo(1);
                TransactionResult r = client.transactAndWait(client.transaction()
                        .add(Operations.insert("Load_Balancer").uuidName("lb")
                                .value("name", "etcd-tcp")
                                .value("protocol", Set.of("tcp"))
                                .value("vips", Map.of("168.119.17.51:2379", "10.1.0.40:2379,10.1.0.41:2379"))
                                .value("external_ids", Map.of("ovnj.owner", "kube-dc")))
                        .add(Operations.mutate("Logical_Router").where(Condition.eq("name", "shalb-dev"))
                                .mutation(Mutation.insert("load_balancer", Set.of(new dev.ovnj.ovsdb.data.NamedUuid("lb")))))
                        .add(Operations.mutate("Logical_Switch").where(Condition.eq("name", "shalb-dev-default"))
                                .mutation(Mutation.insert("load_balancer", Set.of(new dev.ovnj.ovsdb.data.NamedUuid("lb")))))
                        .build(), WAIT);
                UUID lb = r.uuidOf("lb");
                // Read-your-writes: no waiting here; the future completed after the cache had it.
                Row cached = client.cache().table("Load_Balancer").get(lb).orElseThrow();
                assertThat(cached.get("vips")).isEqualTo(Map.of("168.119.17.51:2379", "10.1.0.40:2379,10.1.0.41:2379"));
                Row router = Clients.byName(client, "Logical_Router", "shalb-dev").orElseThrow();
                assertThat((Set<Object>) router.get("load_balancer")).containsExactly(lb);

                assertThat(nbctl.run("lr-lb-list", "shalb-dev")).contains("etcd-tcp").contains("168.119.17.51:2379");
                assertThat(nbctl.run("ls-lb-list", "shalb-dev-default")).contains("etcd-tcp");
                assertThat(nbctl.run("get", "Load_Balancer", lb.toString(), "external_ids:ovnj.owner")).isEqualTo("kube-dc");
            }
        }
    }

    @Test
    void readYourWritesHoldsForEveryTransactionInABurst() {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            List<java.util.concurrent.CompletableFuture<TransactionResult>> futures = new java.util.ArrayList<>();
            for (int i = 0; i < 300; i++) {
                futures.add(client.transact(client.transaction()
                        .add(Operations.insert("Logical_Switch").uuidName("s").value("name", "sw" + i)).build()));
            }
            for (var f : futures) {
                TransactionResult r = f.join();
                assertThat(client.cache().table("Logical_Switch").get(r.uuidOf("s"))).isPresent();
            }
        }
    }

    @Test
    void cacheFollowsAThousandChangesMadeWithNbctl() {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            Nbctl nbctl = Nbctl.of(server);
            java.util.Random rnd = new java.util.Random(42);
            List<String> lbs = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 1000; i++) {
                int op = rnd.nextInt(6);
                String n = "n" + i;
                switch (op) {
                    case 0 -> nbctl.run("ls-add", "ls-" + n);
                    case 1 -> nbctl.run("lr-add", "lr-" + n);
                    case 2, 3 -> {
                        nbctl.run("lb-add", "lb-" + n, "10.0." + (i % 250) + ".1:80", "10.1.0." + (i % 250) + ":8080");
                        lbs.add("lb-" + n);
                    }
                    case 4 -> {
                        if (!lbs.isEmpty()) {
                            String lb = lbs.get(rnd.nextInt(lbs.size()));
                            nbctl.run("set", "Load_Balancer", lb, "external_ids:touched=" + i, "options:reject=true");
                        }
                    }
                    default -> {
                        if (!lbs.isEmpty()) {
                            nbctl.run("lb-del", lbs.remove(rnd.nextInt(lbs.size())));
                        }
                    }
                }
            }
            nbctl.run("sync");
            for (String table : List.of("Logical_Switch", "Logical_Router", "Load_Balancer")) {
                Await.until(WAIT, table + " in sync", () -> snapshot(client, table).equals(nbctlSnapshot(nbctl, table)));
                assertThat(snapshot(client, table)).isEqualTo(nbctlSnapshot(nbctl, table));
            }
            assertThat(client.cache().table("Load_Balancer").size()).isEqualTo(lbs.size());
        }
    }

    /** uuid, name, external_ids and options of every row, as the cache has them. */
    private static Set<String> snapshot(OvsdbClient client, String table) {
        Set<String> out = new java.util.TreeSet<>();
        for (Row r : client.cache().table(table).rows()) {
            out.add(r.uuid() + "|" + r.get("name") + "|" + new java.util.TreeMap<>((Map<?, ?>) r.get("external_ids"))
                    + "|" + (table.equals("Load_Balancer") ? new java.util.TreeMap<>((Map<?, ?>) r.get("vips")) + "|"
                    + new java.util.TreeMap<>((Map<?, ?>) r.get("options")) : ""));
        }
        return out;
    }

    /** The same projection, read with ovn-nbctl's JSON output. */
    private static Set<String> nbctlSnapshot(Nbctl nbctl, String table) {
        String cols = table.equals("Load_Balancer") ? "_uuid,name,external_ids,vips,options" : "_uuid,name,external_ids";
        com.fasterxml.jackson.databind.JsonNode json;
        try {
            json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                    nbctl.run("--format=json", "--columns=" + cols, "list", table));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
        Set<String> out = new java.util.TreeSet<>();
        for (var row : json.get("data")) {
            StringBuilder sb = new StringBuilder();
            sb.append(row.get(0).get(1).asText()).append('|').append(row.get(1).asText()).append('|').append(map(row.get(2))).append('|');
            if (table.equals("Load_Balancer")) {
                sb.append(map(row.get(3))).append('|').append(map(row.get(4)));
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static Map<String, String> map(com.fasterxml.jackson.databind.JsonNode m) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (var kv : m.get(1)) {
            out.put(kv.get(0).asText(), kv.get(1).asText());
        }
        return out;
    }

    @Test
    void indexesAndEventsFollowChanges() {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            IndexSpec byName = IndexSpec.unique("Load_Balancer", "name");
            IndexSpec byOwner = IndexSpec.mapKey("Load_Balancer", "external_ids", "ovnj.owner");
            client.cache().addIndex(byName);
            client.cache().addIndex(byOwner);
            List<CacheEvent> events = new CopyOnWriteArrayList<>();
            // ovn-nbctl also creates NB_Global on first use; only Load_Balancer events matter here.
            client.cache().addListener(batch -> batch.stream().filter(e -> e.table().equals("Load_Balancer")).forEach(events::add));
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lb-add", "a", "10.0.0.1:80", "10.1.0.1:80");
            nbctl.run("set", "Load_Balancer", "a", "external_ids:ovnj.owner=o1");
            nbctl.run("lb-del", "a");
            Await.until(WAIT, "three events", () -> events.size() == 3);
            assertThat(events.get(0)).isInstanceOf(CacheEvent.Inserted.class);
            assertThat(events.get(1)).isInstanceOfSatisfying(CacheEvent.Updated.class,
                    u -> assertThat(((Map<?, ?>) u.newRow().get("external_ids")).get("ovnj.owner")).isEqualTo("o1"));
            assertThat(events.get(2)).isInstanceOf(CacheEvent.Deleted.class);
            assertThat(client.cache().table("Load_Balancer").lookup(byName, "a")).isEmpty();

            nbctl.run("lb-add", "b", "10.0.0.2:80", "10.1.0.2:80");
            nbctl.run("set", "Load_Balancer", "b", "external_ids:ovnj.owner=o2");
            Await.until(WAIT, "owner index", () -> client.cache().table("Load_Balancer").lookup(byOwner, "o2").size() == 1);
            assertThat(client.cache().table("Load_Balancer").lookupOne(byName, "b")).isPresent();
        }
    }

    @Test
    void unixSocketRemote() {
        try (OvsdbServer server = OvsdbServer.builder().unixSocket(true).start()) {
            Nbctl.of(server).run("ls-add", "via-unix");
            try (OvsdbClient client = Clients.connect(server.unixRemote().orElseThrow())) {
                assertThat(Clients.byName(client, "Logical_Switch", "via-unix")).isPresent();
            }
        }
    }

    @Test
    void notConnectedTransactionsFailFastAndRetriable() {
        OvsdbClient client = OvsdbClient.builder().remotes("tcp:127.0.0.1:1").build();
        try {
            client.start();
            // A real transaction: a null one is refused at the call, before the connection is looked at.
            Transaction select = Transaction.builder(SchemaFixtures.northbound())
                    .add(Operations.select("Load_Balancer")).build();
            assertThatThrownBy(() -> client.transact(select).join())
                    .hasCauseInstanceOf(NotConnectedException.class)
                    .cause().satisfies(e -> assertThat(((NotConnectedException) e).retriable()).isTrue());
        } finally {
            client.close();
        }
    }
}
