package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.object;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link Row#columnEquals}, {@link Row#mapEntryEquals} and {@link Row#columnContains} compare
 * against the packed bytes; each must give exactly the answer of the same test written on the
 * decoded value, for every string form (Latin-1, UTF-16, nibble-packed), inline and object
 * (more than 32 elements) sets and maps, UUIDs and named UUIDs, and near misses of each.
 */
class RowInPlaceTest {

    private static final UUID ROW = UUID.fromString("aaaaaaaa-0000-0000-0000-000000000001");
    private static final UUID REF = UUID.fromString("8c4d6e1a-1b2c-4d5e-9f00-ffffffffffff");

    private final TableSchema table = AllTypesTable.table();

    /** Strings of every packed form, and their near misses (one character off, one longer or shorter). */
    private static final List<String> STRINGS = List.of("", "a", "1", "10", "01", "10.0.0.1:80", "10.0.0.1:8", "10.0.0.1:800",
            "10.0.0.1:81", "10.0.0.1:80,10.0.0.2:80", "10.0.0.1:80,10.0.0.2:81", "[fd00::1]:80", "[fd00::1]:81", "tcp", "tcq",
            "café", "cafe", "cafë", "日本語", "日本誤", "日本", "ÿ", "y", "emoji 😀", "emoji 😁", "lone \ud800", "lone \ud801",
            "9".repeat(301), "9".repeat(300) + "8", "x".repeat(200), "ovnj.owner", "ovnj.owne", "team-a", "team-b");

    private final List<Object> probes = probes();

    private static List<Object> probes() {
        List<Object> out = new ArrayList<>(STRINGS);
        out.addAll(List.of(REF, ROW, new NamedUuid("lb"), new NamedUuid("lc"), 0L, 1L, -1L, 1, 300L, 2.5, true, false));
        return out;
    }

    private Row row(Map<String, Object> values) {
        return Row.of(table, ROW, values);
    }

    /** Asserts the three in-place tests against the decoded ones, for every column and probe. */
    private int checkAgainstDecoded(Row row, List<Object> values) {
        int matches = 0;
        for (int i = 0; i < table.columns().size(); i++) {
            String column = table.columns().get(i).name();
            if (!row.has(column)) {
                // _version, never sent here: every test answers false.
                assertThat(row.columnEquals(i, values.get(0))).isFalse();
                continue;
            }
            Object decoded = row.get(i);
            for (Object v : values) {
                boolean equal = v.equals(decoded);
                assertThat(row.columnEquals(i, v)).as(column + " equals " + v).isEqualTo(equal);
                boolean contains = decoded instanceof Set<?> s ? s.contains(v) : v.equals(decoded);
                assertThat(row.columnContains(i, v)).as(column + " contains " + v).isEqualTo(contains);
                if (contains) {
                    matches++;
                }
                if (decoded instanceof Map<?, ?> m) {
                    for (Object k : values) {
                        boolean entry = v.equals(m.get(k));
                        assertThat(row.mapEntryEquals(i, k, v)).as(column + " maps " + k + " to " + v).isEqualTo(entry);
                        if (entry) {
                            matches++;
                        }
                    }
                } else {
                    assertThat(row.mapEntryEquals(i, v, v)).as(column + " is no map").isFalse();
                }
            }
        }
        return matches;
    }

    @Test
    void scalarsMatchTheDecodedValueForEveryStringForm() {
        for (String s : STRINGS) {
            Row row = row(Map.of("s", s, "opt", Set.of(s), "one", Set.of(s, s + "!"), "u", REF, "i", 300L));
            int matches = checkAgainstDecoded(row, probes);
            // Each string matches itself at least in s, opt and one: the test is not vacuous.
            assertThat(matches).as(s).isGreaterThanOrEqualTo(3);
            assertThat(row.columnEquals(table.columnIndex("s"), s)).isTrue();
            assertThat(row.columnContains(table.columnIndex("one"), s + "!")).isTrue();
            assertThat(row.columnEquals(table.columnIndex("u"), REF)).isTrue();
            assertThat(row.columnEquals(table.columnIndex("u"), new NamedUuid("lb"))).isFalse();
        }
    }

    @Test
    void namedUuidsAndDefaults() {
        Row named = row(Map.of("u", new NamedUuid("lb"), "ref", Set.of(new NamedUuid("lb"), REF), "imap", Map.of(1L, new NamedUuid("lb"))));
        assertThat(checkAgainstDecoded(named, probes)).isPositive();
        assertThat(named.columnEquals(table.columnIndex("u"), new NamedUuid("lb"))).isTrue();
        assertThat(named.columnEquals(table.columnIndex("u"), new NamedUuid("lc"))).isFalse();
        assertThat(named.mapEntryEquals(table.columnIndex("imap"), 1L, new NamedUuid("lb"))).isTrue();
        assertThat(named.mapEntryEquals(table.columnIndex("imap"), 1, new NamedUuid("lb"))).as("an Integer key is not a Long").isFalse();
        // Every column at its default: nothing stored, each answer from the default value.
        Row empty = row(Map.of());
        checkAgainstDecoded(empty, probes);
        assertThat(empty.columnEquals(table.columnIndex("s"), "")).isTrue();
        assertThat(empty.columnEquals(table.columnIndex("smap"), Map.of())).isTrue();
        assertThat(empty.columnContains(table.columnIndex("one"), "")).isTrue();
        assertThat(empty.columnEquals(table.columnIndex("_uuid"), ROW)).isTrue();
        assertThat(empty.columnContains(table.columnIndex("_uuid"), ROW)).isTrue();
    }

