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
 * Seeded random transactions on the {@code constraints} test schema, which has a column for every
 * kind of constraint OVSDB knows: integer and real minimum, maximum and range, string length,
 * string, integer and real enums, set and map sizes with constrained keys and values, strong
 * references with and without a minimum, a weak reference that must not become empty, maxRows.
 * Values sit at and just past each bound, and inserts leave random columns at their defaults
 * (which break several constraints). Row UUIDs are chosen here, so replies compare directly.
 */
final class ConstraintGenerator {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final String[] COLUMNS = {"i_min", "i_max", "i_range", "r_min", "r_max", "r_range", "s_len", "s_enum",
        "i_enum", "r_enum", "set_1_3", "map_0_2", "ref", "ref_1_2", "weak_1", "b"};

    private final Random rnd;
    private final List<UUID> roots = new ArrayList<>();
    private final List<UUID> leaves = new ArrayList<>();

    ConstraintGenerator(long seed) {
        rnd = new Random(seed);
    }

    /** The params of one transact: the database name and one to three operations. */
    ArrayNode transaction() {
        ArrayNode params = N.arrayNode().add("constraints");
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            params.add(operation());
        }
        return params;
    }

    private JsonNode operation() {
        int k = rnd.nextInt(100);
        if (k < 20 || leaves.isEmpty()) {
            ObjectNode o = op("insert", "leaf");
            o.put("uuid", fresh(leaves).toString());
            o.putObject("row").put("n", rnd.nextInt(4) - 1);
            return o;
        }
        if (k < 50) {
            ObjectNode o = op("insert", "root");
            o.put("uuid", fresh(roots).toString());
            ObjectNode row = o.putObject("row");
            for (String c : COLUMNS) {
                if (rnd.nextInt(10) < 8) {
                    row.set(c, value(c));
                }
            }
            return o;
        }
        if (k < 65) {
            ObjectNode o = op("update", "root");
            o.set("where", whereRoot());
            ObjectNode row = o.putObject("row");
            for (int i = 0; i < 1 + rnd.nextInt(3); i++) {
                String c = COLUMNS[rnd.nextInt(COLUMNS.length)];
                row.set(c, value(c));
            }
            return o;
        }
        if (k < 85) {
            ObjectNode o = op("mutate", "root");
            o.set("where", whereRoot());
            o.set("mutations", N.arrayNode().add(mutation()));
            return o;
        }
        if (k < 93) {
            ObjectNode o = op("delete", "leaf");
            o.set("where", N.arrayNode().add(N.arrayNode().add("_uuid").add("==").add(uuid(pick(leaves)))));
            return o;
        }
        if (k < 97) {
            ObjectNode o = op("delete", "root");
            o.set("where", whereRoot());
            return o;
        }
        ObjectNode o = op("select", rnd.nextBoolean() ? "root" : "leaf");
        o.set("where", N.arrayNode());
        return o;
    }

    private ArrayNode whereRoot() {
        if (roots.isEmpty() || rnd.nextInt(3) == 0) {
            return N.arrayNode();
        }
        return N.arrayNode().add(N.arrayNode().add("_uuid").add("==").add(uuid(pick(roots))));
    }

    private JsonNode mutation() {
        return switch (rnd.nextInt(9)) {
            case 0 -> N.arrayNode().add("i_range").add(pick("+=", "-=", "*=", "/=", "%=")).add(rnd.nextInt(7) - 1);
            case 1 -> N.arrayNode().add("r_range").add(pick("*=", "+=", "-=")).add(pick(1e10, 1e25, -1.0, 0.5));
            case 2 -> N.arrayNode().add("r_min").add("-=").add(pick(0.25, 0.0, 1e-17));
            case 3 -> N.arrayNode().add("set_1_3").add(pick("insert", "delete")).add(set(rnd.nextInt(3) + 1));
            case 4 -> N.arrayNode().add("set_1_3").add("+=").add(pick(1, 99));
            case 5 -> N.arrayNode().add("map_0_2").add(pick("insert", "delete")).add(map(1 + rnd.nextInt(2)));
            case 6 -> N.arrayNode().add("ref_1_2").add(pick("insert", "delete")).add(refs(1 + rnd.nextInt(2)));
            case 7 -> N.arrayNode().add("i_max").add(pick("+=", "*=")).add(pick(1L, 5L, Long.MAX_VALUE));
            default -> N.arrayNode().add("s_len").add("insert").add("x");
        };
    }

    private JsonNode value(String column) {
        return switch (column) {
            case "i_min" -> N.numberNode(pick(1L, 0L, -1L, 2L, Long.MAX_VALUE));
            case "i_max" -> N.numberNode(pick(10L, 11L, Long.MIN_VALUE, 0L));
            case "i_range" -> N.numberNode(pick(-5L, 5L, -6L, 6L, 0L));
            case "r_min" -> N.numberNode(pick(0.5, 0.49999, 1e300, 0.5000000000000001, 7.0));
            case "r_max" -> N.numberNode(pick(-0.25, -0.2, -1e-7, -3.0));
            case "r_range" -> N.numberNode(pick(-1e-5, -1.00001e-5, 1e20, 1.0000000001e20, 0.1, 123456.789));
            case "s_len" -> N.textNode(pick("ab", "abcd", "a", "abcde", "\u00e9\u00e9", "\u65e5\u672c\u8a9e\u00e9x", ""));
            case "s_enum" -> N.textNode(pick("x", "y z", "true", "w"));
            case "i_enum" -> rnd.nextInt(4) == 0 ? set() : N.numberNode(rnd.nextInt(5));
            case "r_enum" -> N.numberNode(pick(1.5, 2.25, 3.0));
            case "set_1_3" -> set(rnd.nextInt(5));
            case "map_0_2" -> map(rnd.nextInt(4));
            case "ref" -> refs(rnd.nextInt(3));
            case "ref_1_2" -> refs(rnd.nextInt(4));
            case "weak_1" -> rnd.nextInt(5) == 0 ? uuid(new UUID(rnd.nextLong(), rnd.nextLong())) : uuid(pick(leaves));
            default -> N.booleanNode(rnd.nextBoolean());
        };
    }

    private ArrayNode set(int n) {
        ArrayNode atoms = N.arrayNode();
        for (int i = 0; i < n; i++) {
            atoms.add(rnd.nextInt(10) == 0 ? 101 : rnd.nextInt(6));
        }
        return N.arrayNode().add("set").add(atoms);
    }

    private ArrayNode set() {
        return N.arrayNode().add("set").add(N.arrayNode());
    }

    private ArrayNode map(int n) {
        ArrayNode pairs = N.arrayNode();
        for (int i = 0; i < n; i++) {
            pairs.add(N.arrayNode().add(pick("a", "b", "cc", "dddd")).add(pick(0.0, 2.5, -1.0)));
        }
        return N.arrayNode().add("map").add(pairs);
    }

    private ArrayNode refs(int n) {
        ArrayNode atoms = N.arrayNode();
        for (int i = 0; i < n; i++) {
            atoms.add(rnd.nextInt(6) == 0 ? uuid(new UUID(rnd.nextLong(), rnd.nextLong())) : uuid(pick(leaves)));
        }
        return N.arrayNode().add("set").add(atoms);
    }

    private ObjectNode op(String op, String table) {
        return N.objectNode().put("op", op).put("table", table);
    }

    private UUID fresh(List<UUID> list) {
        UUID u = new UUID(rnd.nextLong(), rnd.nextLong());
        list.add(u);
        return u;
    }

    private static ArrayNode uuid(UUID u) {
        return N.arrayNode().add("uuid").add(u.toString());
    }

    private <T> T pick(List<T> list) {
        return list.get(rnd.nextInt(list.size()));
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[rnd.nextInt(values.length)];
    }
}
