package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The same seeded random transactions and monitor requests sent to ovsdb-server and to the
 * in-memory server, one connection each: every reply and every monitor notification (update,
 * update2, update3) must be identical once {@code _version} values and transaction ids are masked
 * and row order is made canonical. The in-memory server runs without transaction history here,
 * since a standalone ovsdb-server keeps none. Seeds are fixed, so a difference reproduces.
 */
class DifferentialIT {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final int SEQUENCES = Integer.getInteger("ovnj.diff.sequences", 50);
    private static final int STEPS = Integer.getInteger("ovnj.diff.steps", 40);
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @Test
    void repliesAndMonitorUpdatesMatchOvsdbServer() {
        int transactions = 0;
        int operations = 0;
        int notifications = 0;
        int monitorCalls = 0;
        int constraintErrors = 0;
        int multiClauseConditions = 0;
        List<String> differences = new ArrayList<>();
        for (int seq = 0; seq < SEQUENCES; seq++) {
            long seed = 7047L * 1000 + seq;
            try (OvsdbServer process = OvsdbServer.start();
                    // The schema the real server runs (another release's, when testkit runs one).
                    InMemoryOvsdbServer memory = InMemoryOvsdbServer.builder().history(false)
                            .schema(Schemas.ovnNorthbound(process.directory())).start();
                    RawClient real = new RawClient(process.port());
                    RawClient fake = new RawClient(memory.port());
                    RawClient realObserver = new RawClient(process.port());
                    RawClient fakeObserver = new RawClient(memory.port())) {
                TransactionGenerator gen = new TransactionGenerator(seed);
                // A second connection watches every table through monitor_cond; after each step an
                // echo on it collects what the server sent it meanwhile.
                ArrayNode watchAll = N.arrayNode().add("OVN_Northbound").add("all").add(everyTable());
                compare(realObserver.call("monitor_cond", watchAll.deepCopy()),
                        fakeObserver.call("monitor_cond", watchAll.deepCopy()), gen, "observer monitor_cond", seed, -1, differences);
                List<Step> steps = new ArrayList<>();
                steps.add(new Step("lock", N.arrayNode().add("held")));
                steps.addAll(monitors());
                for (int i = 0; i < STEPS; i++) {
                    int r = gen.random().nextInt(40);
                    if (r < 3) {
                        steps.add(conditionChange(gen));
                    } else if (r == 1) {
                        steps.add(new Step("monitor_cancel", N.arrayNode().add("m1")));
                    } else if (r == 2) {
                        steps.add(new Step("monitor_cond_since", N.arrayNode().add("OVN_Northbound").add("late" + i)
                                .add(lbRequest(gen.lbMonitorWhere())).add("00000000-0000-0000-0000-000000000000")));
                    } else {
                        steps.add(new Step("transact", gen.transaction()));
                    }
                }
                for (int i = 0; i < steps.size(); i++) {
                    Step s = steps.get(i);
                    RawClient.Exchange a = real.call(s.method, s.params.deepCopy());
                    RawClient.Exchange b = fake.call(s.method, s.params.deepCopy());
                    if ("transact".equals(s.method)) {
                        transactions++;
                        operations += s.params.size() - 1;
                        constraintErrors += a.reply().toString().contains("constraint violation") ? 1 : 0;
                    } else {
                        monitorCalls++;
                        multiClauseConditions += s.params.findValues("where").stream().anyMatch(w -> w.size() > 1) ? 1 : 0;
                    }
                    notifications += a.notifications().size();
                    compare(a, b, gen, s.method + " " + s.params, seed, i, differences);
                    RawClient.Exchange ra = realObserver.call("echo", N.arrayNode());
                    RawClient.Exchange fa = fakeObserver.call("echo", N.arrayNode());
                    notifications += ra.notifications().size();
                    compare(ra, fa, gen, "observer after " + s.method, seed, i, differences);
                }
            }
        }
        System.out.printf("differential: %d sequences, %d transactions (%d with a constraint violation), %d operations, "
                + "%d monitor calls (%d with a condition of several clauses), %d notifications compared, %d differences%n",
                SEQUENCES, transactions, constraintErrors, operations, monitorCalls, multiClauseConditions, notifications,
                differences.size());
        assertThat(differences).as(String.join("\n", differences.subList(0, Math.min(5, differences.size())))).isEmpty();
        assertThat(notifications).isGreaterThan(SEQUENCES * 5);
        assertThat(constraintErrors).isGreaterThan(SEQUENCES);
        assertThat(multiClauseConditions).isGreaterThan(SEQUENCES);
    }

    private static final Pattern INDEX_ROWS = Pattern.compile("First row, (with UUID [^.]*(?:\\.[^ ][^.]*)*\\.)  Second row, (with UUID [^.]*(?:\\.[^ ][^.]*)*\\.)");

    /**
     * Which of two rows that clash on an index ovsdb-server 3.1 names first depends on the hash
     * order of column names and on random _version values; the sentences about each row must match.
     */
    private static String indexRowsInOrder(String text) {
        java.util.regex.Matcher m = INDEX_ROWS.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String a = m.group(1);
            String b = m.group(2);
            String first = a.compareTo(b) <= 0 ? a : b;
            String second = a.compareTo(b) <= 0 ? b : a;
            m.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement("Row " + first + "  Row " + second));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** UUIDs the servers made up (for a named-uuid that no insert created) differ by nature. */
    private static String unknownUuids(String text, TransactionGenerator gen) {
        java.util.Set<String> known = new java.util.HashSet<>();
        gen.all.forEach(u -> known.add(u.toString()));
        java.util.regex.Matcher m = UUID_TEXT.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, known.contains(m.group()) || m.group().startsWith("00000000") ? m.group() : "<made-up>");
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static void compare(RawClient.Exchange a, RawClient.Exchange b, TransactionGenerator gen, String what,
            long seed, int step, List<String> differences) {
        String want = unknownUuids(canonical(a), gen);
        String got = unknownUuids(canonical(b), gen);
        if (!want.equals(got)) {
            differences.add("seed " + seed + " step " + step + " " + what + "\n  ovsdb-server: " + want
                    + "\n  in-memory:    " + got);
        }
    }

