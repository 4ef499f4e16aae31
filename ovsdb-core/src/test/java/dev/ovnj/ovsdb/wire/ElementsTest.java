package dev.ovnj.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Elements} must behave exactly as the {@code ArrayList} an {@code ArrayNode} normally holds. */
class ElementsTest {

    @Test
    void randomOperationsMatchAnArrayList() {
        Random random = new Random(3);
        for (int round = 0; round < 300; round++) {
            Elements elements = new Elements();
            List<JsonNode> expected = new ArrayList<>();
            for (int op = 0; op < 60; op++) {
                JsonNode value = IntNode.valueOf(op);
                int choice = random.nextInt(expected.isEmpty() ? 2 : 6);
                switch (choice) {
                    case 0, 1 -> assertThat(elements.add(value)).isEqualTo(expected.add(value));
                    case 2 -> {
                        int at = random.nextInt(expected.size() + 1);
                        elements.add(at, value);
                        expected.add(at, value);
                    }
                    case 3 -> {
                        int at = random.nextInt(expected.size());
                        assertThat(elements.remove(at)).isEqualTo(expected.remove(at));
                    }
                    case 4 -> {
                        int at = random.nextInt(expected.size());
                        assertThat(elements.set(at, value)).isEqualTo(expected.set(at, value));
                    }
                    default -> {
                        int at = random.nextInt(expected.size());
                        assertThat(elements.get(at)).isEqualTo(expected.get(at));
                    }
                }
                assertThat(elements).isEqualTo(expected);
                assertThat(elements.hashCode()).isEqualTo(expected.hashCode());
            }
            assertThat(new ArrayList<>(elements)).isEqualTo(expected);
            elements.clear();
            assertThat(elements).isEmpty();
        }
    }

    @Test
    void indexesOutsideTheListFail() {
        Elements elements = new Elements();
        elements.add(IntNode.valueOf(1));
        assertThatThrownBy(() -> elements.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> elements.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> elements.add(3, IntNode.valueOf(2))).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
