package dev.ovnj.bench;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Checks, with a fresh client of its own, that a bulk-create client really wrote what it claims
 * before its figure is reported: exactly {@code n} load balancers with distinct names, and the
 * router's and the switch's {@code load_balancer} sets each holding exactly those rows. A client
 * that drops, duplicates or half-applies transactions fails the scenario instead of looking fast.
 */
final class WriteCheck {
    private WriteCheck() {
    }

    /**
     * Reads the database behind {@code remotes} and fails unless it holds the bulk-create result.
     *
     * @param client the client whose writes are checked (for the message)
     * @param remotes where to read (a cluster's remotes read the leader)
     * @param n how many load balancers the client wrote
     * @throws AssertionError naming what is missing
     */
    static void bulkCreate(String client, String remotes, int n) {
        try (OvsdbClient reader = OvsdbClient.builder().remotes(remotes)
                .monitor(MonitorRequest.tables("Load_Balancer", "Logical_Router", "Logical_Switch")).build()) {
            reader.startAndWait(Duration.ofSeconds(120));
            List<Row> lbs = reader.cache().table("Load_Balancer").rows();
            Set<UUID> uuids = new HashSet<>();
            Set<Object> names = new HashSet<>();
            for (Row r : lbs) {
                uuids.add(r.uuid());
                names.add(r.get("name"));
            }
            require(lbs.size() == n, client, "the database has " + lbs.size() + " load balancers, expected " + n);
            require(names.size() == n, client, "only " + names.size() + " distinct load-balancer names of " + n);
            attached(client, reader, "Logical_Router", Scenarios.ROUTER, uuids);
            attached(client, reader, "Logical_Switch", Scenarios.SWITCH, uuids);
        }
    }

    private static void attached(String client, OvsdbClient reader, String table, String name, Set<UUID> expected) {
        Row row = reader.cache().table(table).rows().stream().filter(r -> name.equals(r.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError(client + ": no " + table + " named " + name));
        Set<?> actual = row.get("load_balancer") instanceof Set<?> s ? s : Set.of();
        require(actual.size() == expected.size() && expected.containsAll(actual), client,
                table + " " + name + " has " + actual.size() + " load balancers attached, expected exactly the "
                        + expected.size() + " written");
    }

    private static void require(boolean ok, String client, String what) {
        if (!ok) {
            throw new AssertionError(client + " did not write what it claims: " + what);
        }
    }
}
