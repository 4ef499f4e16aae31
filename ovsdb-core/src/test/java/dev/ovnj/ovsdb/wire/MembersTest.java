package dev.ovnj.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Members} must behave exactly as the {@code LinkedHashMap} an {@code ObjectNode} normally holds. */
class MembersTest {

    @Test
    void randomOperationsMatchALinkedHashMap() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            Members members = new Members(random.nextInt(5));
            Map<String, JsonNode> expected = new LinkedHashMap<>();
            int keys = 1 + random.nextInt(round < 100 ? 12 : 200);
            for (int op = 0; op < 400; op++) {
                String key = "k" + random.nextInt(keys);
                JsonNode value = IntNode.valueOf(op);
                switch (random.nextInt(6)) {
                    case 0, 1, 2 -> assertThat(members.put(key, value)).isEqualTo(expected.put(key, value));
                    case 3 -> assertThat(members.remove(key)).isEqualTo(expected.remove(key));
                    case 4 -> {
                        Iterator<Map.Entry<String, JsonNode>> it = members.entrySet().iterator();
                        Iterator<Map.Entry<String, JsonNode>> ex = expected.entrySet().iterator();
                        while (it.hasNext()) {
                            Map.Entry<String, JsonNode> e = it.next();
                            assertThat(e).isEqualTo(ex.next());
                            if (e.getKey().equals(key)) {
                                it.remove();
                                ex.remove();
                            }
                        }
                    }
                    default -> {
                        assertThat(members.get(key)).isEqualTo(expected.get(key));
                        assertThat(members.containsKey(key)).isEqualTo(expected.containsKey(key));
                    }
                }
                assertThat(members.size()).isEqualTo(expected.size());
            }
            assertThat(new ArrayList<>(members.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
            assertThat(members).isEqualTo(expected);
            assertThat(expected).isEqualTo(members);
            assertThat(members.hashCode()).isEqualTo(expected.hashCode());
            members.clear();
            assertThat(members).isEmpty();
            assertThat(members.get("k0")).isNull();
        }
    }

    @Test
    void aLargeObjectFindsEveryMemberAndKeepsArrivalOrder() {
        Members members = new Members(4);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String key = "aaaaaaaa-0000-0000-0000-" + String.format("%012d", i);
            keys.add(key);
            members.put(key, IntNode.valueOf(i));
        }
        // A repeated key keeps its first position and takes the new value.
        members.put(keys.get(5), IntNode.valueOf(-1));
        assertThat(new ArrayList<>(members.keySet())).isEqualTo(keys);
        for (int i = 0; i < keys.size(); i++) {
            assertThat(members.get(keys.get(i)).intValue()).isEqualTo(i == 5 ? -1 : i);
        }
        assertThat(members.get("missing")).isNull();
        assertThat(members.get(5)).isNull();
        members.remove(keys.get(0));
        assertThat(members.get(keys.get(9_999)).intValue()).isEqualTo(9_999);
        assertThat(members).hasSize(9_999);
    }

    @Test
    void changingTheObjectWhileIteratingFails() {
        Members members = new Members(2);
        members.put("a", IntNode.valueOf(1));
        members.put("b", IntNode.valueOf(2));
        Iterator<Map.Entry<String, JsonNode>> it = members.entrySet().iterator();
        it.next();
        members.put("c", IntNode.valueOf(3));
        assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
    }
}
