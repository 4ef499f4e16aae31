package dev.ovnj.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class HashedUuidsTest {

    @Test
    void oneRowIsItsOwnEntryAndSeveralAreASetInJoinOrder() {
        HashedUuids map = new HashedUuids();
        UUID a = new UUID(1, 1);
        UUID b = new UUID(1, 2);
        UUID c = new UUID(1, 3);
        map.add(7, a);
        map.add(7, a);
        assertThat(map.get(7)).containsExactly(a);
        map.add(7, c);
        map.add(7, b);
        assertThat(map.get(7)).containsExactly(a, c, b);
        map.remove(7, c);
        map.remove(7, a);
        assertThat(map.get(7)).containsExactly(b);
        map.remove(7, a);
        map.remove(7, b);
        assertThat(map.get(7)).isEmpty();
        assertThat(map.get(8)).isEmpty();
    }

    @Test
    void growsShrinksAndReusesRemovedSlots() {
        HashedUuids map = new HashedUuids();
        // Hashes that all land in few slots of a small table, and many distinct ones.
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10_000; i++) {
                map.add(i * 16, new UUID(round, i));
            }
            for (int i = 0; i < 10_000; i++) {
                assertThat(map.get(i * 16)).containsExactly(new UUID(round, i));
            }
            for (int i = 0; i < 10_000; i++) {
                map.remove(i * 16, new UUID(round, i));
            }
            assertThat(map.get(0)).isEmpty();
            assertThat(map.get(16 * 9_999)).isEmpty();
        }
        map.add(HashedUuids.hash("x"), new UUID(9, 9));
        map.clear();
        assertThat(map.get(HashedUuids.hash("x"))).isEmpty();
    }
}