    private static ObjectNode everyTable() {
        ObjectNode r = N.objectNode();
        for (String t : List.of("Load_Balancer", "Logical_Switch", "Logical_Switch_Port", "ACL", "Address_Set", "NB_Global")) {
            r.set(t, N.arrayNode().add(N.objectNode()));
        }
        return r;
    }

    private record Step(String method, ArrayNode params) {
    }

    private static List<Step> monitors() {
        List<Step> steps = new ArrayList<>();
        ObjectNode v1 = N.objectNode();
        v1.set("Load_Balancer", N.objectNode());
        v1.set("Logical_Switch", N.objectNode().set("columns", N.arrayNode().add("name").add("ports").add("load_balancer")));
        ObjectNode sel = N.objectNode().put("initial", true).put("insert", true).put("delete", true).put("modify", false);
        v1.set("ACL", N.objectNode().set("select", sel));
        steps.add(new Step("monitor", N.arrayNode().add("OVN_Northbound").add("m1").add(v1)));
        ObjectNode v2 = N.objectNode();
        ObjectNode lsp = N.objectNode();
        lsp.set("columns", N.arrayNode().add("name").add("addresses").add("tag"));
        // Two clauses: ovsdb-server ORs a monitor's clauses, so this is every port (a name is
        // either not "dup" or not "p1").
        lsp.set("where", N.arrayNode().add(N.arrayNode().add("name").add("!=").add("dup"))
                .add(N.arrayNode().add("name").add("!=").add("p1")));
        v2.set("Logical_Switch_Port", lsp);
        v2.set("NB_Global", N.objectNode());
        v2.set("Address_Set", N.arrayNode().add(N.objectNode().set("columns", N.arrayNode().add("name")))
                .add(N.objectNode().set("columns", N.arrayNode().add("addresses"))));
        steps.add(new Step("monitor_cond", N.arrayNode().add("OVN_Northbound").add("m2").add(v2)));
        steps.add(new Step("monitor_cond_since", N.arrayNode().add("OVN_Northbound").add(N.arrayNode().add("m3"))
                .add(lbRequest(N.arrayNode().add(N.arrayNode().add("protocol").add("==").add("tcp"))
                        .add(N.arrayNode().add("protocol").add("==").add("udp"))))
                .add("00000000-0000-0000-0000-000000000000")));
        return steps;
    }

    private static ObjectNode lbRequest(ArrayNode where) {
        ObjectNode r = N.objectNode();
        ObjectNode lb = N.objectNode();
        lb.set("where", where);
        r.set("Load_Balancer", N.arrayNode().add(lb));
        return r;
    }

    private static Step conditionChange(TransactionGenerator gen) {
        ObjectNode change = N.objectNode();
        change.set("Load_Balancer", N.arrayNode().add(N.objectNode().set("where", gen.lbMonitorWhere())));
        return new Step("monitor_cond_change", N.arrayNode().add(N.arrayNode().add("m3")).add(N.arrayNode().add("m3"))
                .add(change));
    }

    /** One exchange as canonical text: keys sorted, _version masked, txn ids masked, select rows sorted. */
    static String canonical(RawClient.Exchange e) {
        StringBuilder sb = new StringBuilder();
        JsonNode reply = e.reply().deepCopy();
        ((ObjectNode) reply).remove("id");
        sb.append(canon(reply));
        // Notifications for different monitors come in the server's hash order of monitor ids.
        List<String> notes = new ArrayList<>();
        for (JsonNode n : e.notifications()) {
            JsonNode c = n.deepCopy();
            if ("update3".equals(c.path("method").asText())) {
                ((ArrayNode) c.get("params")).set(1, N.textNode("<txn>"));
            }
            notes.add(canon(c));
        }
        notes.sort(null);
        notes.forEach(n -> sb.append(" | ").append(n));
        return indexRowsInOrder(sb.toString());
    }

    private static String canon(JsonNode json) {
        return sort(json).toString();
    }

    private static JsonNode sort(JsonNode json) {
        if (json.isObject()) {
            TreeMap<String, JsonNode> m = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("_version")) {
                    m.put(e.getKey(), sort(e.getValue()));
                }
            }
            ObjectNode o = N.objectNode();
            m.forEach(o::set);
            if (o.has("rows") && o.get("rows").isArray()) {
                List<String> rows = new ArrayList<>();
                o.get("rows").forEach(r -> rows.add(r.toString()));
                rows.sort(null);
                ArrayNode a = N.arrayNode();
                rows.forEach(r -> a.add(N.textNode(r)));
                o.set("rows", a);
            }
            return o;
        }
        if (json.isArray()) {
            ArrayNode a = N.arrayNode();
            json.forEach(x -> a.add(sort(x)));
            // monitor_cond_since replies: [found, last-txn-id, updates]
            if (a.size() == 3 && a.get(0).isBoolean() && a.get(1).isTextual() && UUID_TEXT.matcher(a.get(1).asText()).matches()) {
                a.set(1, N.textNode("<txn>"));
            }
            return a;
        }
        return json;
    }
}
