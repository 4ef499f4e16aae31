package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Seeded random OVN Northbound transactions that reach every operation and most of the errors
 * ovsdb-server can report: enum, range and length constraints, referential integrity, garbage
 * collection, weak references, maxRows, index uniqueness, arithmetic errors, wait outcomes,
 * assert, abort and malformed operations. Row UUIDs are chosen by the generator (the "uuid"
 * member of insert), so both servers hold the same UUIDs and replies compare directly.
 */
final class TransactionGenerator {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final String[] NAMES = {"a", "b", "c", "d", "e"};
    private static final String[] PROTOS = {"tcp", "udp", "sctp", "tcp", "bogus"};
    private static final String[] ACTIONS = {"allow", "allow-related", "drop", "reject", "allow-stateless", "pass"};

    private final Random rnd;
    private final List<UUID> lbs = new ArrayList<>();
    private final List<UUID> switches = new ArrayList<>();
    private final List<UUID> ports = new ArrayList<>();
    private final List<UUID> acls = new ArrayList<>();
    private final List<UUID> sets = new ArrayList<>();
    final List<UUID> all = new ArrayList<>();
    private int names;
    /** Operations that ride along with the last one (a switch's new ports and ACL). */
    private final List<JsonNode> pending = new ArrayList<>();

    TransactionGenerator(long seed) {
        this.rnd = new Random(seed);
    }

    Random random() {
        return rnd;
    }

