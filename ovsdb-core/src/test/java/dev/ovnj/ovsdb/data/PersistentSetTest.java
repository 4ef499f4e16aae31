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
    void diffReportsExactlyTheElementsThatDiffer() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            PersistentSet<Object> before = PersistentSet.empty();
            Set<Object> plain = new HashSet<>();
            int n = random.nextInt(round < 100 ? 40 : 3000);
            for (int i = 0; i < n; i++) {
                // Small integers collide on low hash bits; Colliding forces full-hash collisions.
                Object e = random.nextInt(4) == 0 ? new Colliding(random.nextInt(50)) : (Object) random.nextInt(5000);
                before = before.plus(e);
                plain.add(e);
            }
            PersistentSet<Object> after = before;
            for (int i = random.nextInt(20); i > 0; i--) {
                Object e = random.nextBoolean() ? (Object) random.nextInt(5000) : new Colliding(random.nextInt(50));
                after = random.nextBoolean() ? after.plus(e) : after.minus(e);
            }
            Set<Object> removed = new HashSet<>();
            Set<Object> added = new HashSet<>();
            PersistentSet.diff(before, after, removed::add, added::add);
            Set<Object> wantRemoved = new HashSet<>(before);
            wantRemoved.removeAll(after);
            Set<Object> wantAdded = new HashSet<>(after);
            wantAdded.removeAll(before);
            assertThat(removed).as("round %d removed", round).isEqualTo(wantRemoved);
            assertThat(added).as("round %d added", round).isEqualTo(wantAdded);
            // Two sets built independently share nothing, and a plain set takes the element path.
            Set<Object> r2 = new HashSet<>();
            Set<Object> a2 = new HashSet<>();
            PersistentSet.diff(PersistentSet.copyOf(new java.util.ArrayList<>(plain)), after, r2::add, a2::add);
            assertThat(r2).isEqualTo(wantRemoved);
            assertThat(a2).isEqualTo(wantAdded);
            Set<Object> r3 = new HashSet<>();
            Set<Object> a3 = new HashSet<>();
            PersistentSet.diff(plain, after, r3::add, a3::add);
            assertThat(r3).isEqualTo(wantRemoved);
            assertThat(a3).isEqualTo(wantAdded);
        }
    }

    @Test
    void toggledAnswersAsOneToggleAtATime() {
        Random random = new Random(23);
        for (int round = 0; round < 300; round++) {
            int n = random.nextInt(round < 150 ? 60 : 6000);
            PersistentSet<Object> before = PersistentSet.empty();
            for (int i = 0; i < n; i++) {
                before = before.plus(element(random));
            }
            Set<Object> beforeCopy = new HashSet<>(before);
            Set<Object> delta = new HashSet<>();
            switch (round % 4) {
                case 0 -> delta.addAll(before);                        // every element: the set empties
                case 1 -> delta.add(element(random));                  // one element
                default -> {
                    for (int i = random.nextInt(3000); i > 0; i--) {
                        delta.add(element(random));                    // present and absent alike
                    }
                }
            }
            Set<Object> expected = new HashSet<>(before);
            for (Object e : delta) {
                if (!expected.remove(e)) {
                    expected.add(e);
                }
            }
            PersistentSet<Object> after = before.toggled(delta);
            assertThat(after).as("round %d", round).hasSize(expected.size()).isEqualTo(expected).hasSameHashCodeAs(expected);
            assertThat(new HashSet<>(after)).hasSize(after.size());   // the iterator yields each element once
            assertThat(before).isEqualTo(beforeCopy).hasSize(beforeCopy.size());   // the old version is untouched
            Set<Integer> expectedHashes = new HashSet<>();
            expected.forEach(x -> expectedHashes.add(x.hashCode()));
            for (Object e : delta) {
                assertThat(after.contains(e)).isNotEqualTo(before.contains(e));
                assertThat(after.containsHashCode(e.hashCode())).isEqualTo(expectedHashes.contains(e.hashCode()));
            }
            // diff sees exactly the toggled elements; the structure stays valid for further edits.
            Set<Object> changed = new HashSet<>();
            PersistentSet.diff(before, after, changed::add, changed::add);
            assertThat(changed).isEqualTo(delta);
            assertThat(after.toggled(delta)).isEqualTo(beforeCopy).hasSize(beforeCopy.size());
            Object extra = element(random);
            assertThat(after.contains(extra) ? after.minus(extra).plus(extra) : after.plus(extra).minus(extra)).isEqualTo(expected);
        }
    }

    @Test
    void toggledWithNothingIsTheSameSetAndCopyOfASetBuildsItWhole() {
        PersistentSet<Object> s = PersistentSet.copyOf(Set.of("a", "b", new Colliding(1), new Colliding(2)));
        assertThat(s).hasSize(4).containsExactlyInAnyOrder("a", "b", new Colliding(1), new Colliding(2));
        assertThat(s.toggled(Set.of())).isSameAs(s);
        PersistentSet<Object> none = s.toggled(Set.of("a", "b", new Colliding(1), new Colliding(2)));
        assertThat(none).isEmpty();
        assertThat(none.iterator().hasNext()).isFalse();
        assertThatThrownBy(() -> s.toggled(new HashSet<>(java.util.Arrays.asList("c", null))))
                .isInstanceOf(NullPointerException.class);
    }

    private static Object element(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> new Colliding(random.nextInt(40));
            case 1 -> random.nextInt(9000);                            // low hash bits collide often
            default -> new UUID(random.nextInt(3), random.nextInt(9000));
        };
    }

    @Test
    void containsHashCodeAnswersLikeAScan() {
        Random random = new Random(5);
        PersistentSet<Object> set = PersistentSet.empty();
        for (int i = 0; i < 2000; i++) {
            Object e = random.nextInt(4) == 0 ? new Colliding(random.nextInt(50)) : (Object) random.nextInt(5000);
            set = random.nextInt(3) == 0 ? set.minus(e) : set.plus(e);
        }
        for (int h = -10; h < 5100; h++) {
            int hash = h;
            boolean scanned = set.stream().anyMatch(e -> e.hashCode() == hash);
            assertThat(set.containsHashCode(hash)).as("hash %d", hash).isEqualTo(scanned);
        }
    }
}