    @Test
    void inlineAndObjectMapsAndSetsMatchTheDecodedOnes() {
        for (int n : new int[] {1, 2, 31, 32, 33, 100}) {
            Map<String, String> smap = new LinkedHashMap<>();
            Set<String> strs = new LinkedHashSet<>();
            Set<Object> refs = new LinkedHashSet<>();
            for (int k = 0; k < n; k++) {
                String key = k % 3 == 0 ? "10.0.0." + k + ":80" : k % 3 == 1 ? "clé " + k : "日本 " + k;
                smap.put(key, STRINGS.get(k % STRINGS.size()));
                strs.add(key);
                refs.add(new UUID(k, -k));
            }
            refs.add(REF);
            Row row = row(Map.of("smap", smap, "strs", strs, "ref", refs));
            List<Object> values = new ArrayList<>(probes);
            values.addAll(smap.keySet());
            values.add(Map.copyOf(smap));
            values.add(Set.copyOf(strs));
            values.add(Set.copyOf(refs));
            values.add(new HashMap<>(smap));
            Map<String, String> changed = new HashMap<>(smap);
            changed.put(smap.keySet().iterator().next(), "other");
            values.add(changed);
            Set<String> fewer = new LinkedHashSet<>(strs);
            fewer.remove(strs.iterator().next());
            fewer.add("10.0.0.0:81");
            values.add(fewer);
            assertThat(checkAgainstDecoded(row, values)).as("n=" + n).isGreaterThanOrEqualTo(2 * n);
            assertThat(row.columnEquals(table.columnIndex("smap"), smap)).isTrue();
            assertThat(row.columnEquals(table.columnIndex("smap"), changed)).isFalse();
            assertThat(row.columnEquals(table.columnIndex("strs"), fewer)).isFalse();
            assertThat(row.columnContains(table.columnIndex("ref"), REF)).isTrue();
            assertThat(row.columnContains(table.columnIndex("ref"), ROW)).isFalse();
        }
    }

    @Test
    void partialRowsAnswerFalseForColumnsTheyLack() {
        Row partial = Row.fromPartialJson(table, object("{'s':'日本','smap':['map',[['a','1.2']]]}"));
        assertThat(partial.columnEquals(table.columnIndex("s"), "日本")).isTrue();
        assertThat(partial.mapEntryEquals(table.columnIndex("smap"), "a", "1.2")).isTrue();
        assertThat(partial.mapEntryEquals(table.columnIndex("smap"), "a", "1.3")).isFalse();
        assertThat(partial.columnEquals(table.columnIndex("i"), 0L)).isFalse();
        assertThat(partial.columnContains(table.columnIndex("strs"), "a")).isFalse();
        assertThat(partial.mapEntryEquals(table.columnIndex("imap"), 1L, REF)).isFalse();
    }

    @Test
    void packedAlikeMeansEqualAndFindsUnchangedColumns() {
        Set<Object> big = new LinkedHashSet<>();
        for (int k = 0; k < 40; k++) {
            big.add(new UUID(k, k));
        }
        List<Row> rows = new ArrayList<>();
        for (String s : List.of("10.0.0.1:80", "10.0.0.1:8", "café", "cafe", "日本", "")) {
            rows.add(row(Map.of("s", s, "smap", Map.of("ovnj.owner", s, "k", "v"), "ref", big, "i", 7L)));
            rows.add(row(Map.of("s", s, "smap", Map.of("ovnj.owner", s), "strs", Set.of(s, "x"))));
        }
        rows.add(row(Map.of()));
        int alike = 0;
        for (Row a : rows) {
            for (Row b : rows) {
                for (int i = 0; i < table.columns().size(); i++) {
                    if (a.packedAlike(b, i)) {
                        alike++;
                        if (a.has(table.columns().get(i).name())) {
                            assertThat((Object) a.get(i)).as(table.columns().get(i).name()).isEqualTo(b.get(i));
                        }
                    }
                }
            }
        }
        assertThat(alike).isPositive();
        Row first = rows.get(0);
        // A change to other columns keeps the packed form of this one, big kept sets included.
        Row changed = first.with(Map.of("i", 8L, "s", "other"));
        assertThat(first.packedAlike(changed, table.columnIndex("smap"))).isTrue();
        assertThat(first.packedAlike(changed, table.columnIndex("ref"))).isTrue();
        assertThat(first.packedAlike(changed, table.columnIndex("strs"))).isTrue();
        assertThat(first.packedAlike(changed, table.columnIndex("s"))).isFalse();
        assertThat(first.packedAlike(changed, table.columnIndex("i"))).isFalse();
        assertThat(first.packedAlike(rows.get(2), table.columnIndex("smap"))).as("10.0.0.1:80 vs 10.0.0.1:8").isFalse();
        assertThat(rows.get(4).packedAlike(rows.get(6), table.columnIndex("s"))).as("café vs cafe").isFalse();
    }
}
