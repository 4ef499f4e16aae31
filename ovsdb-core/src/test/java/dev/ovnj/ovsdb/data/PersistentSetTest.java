package dev.ovnj.ovsdb.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PersistentSetTest {

    /** Keys whose hash codes collide in every bit, to reach the collision level. */
    record Colliding(int id) {
        @Override
        public int hashCode() {
            return 42;
        }
    }

    @Test
    void behavesLikeAHashSetUnderRandomOperations() {
        Random rnd = new Random(1);
        Set<Object> expected = new HashSet<>();
        PersistentSet<Object> actual = PersistentSet.empty();
        for (int i = 0; i < 20_000; i++) {
            Object e = switch (rnd.nextInt(3)) {
                case 0 -> new UUID(rnd.nextInt(500), rnd.nextInt(4));
                case 1 -> (long) rnd.nextInt(2000);
                default -> new Colliding(rnd.nextInt(20));
            };
            PersistentSet<Object> before = actual;
            int beforeSize = before.size();
            if (rnd.nextBoolean()) {
                expected.add(e);
                actual = actual.plus(e);
            } else {
                expected.remove(e);
                actual = actual.minus(e);
            }
            assertThat(before).hasSize(beforeSize);   // the old version is untouched
            if (i % 997 == 0) {
                assertThat(actual).isEqualTo(expected).hasSameHashCodeAs(expected);
                assertThat(new HashSet<>(actual)).isEqualTo(expected);
            }
        }
        assertThat(actual).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
        for (Object e : expected) {
            actual = actual.minus(e);
        }
        assertThat(actual).isEmpty();
        assertThat(actual.iterator().hasNext()).isFalse();
    }

    @Test
    void unchangedOperationsReturnTheSameSet() {
        PersistentSet<String> s = PersistentSet.<String>empty().plus("a");
        assertThat(s.plus("a")).isSameAs(s);
        assertThat(s.minus("b")).isSameAs(s);
        assertThat(PersistentSet.copyOf(s)).isSameAs(s);
        assertThatThrownBy(() -> s.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rowDiffsOfBigSetColumnsGiveTheSameResultAsSmallOnes() throws Exception {
        var schema = dev.ovnj.ovsdb.schema.DatabaseSchema.parse(java.nio.file.Path.of("src/test/resources/ovn-nb.ovsschema"));
        var table = schema.table("Logical_Router");
        Set<Object> lbs = new HashSet<>();
        StringBuilder json = new StringBuilder("{\"load_balancer\":[\"set\",[");
        for (int i = 0; i < 100; i++) {
            UUID u = new UUID(7, i);
            lbs.add(u);
            json.append(i == 0 ? "" : ",").append("[\"uuid\",\"").append(u).append("\"]");
        }
        json.append("]]}");
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        Row row = Row.fromJson(table, new UUID(1, 1), (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json.toString()));
        UUID added = new UUID(8, 1);
        UUID removed = new UUID(7, 5);
        Row next = row.applyDiff((com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(
                "{\"load_balancer\":[\"set\",[[\"uuid\",\"" + added + "\"],[\"uuid\",\"" + removed + "\"]]]}"));
        lbs.add(added);
        lbs.remove(removed);
        assertThat(next.get("load_balancer")).isInstanceOf(PersistentSet.class).isEqualTo(lbs);
        assertThat((Set<Object>) row.get("load_balancer")).hasSize(100).contains(removed);
    }

    @Test
    void differenceIsTheSymmetricDifferenceEachElementOnceWhetherTheSetsShareStructureOrNot() {
        Random rnd = new Random(11);
        for (int round = 0; round < 200; round++) {
            PersistentSet<Object> a = PersistentSet.empty();
            Set<Object> plainA = new HashSet<>();
            int n = rnd.nextInt(round < 100 ? 50 : 3000);
            for (int i = 0; i < n; i++) {
                Object e = rnd.nextInt(4) == 0 ? new Colliding(rnd.nextInt(30)) : UUID.randomUUID();
                a = a.plus(e);
                plainA.add(e);
            }
            // Derived by a few plus/minus (shares structure), or rebuilt from scratch (shares none).
            PersistentSet<Object> b = round % 3 == 0 ? PersistentSet.copyOf(new HashSet<>(plainA)) : a;
            Set<Object> plainB = new HashSet<>(plainA);
            int edits = rnd.nextInt(5);
            for (int i = 0; i < edits; i++) {
                if (rnd.nextBoolean() && !plainB.isEmpty()) {
                    Object gone = plainB.iterator().next();
                    b = b.minus(gone);
                    plainB.remove(gone);
                } else {
                    Object e = rnd.nextBoolean() ? new Colliding(rnd.nextInt(30)) : UUID.randomUUID();
                    b = b.plus(e);
                    plainB.add(e);
                }
            }
            Set<Object> expected = new HashSet<>(plainA);
            expected.addAll(plainB);
            Set<Object> both = new HashSet<>(plainA);
            both.retainAll(plainB);
            expected.removeAll(both);
            java.util.List<Object> seen = new java.util.ArrayList<>();
            PersistentSet.difference(a, b, seen::add);
            assertThat(seen).as("round %d", round).doesNotHaveDuplicates();
            assertThat(new HashSet<>(seen)).as("round %d", round).isEqualTo(expected);
            seen.clear();
            PersistentSet.difference(b, a, seen::add);
            assertThat(new HashSet<>(seen)).isEqualTo(expected);
        }
    }
}
