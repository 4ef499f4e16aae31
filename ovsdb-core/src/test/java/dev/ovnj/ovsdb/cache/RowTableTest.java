package dev.ovnj.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RowTableTest {
    static TableSchema lb;

    @BeforeAll
    static void schema() throws Exception {
        lb = DatabaseSchema.parse(Path.of("src/test/resources/ovn-nb.ovsschema")).table("Load_Balancer");
    }

    static Row row(long hi, long lo, String name) {
        return Row.of(lb, new UUID(hi, lo), Map.of("name", name));
    }

    @Test
    void putsReplacesAndRemovesByTheRowsOwnUuid() {
        RowTable t = new RowTable();
        Row a = row(1, 1, "a");
        assertThat(t.put(a)).isNull();
        Row a2 = row(1, 1, "a2");
        assertThat(t.put(a2)).isSameAs(a);
        assertThat(t.get(new UUID(1, 1))).isSameAs(a2);
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.remove(new UUID(1, 2))).isNull();
        assertThat(t.remove(new UUID(1, 1))).isSameAs(a2);
        assertThat(t.get(new UUID(1, 1))).isNull();
        assertThat(t.size()).isZero();
        assertThat(t.values()).isEmpty();
    }

    @Test
    void growsShrinksAndReachesRowsPastRemovedOnes() {
        RowTable t = new RowTable();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5_000; i++) {
                t.put(row(round, i, "r" + i));
            }
            // Every other row leaves: later rows of a probe sequence stay reachable past the markers.
            for (int i = 0; i < 5_000; i += 2) {
                assertThat(t.remove(new UUID(round, i))).isNotNull();
            }
            for (int i = 0; i < 5_000; i++) {
                Row r = t.get(new UUID(round, i));
                if (i % 2 == 0) {
                    assertThat(r).isNull();
                } else {
                    assertThat(r.get("name")).isEqualTo("r" + i);
                }
            }
            assertThat(t.size()).isEqualTo(2_500);
            assertThat(t.values()).hasSize(2_500);
            for (int i = 1; i < 5_000; i += 2) {
                t.remove(new UUID(round, i));
            }
            assertThat(t.size()).isZero();
        }
    }

    @Test
    void aReaderAlongsideTheWriterAlwaysFindsARowThatStays() throws Exception {
        RowTable t = new RowTable();
        Row stays = row(7, 7, "stays");
        t.put(stays);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                Row r = t.get(new UUID(7, 7));
                if (r == null || !"stays".equals(r.get("name"))) {
                    failure.set("lost the row: " + r);
                    return;
                }
            }
        });
        reader.start();
        // The writer grows, churns and shrinks the table around the row.
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 2_000; i++) {
                t.put(row(round + 100, i, "x"));
            }
            for (int i = 0; i < 2_000; i++) {
                t.remove(new UUID(round + 100, i));
            }
        }
        done.set(true);
        reader.join(10_000);
        assertThat(failure.get()).isNull();
        assertThat(t.size()).isEqualTo(1);
    }
}
