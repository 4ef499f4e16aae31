package dev.ovnj.ovsdb.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Structure-aware mutation of real ovsdb-server messages with a fixed seed: values of the wrong
 * type, missing members, unknown tables and columns, bad UUIDs, truncation and byte flips. Jazzer
 * in regression mode only replays its corpus, so this test is what exercises the decoders with
 * many broken inputs on every build. {@code -Dovnj.mutations=N} changes the number of rounds.
 */
class MutatedServerMessagesTest {
    private static final int ROUNDS = Integer.getInteger("ovnj.mutations", 3000);
    private static final String[] MESSAGES = {"monitor-cond-since-reply", "update3-insert", "update3-modify", "update3-delete", "update3-tx"};
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Test
    void mutatedMessagesAreRejectedOnlyWithDocumentedExceptions() {
        Random rnd = new Random(20261121);
        List<JsonNode> seeds = new ArrayList<>();
        for (String m : MESSAGES) {
            seeds.add(InboundHarness.json(InboundHarness.resource("/dev/ovnj/ovsdb/fuzz/InboundFuzzTestInputs/monitorMessage/" + m + ".json")));
        }
        long start = System.nanoTime();
        for (int i = 0; i < ROUNDS; i++) {
            JsonNode doc = seeds.get(rnd.nextInt(seeds.size())).deepCopy();
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                doc = mutate(doc, rnd);
            }
            InboundHarness.message(doc);
            byte[] bytes = doc.toString().getBytes(StandardCharsets.UTF_8);
            InboundHarness.frames(flipBytes(bytes, rnd));
        }
        assertThat((System.nanoTime() - start) / 1_000_000_000).as("no input made decoding slow").isLessThan(60);
    }

    /** Replaces, removes or renames one randomly chosen node of the tree. */
    private static JsonNode mutate(JsonNode root, Random rnd) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(rnd.nextInt(containers.size()));
        if (target instanceof ObjectNode o && o.size() > 0) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            String name = names.get(rnd.nextInt(names.size()));
            switch (rnd.nextInt(4)) {
                case 0 -> o.remove(name);
                case 1 -> o.set(rename(rnd), o.remove(name));
                default -> o.set(name, randomValue(rnd));
            }
        } else if (target instanceof ArrayNode a && a.size() > 0) {
            int idx = rnd.nextInt(a.size());
            switch (rnd.nextInt(3)) {
                case 0 -> a.remove(idx);
                default -> a.set(idx, randomValue(rnd));
            }
        }
        return root;
    }

    private static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainerNode()) {
            out.add(n);
            for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
                collect(it.next(), out);
            }
        }
    }

    private static String rename(Random rnd) {
        String[] names = {"initial", "insert", "modify", "delete", "old", "new", "_uuid", "_version", "vips", "no_such_column",
                "No_Such_Table", "not-a-uuid", "7326369f-7faf-4beb-a3c4-8e98fd1c890e", "00000000-0000-0000-0000-000000000000", ""};
        return names[rnd.nextInt(names.length)];
    }

    private static JsonNode randomValue(Random rnd) {
        return switch (rnd.nextInt(16)) {
            case 0 -> F.nullNode();
            case 1 -> F.numberNode(rnd.nextLong());
            case 2 -> F.numberNode(rnd.nextDouble() * 1e300);
            case 3 -> F.textNode("");
            case 4 -> F.textNode("x\u0000\uD83D\uDE00");
            case 5 -> F.booleanNode(rnd.nextBoolean());
            case 6 -> F.arrayNode();
            case 7 -> F.objectNode();
            case 8 -> F.arrayNode().add("set").add(F.arrayNode().add(1).add("a"));
            case 9 -> F.arrayNode().add("map").add(F.arrayNode().add(F.arrayNode().add("k")));
            case 10 -> F.arrayNode().add("uuid").add("not-a-uuid");
            case 11 -> F.arrayNode().add("named-uuid").add("row1");
            case 12 -> F.arrayNode().add("map").add(F.arrayNode().add(F.arrayNode().add(1).add(F.arrayNode())));
            case 13 -> F.objectNode().set("modify", F.objectNode().put("name", 7));
            case 14 -> F.objectNode().set("7326369f-7faf-4beb-a3c4-8e98fd1c890e", F.objectNode().set("delete", F.nullNode()));
            default -> F.arrayNode().add("set").add(F.arrayNode().add(F.arrayNode().add("uuid").add("7326369f-7faf-4beb-a3c4-8e98fd1c890e")));
        };
    }

    /** Byte damage on the wire: truncation, a flipped byte, or a duplicated slice. */
    private static byte[] flipBytes(byte[] b, Random rnd) {
        byte[] out = b.clone();
        switch (rnd.nextInt(4)) {
            case 0 -> out = java.util.Arrays.copyOf(out, rnd.nextInt(out.length + 1));
            case 1 -> out[rnd.nextInt(out.length)] ^= (byte) (1 << rnd.nextInt(8));
            case 2 -> {
                int from = rnd.nextInt(out.length);
                byte[] dup = new byte[out.length * 2 - from];
                System.arraycopy(out, 0, dup, 0, out.length);
                System.arraycopy(out, from, dup, out.length, out.length - from);
                out = dup;
            }
            default -> { }
        }
        return out;
    }
}