    /** The params of one transact: the database name and one to five operations. */
    ArrayNode transaction() {
        ArrayNode params = N.arrayNode().add("OVN_Northbound");
        int n = 1 + rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            params.add(operation());
            drain().forEach(params::add);
        }
        if (rnd.nextInt(30) == 0) {
            params.add(N.objectNode().put("op", "abort"));
        }
        return params;
    }

    private UUID fresh(List<UUID> list) {
        UUID u = new UUID(rnd.nextLong(), rnd.nextLong());
        u = UUID.fromString(u.toString().substring(0, 14) + "4" + u.toString().substring(15));
        list.add(u);
        all.add(u);
        return u;
    }

    private <T> T pick(List<T> list) {
        return list.get(rnd.nextInt(list.size()));
    }

    private String pick(String[] a) {
        return a[rnd.nextInt(a.length)];
    }

    static ArrayNode uuid(UUID u) {
        return N.arrayNode().add("uuid").add(u.toString());
    }

    private ArrayNode byUuid(List<UUID> list) {
        return N.arrayNode().add(N.arrayNode().add("_uuid").add("==").add(uuid(pick(list))));
    }

    private ArrayNode map(String... kv) {
        ArrayNode pairs = N.arrayNode();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            pairs.add(N.arrayNode().add(kv[i]).add(kv[i + 1]));
        }
        return N.arrayNode().add("map").add(pairs);
    }

    private ArrayNode set(JsonNode... atoms) {
        ArrayNode a = N.arrayNode();
        for (JsonNode x : atoms) {
            a.add(x);
        }
        return N.arrayNode().add("set").add(a);
    }

    private String vip() {
        return "10.0." + rnd.nextInt(3) + "." + rnd.nextInt(4) + ":" + (80 + rnd.nextInt(3));
    }

    private ObjectNode op(String op, String table) {
        return N.objectNode().put("op", op).put("table", table);
    }

    private JsonNode operation() {
        if (rnd.nextInt(8) == 0) {
            return constraintEdge();
        }
        int k = rnd.nextInt(100);
        if (k < 12 || lbs.isEmpty()) {
            return insertLb();
        }
        if (k < 20 || switches.isEmpty()) {
            return insertSwitch();
        }
        if (k < 24) {
            return insertOrphan();
        }
        if (k < 28) {
            return insertAddressSet();
        }
        if (k < 30) {
            ObjectNode o = op("insert", "NB_Global");
            o.put("uuid", fresh(new ArrayList<>()).toString());
            o.putObject("row").put("name", pick(NAMES));
            return o;
        }
        if (k < 38) {
            return updateLb();
        }
        if (k < 55) {
            return mutate();
        }
        if (k < 63) {
            return delete();
        }
        if (k < 78) {
            return select();
        }
        if (k < 85) {
            return waitOp();
        }
        if (k < 88) {
            return N.objectNode().put("op", "comment").put("comment", "step " + rnd.nextInt(100));
        }
        if (k < 91) {
            return N.objectNode().put("op", "assert").put("lock", rnd.nextBoolean() ? "held" : "other");
        }
        return malformed();
    }

    private JsonNode insertLb() {
        ObjectNode o = op("insert", "Load_Balancer");
        o.put("uuid", fresh(lbs).toString());
        ObjectNode row = o.putObject("row");
        row.put("name", "lb" + names++);
        String first = vip();
        String second = vip();
        row.set("vips", second.equals(first) ? map(first, "10.1.0.1:8080,10.1.0.2:8080")
                : map(first, "10.1.0.1:8080,10.1.0.2:8080", second, "10.1.0.3:80"));
        // Sometimes two invalid values in one row: which one ovsdb-server reports depends on the
        // hash order of the column names, which the in-memory server reproduces.
        if (rnd.nextBoolean()) {
            row.put("protocol", pick(PROTOS));
        }
        if (rnd.nextInt(4) == 0) {
            row.set("selection_fields", set(N.textNode("ip_src"), N.textNode(rnd.nextBoolean() ? "ip_dst" : "nope")));
        }
        row.set("external_ids", map("owner", pick(NAMES)));
        return o;
    }

    /** A switch with new ports and an ACL referenced through named UUIDs, and weak LB references. */
    private JsonNode insertSwitch() {
        ArrayNode ops = N.arrayNode();
        ObjectNode sw = op("insert", "Logical_Switch");
        sw.put("uuid", fresh(switches).toString());
        ObjectNode row = sw.putObject("row");
        row.put("name", "sw" + names++);
        List<JsonNode> portRefs = new ArrayList<>();
        int nports = rnd.nextInt(3);
        List<JsonNode> portOps = new ArrayList<>();
        for (int i = 0; i < nports; i++) {
            String name = "p" + names++;
            ObjectNode p = op("insert", "Logical_Switch_Port");
            p.put("uuid", fresh(ports).toString());
            p.put("uuid-name", "n" + name.replace("-", "_"));
            ObjectNode pr = p.putObject("row");
            pr.put("name", rnd.nextInt(10) == 0 ? "dup" : name);
            pr.set("addresses", set(N.textNode("00:00:00:00:00:0" + i + " 10.0.0." + i)));
            if (rnd.nextInt(3) == 0) {
                pr.put("tag", rnd.nextInt(5000));
            }
            portRefs.add(N.arrayNode().add("named-uuid").add("n" + name));
            portOps.add(p);
        }
        row.set("ports", set(portRefs.toArray(new JsonNode[0])));
        if (!lbs.isEmpty()) {
            row.set("load_balancer", set(uuid(pick(lbs)), uuid(pick(lbs))));
        }
        if (rnd.nextBoolean()) {
            ObjectNode acl = op("insert", "ACL");
            acl.put("uuid", fresh(acls).toString());
            acl.put("uuid-name", "acl");
            ObjectNode ar = acl.putObject("row");
            ar.put("priority", rnd.nextInt(10) == 0 ? 40000 : rnd.nextInt(2000));
            ar.put("direction", rnd.nextBoolean() ? "from-lport" : "to-lport");
            ar.put("match", "ip4");
            ar.put("action", pick(ACTIONS));
            if (rnd.nextInt(8) == 0) {
                ar.put("name", "x".repeat(70));
            }
            row.set("acls", N.arrayNode().add("named-uuid").add("acl"));
            pending.addAll(portOps);
            pending.add(acl);
            return sw;
        }
        pending.addAll(portOps);
        return sw;
    }


    /** Drains operations queued by the last switch insert; called after each operation. */
    List<JsonNode> drain() {
        List<JsonNode> out = new ArrayList<>(pending);
        pending.clear();
        return out;
    }

    private JsonNode insertOrphan() {
        ObjectNode p = op("insert", "Logical_Switch_Port");
        p.put("uuid", fresh(ports).toString());
        p.putObject("row").put("name", "orphan" + names++);
        return p;
    }

    private JsonNode insertAddressSet() {
        ObjectNode o = op("insert", "Address_Set");
        o.put("uuid", fresh(sets).toString());
        o.putObject("row").put("name", "as-" + pick(NAMES)).set("addresses", set(N.textNode("10.0.0." + rnd.nextInt(4))));
        return o;
    }

    private JsonNode updateLb() {
        ObjectNode o = op("update", "Load_Balancer");
        o.set("where", rnd.nextBoolean() ? byUuid(lbs)
                : N.arrayNode().add(N.arrayNode().add("protocol").add("==").add(pick(PROTOS))));
        ObjectNode row = o.putObject("row");
        switch (rnd.nextInt(5)) {
            case 0 -> row.set("vips", map(vip(), "10.2.0.1:80"));
            case 1 -> row.put("protocol", pick(PROTOS));
            case 2 -> row.set("options", map("reject", "true", "hairpin_snat_ip", "169.254.0.1"));
            case 3 -> row.put("bogus", 1);
            default -> row.put("name", "renamed" + rnd.nextInt(3));
        }
        return o;
    }

    private JsonNode mutate() {
        int k = rnd.nextInt(11);
        ObjectNode o;
        ArrayNode m = N.arrayNode();
        switch (k) {
            case 0 -> {
                o = op("mutate", "Load_Balancer");
                o.set("where", byUuid(lbs));
                m.add(N.arrayNode().add("vips").add("insert").add(map(vip(), "10.3.0.1:80")));
            }
            case 1 -> {
                o = op("mutate", "Load_Balancer");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("vips").add("delete").add(rnd.nextBoolean() ? set(N.textNode(vip()))
                        : map(vip(), "10.1.0.3:80")));
            }
            case 2 -> {
                o = op("mutate", "Logical_Switch");
                o.set("where", byUuid(switches));
                m.add(N.arrayNode().add("ports").add("delete").add(set(uuid(ports.isEmpty() ? UUID.randomUUID() : pick(ports)))));
            }
            case 3 -> {
                o = op("mutate", "Logical_Switch");
                o.set("where", byUuid(switches));
                m.add(N.arrayNode().add("load_balancer").add("insert").add(set(uuid(pick(lbs)))));
            }
            case 4 -> {
                o = op("mutate", "ACL");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("priority").add(rnd.nextBoolean() ? "+=" : "*=").add(rnd.nextInt(20)));
            }
            case 5 -> {
                o = op("mutate", "NB_Global");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("nb_cfg").add(pick(new String[] {"+=", "-=", "/=", "%="})).add(rnd.nextInt(3)));
            }
            case 6 -> {
                o = op("mutate", "Logical_Switch_Port");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("tag").add("insert").add(rnd.nextInt(5000)));
            }
            case 7 -> {
                o = op("mutate", "Logical_Switch_Port");
                o.set("where", N.arrayNode().add(N.arrayNode().add("name").add("!=").add("x")));
                m.add(N.arrayNode().add("addresses").add("insert").add(set(N.textNode("unknown"), N.textNode("dynamic"))));
            }
            case 8 -> {
                o = op("mutate", "Load_Balancer");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("name").add("insert").add("x"));
            }
            case 9 -> {
                o = op("mutate", "Load_Balancer");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("external_ids").add("frobnicate").add(map("a", "b")));
            }
            default -> {
                o = op("mutate", "Address_Set");
                o.set("where", N.arrayNode());
                m.add(N.arrayNode().add("addresses").add("insert").add(set(N.textNode("10.9.9.9"))));
                m.add(N.arrayNode().add("external_ids").add("insert").add(map("k", pick(NAMES))));
            }
        }
        o.set("mutations", m);
        return o;
    }

    private JsonNode delete() {
        switch (rnd.nextInt(4)) {
            case 0 -> {
                ObjectNode o = op("delete", "Load_Balancer");
                o.set("where", byUuid(lbs));
                return o;
            }
            case 1 -> {
                ObjectNode o = op("delete", "Logical_Switch_Port");
                o.set("where", ports.isEmpty() ? N.arrayNode() : byUuid(ports));
                return o;
            }
            case 2 -> {
                ObjectNode o = op("delete", "Logical_Switch");
                o.set("where", byUuid(switches));
                return o;
            }
            default -> {
                ObjectNode o = op("delete", "Address_Set");
                o.set("where", N.arrayNode().add(N.arrayNode().add("name").add("==").add("as-" + pick(NAMES))));
                return o;
            }
        }
    }

    private JsonNode select() {
        String[] tables = {"Load_Balancer", "Logical_Switch", "Logical_Switch_Port", "ACL", "Address_Set", "NB_Global"};
        String t = pick(tables);
        ObjectNode o = op("select", t);
        ArrayNode where = N.arrayNode();
        switch (t) {
            case "Load_Balancer" -> {
                switch (rnd.nextInt(4)) {
                    case 0 -> where.add(N.arrayNode().add("vips").add("includes").add(map(vip(), "10.1.0.3:80")));
                    case 1 -> where.add(N.arrayNode().add("protocol").add("excludes").add(set(N.textNode("udp"))));
                    case 2 -> where.add(N.arrayNode().add("external_ids").add("==").add(map("owner", pick(NAMES))));
                    default -> where.add(N.arrayNode().add("name").add("<").add("x"));
                }
            }
            case "ACL" -> where.add(N.arrayNode().add("priority").add(pick(new String[] {"<", "<=", ">", ">=", "==", "!="}))
                    .add(rnd.nextInt(2000)));
            case "Logical_Switch_Port" -> where.add(N.arrayNode().add("tag").add("includes").add(rnd.nextInt(4096)));
            default -> {
            }
        }
        o.set("where", where);
        if (rnd.nextBoolean()) {
            ArrayNode cols = N.arrayNode().add("name");
            if (rnd.nextInt(5) == 0) {
                cols.add("nosuchcolumn");
            }
            o.set("columns", cols);
        }
        return o;
    }

    private JsonNode waitOp() {
        ObjectNode o = op("wait", "Load_Balancer");
        o.put("timeout", 0);
        o.set("where", N.arrayNode().add(N.arrayNode().add("protocol").add("==").add(pick(PROTOS))));
        o.set("columns", N.arrayNode().add("protocol"));
        o.put("until", rnd.nextBoolean() ? "==" : "!=");
        ArrayNode rows = o.putArray("rows");
        if (rnd.nextBoolean()) {
            rows.addObject().put("protocol", "tcp");
        }
        return o;
    }

    /**
     * Values at and just past a column's constraints, and inserts that leave constrained columns at
     * their defaults (an ACL's empty direction, a Meter_Band's rate 0, a Meter's all-zeros band):
     * ovsdb-server checks every single-valued column of a new row, not only those named.
     */
    private JsonNode constraintEdge() {
        return switch (rnd.nextInt(9)) {
            case 0 -> {
                ObjectNode o = op("insert", "ACL");
                ObjectNode row = o.putObject("row");
                if (rnd.nextBoolean()) {
                    row.put("priority", pick(new long[] {-1, 0, 32767, 32768}));
                }
                if (rnd.nextBoolean()) {
                    row.put("direction", rnd.nextBoolean() ? "to-lport" : "sideways");
                }
                if (rnd.nextBoolean()) {
                    row.put("action", pick(ACTIONS));
                }
                if (rnd.nextBoolean()) {
                    row.put("label", pick(new long[] {-1, 0, 4294967295L, 4294967296L}));
                }
                yield o;
            }
            case 1 -> {
                ObjectNode o = op("insert", "Meter_Band");
                ObjectNode row = o.putObject("row");
                if (rnd.nextBoolean()) {
                    row.put("action", rnd.nextBoolean() ? "drop" : "pass");
                }
                if (rnd.nextBoolean()) {
                    row.put("rate", pick(new long[] {0, 1, 4294967295L, 4294967296L}));
                }
                if (rnd.nextBoolean()) {
                    row.put("burst_size", pick(new long[] {-1, 0}));
                }
                yield o;
            }
            case 2 -> {
                ObjectNode o = op("insert", "Meter");
                ObjectNode row = o.putObject("row").put("name", "m" + names++);
                if (rnd.nextBoolean()) {
                    row.put("unit", rnd.nextBoolean() ? "kbps" : "bps");
                }
                if (rnd.nextBoolean()) {
                    row.set("bands", set());
                }
                yield o;
            }
            case 3 -> {
                ObjectNode o = op("insert", "QoS");
                ObjectNode row = o.putObject("row").put("priority", 10).put("direction", "to-lport").put("match", "ip4");
                ArrayNode action = N.arrayNode().add(N.arrayNode().add(rnd.nextBoolean() ? "dscp" : "mark")
                        .add(pick(new long[] {0, 63, 64})));
                row.set("action", N.arrayNode().add("map").add(action));
                ArrayNode bw = N.arrayNode().add(N.arrayNode().add("rate").add(pick(new long[] {0, 1, 100})));
                if (rnd.nextBoolean()) {
                    bw.add(N.arrayNode().add("burst").add(pick(new long[] {1, 4294967296L})));
                }
                row.set("bandwidth", N.arrayNode().add("map").add(bw));
                yield o;
            }
            case 4 -> {
                ObjectNode o = op("update", "ACL");
                o.set("where", N.arrayNode());
                ObjectNode row = o.putObject("row");
                switch (rnd.nextInt(4)) {
                    case 0 -> row.put("priority", pick(new long[] {-1, 32767, 32768}));
                    case 1 -> row.put("name", "n".repeat(rnd.nextBoolean() ? 63 : 64));
                    case 2 -> row.put("severity", rnd.nextBoolean() ? "alert" : "loud");
                    default -> row.set("name", set(N.textNode("a"), N.textNode("b")));
                }
                yield o;
            }
            case 5 -> {
                ObjectNode o = op("update", "Logical_Switch_Port");
                o.set("where", N.arrayNode());
                if (rnd.nextBoolean()) {
                    o.putObject("row").put("tag_request", pick(new long[] {-1, 0, 4095, 4096}));
                } else {
                    o.putObject("row").set("dhcpv4_options", set(uuid(fresh(new ArrayList<>())), uuid(fresh(new ArrayList<>()))));
                }
                yield o;
            }
            case 6 -> {
                // A strong reference to a row that does not exist.
                ObjectNode o = op("update", "Logical_Switch");
                o.set("where", switches.isEmpty() ? N.arrayNode() : byUuid(switches));
                o.putObject("row").set("ports", set(uuid(rnd.nextBoolean() || ports.isEmpty() ? fresh(new ArrayList<>()) : pick(ports))));
                yield o;
            }
            case 7 -> {
                ObjectNode o = op("mutate", "ACL");
                o.set("where", N.arrayNode());
                ArrayNode m = N.arrayNode();
                switch (rnd.nextInt(3)) {
                    case 0 -> m.add(N.arrayNode().add("label").add("-=").add(1));
                    case 1 -> m.add(N.arrayNode().add("priority").add("+=").add(32767));
                    default -> m.add(N.arrayNode().add("severity").add("insert").add(set(N.textNode("info"), N.textNode("debug"))));
                }
                o.set("mutations", m);
                yield o;
            }
            default -> {
                ObjectNode o = op("mutate", "QoS");
                o.set("where", N.arrayNode());
                ArrayNode m = N.arrayNode();
                ArrayNode pair = N.arrayNode().add(rnd.nextBoolean() ? "burst" : "peak").add(rnd.nextInt(2));
                m.add(N.arrayNode().add("bandwidth").add("insert").add(N.arrayNode().add("map").add(N.arrayNode().add(pair))));
                o.set("mutations", m);
                yield o;
            }
        };
    }

    /**
     * A monitor condition on Load_Balancer of zero to four clauses, which ovsdb-server ORs: two
     * values of one column, a column and a literal, sets and maps, never-matching clauses.
     */
    ArrayNode lbMonitorWhere() {
        ArrayNode where = N.arrayNode();
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(6)) {
                case 0 -> where.add(N.arrayNode().add("protocol").add("==").add(pick(PROTOS)));
                case 1 -> where.add(N.arrayNode().add("name").add(rnd.nextBoolean() ? "==" : "!=")
                        .add("lb" + rnd.nextInt(Math.max(1, names))));
                case 2 -> where.add(N.arrayNode().add("external_ids").add("includes").add(map("owner", pick(NAMES))));
                case 3 -> where.add(N.arrayNode().add("vips").add("excludes").add(map(vip(), "10.1.0.1:8080,10.1.0.2:8080")));
                case 4 -> where.add(N.booleanNode(rnd.nextInt(4) == 0));
                default -> where.add(N.arrayNode().add("selection_fields").add("includes").add(set(N.textNode("ip_src"))));
            }
        }
        return where;
    }

    private long pick(long[] a) {
        return a[rnd.nextInt(a.length)];
    }

    private JsonNode malformed() {
        return switch (rnd.nextInt(5)) {
            case 0 -> op("select", "NoSuchTable").set("where", N.arrayNode());
            case 1 -> N.objectNode().put("op", "frobnicate");
            case 2 -> op("delete", "Load_Balancer");
            case 3 -> op("select", "ACL").put("extra", 1).put("more", 2).put(rnd.nextBoolean() ? "x" : "y", 3)
                    .set("where", N.arrayNode());
            default -> op("select", "ACL").set("where", N.arrayNode().add(N.arrayNode().add("priority").add("includes")
                    .add("high")));
        };
    }
}
