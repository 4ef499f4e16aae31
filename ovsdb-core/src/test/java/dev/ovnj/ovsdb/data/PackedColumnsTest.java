package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.object;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Round trips of every OVSDB type through the packed form a {@link Row} keeps its values in. */
class PackedColumnsTest {

    private static final UUID ROW = UUID.fromString("aaaaaaaa-0000-0000-0000-000000000001");
    private static final UUID REF = UUID.fromString("8c4d6e1a-1b2c-4d5e-9f00-ffffffffffff");

    private final TableSchema table = AllTypesTable.table();

    /** Builds a row from Java values, then reads every column back and compares with what went in. */
    private Row roundTrip(Map<String, Object> values) {
        Row row = Row.of(table, ROW, values);
        for (Map.Entry<String, Object> e : values.entrySet()) {
            assertThat(row.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
        }
        // The JSON written from the packed row decodes to an equal row.
        Row again = Row.fromJson(table, ROW, row.toJson());
        assertThat(again).isEqualTo(row);
        assertThat(again.hashCode()).isEqualTo(row.hashCode());
        return row;
    }

    @Test
    void scalarsOfEveryAtomicType() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (long i : new long[] {0, 1, -1, 63, 64, -65, 300, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE}) {
            values.put("i", i);
            values.put("r", i * 0.5);
            values.put("b", i % 2 == 0);
            values.put("s", "s" + i);
            values.put("u", new UUID(i, ~i));
            roundTrip(values);
        }
        values.put("r", Double.NaN);
        values.put("r", -0.0);
        roundTrip(values);
        values.put("r", Double.MAX_VALUE);
        roundTrip(values);
    }

    @Test
    void stringsOfEveryForm() {
        for (String s : new String[] {"", "a", "1", "10", "0123456789.:,/- ", "10.0.0.1:80", "10.0.0.1:8080,10.0.0.2:8080",
            "[fd00::1]:80", "tcp", "café", "naïve Ünïcödé", "日本語", "emoji 😀 pair", "x".repeat(300), "9".repeat(301),
            "1 2", "\u0000", "ÿ", "lone \ud800 surrogate", "\udc00"}) {
            Row row = roundTrip(Map.of("s", s, "opt", Set.of(s), "strs", Set.of(s, s + "!"), "smap", Map.of(s, s, "k", s)));
            assertThat((String) row.get("s")).isEqualTo(s).hasSameSizeAs(s);
        }
    }

    @Test
    void uuidsAndNamedUuids() {
        roundTrip(Map.of("u", REF, "ref", Set.of(REF, ROW)));
        roundTrip(Map.of("u", new NamedUuid("row1"), "ref", Set.of(new NamedUuid("a_b"), REF)));
        roundTrip(Map.of("imap", Map.of(1L, REF, -7L, new NamedUuid("lb"))));
    }

    @Test
    void setsAndMapsOfEverySize() {
        for (int n : new int[] {0, 1, 2, 3, 31, 32, 33, 200}) {
            Set<Long> ints = new HashSet<>();
            Set<Double> reals = new HashSet<>();
            Set<String> strs = new HashSet<>();
            Map<String, String> smap = new HashMap<>();
            Map<Long, Object> imap = new HashMap<>();
            Set<Object> refs = new HashSet<>();
            for (int k = 0; k < n; k++) {
                ints.add((long) k * 1_000_003 - 5);
                reals.add(k / 3.0);
                strs.add("v" + k);
                smap.put("key-" + k, k % 2 == 0 ? "10.0.0." + k + ":80" : "välue " + k);
                imap.put((long) k, new UUID(k, k));
                refs.add(new UUID(k, -k));
            }
            roundTrip(Map.of("ints", Set.copyOf(ints), "reals", Set.copyOf(reals), "strs", Set.copyOf(strs),
                    "smap", Map.copyOf(smap), "imap", Map.copyOf(imap), "ref", Set.copyOf(refs)));
        }
        roundTrip(Map.of("bools", Set.of(true, false)));
        roundTrip(Map.of("bools", Set.of(false)));
    }

    @Test
    void optionalValuesAndDefaults() {
        Row empty = roundTrip(Map.of("opt", Set.of(), "optInt", Set.of()));
        assertThat(empty.get("optInt")).isEqualTo(Set.of());
        assertThat(empty.get("one")).isEqualTo(Set.of(""));
        assertThat(empty.get("i")).isEqualTo(0L);
        assertThat(empty.get("s")).isEqualTo("");
        assertThat(empty.get("u")).isEqualTo(new UUID(0, 0));
        assertThat(empty.version()).isEmpty();
        Row some = roundTrip(Map.of("opt", Set.of("x"), "optInt", Set.of(-3L), "one", Set.of("a", "b")));
        assertThat(some).isNotEqualTo(empty);
        // A value set back to its default is not stored, and reads as the default again.
        assertThat(some.with(Map.of("opt", Set.of(), "optInt", Set.of(), "one", Set.of("")))).isEqualTo(empty);
    }

    @Test
    void columnsAfterSkippedOnesReadCorrectly() {
        // Every column set, so a read of the last one skips all the others' encodings.
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("i", -123456789L);
        all.put("r", 2.5);
        all.put("b", true);
        all.put("s", "10.0.0.1:80,10.0.0.2:80");
        all.put("u", new NamedUuid("named"));
        all.put("ref", Set.of(REF));
        all.put("opt", Set.of("ü"));
        all.put("optInt", Set.of(1L << 40));
        all.put("ints", Set.of(1L, 2L, 3L));
        all.put("reals", Set.of(0.25));
        all.put("bools", Set.of(true));
        all.put("strs", Set.of("a", "日本"));
        all.put("smap", Map.of("ovnj.owner", "me", "10.0.0.1:80", "10.1.0.1:8080,10.1.0.2:8080"));
        all.put("imap", Map.of(5L, REF));
        all.put("one", Set.of("x", "y"));
        roundTrip(all);
    }

    @Test
    void mapColumnsCompareInPlaceAsMapsDo() {
        Map<String, String> ids = Map.of("ovnj.owner", "team-a", "ovnj.spec", "ns/svc", "k", "10.0.0.1:80", "ü", "日本");
        Row row = Row.of(table, ROW, Map.of("smap", ids, "imap", Map.of(1L, REF)));
        Map<?, ?> read = (Map<?, ?>) row.get("smap");
        assertThat(read).isEqualTo(ids).hasSameHashCodeAs(ids).hasSize(4);
        assertThat(ids).isEqualTo(read);
        assertThat(read.equals(new HashMap<>(ids))).isTrue();
        for (Map.Entry<String, String> e : ids.entrySet()) {
            assertThat(read.get(e.getKey())).isEqualTo(e.getValue());
            assertThat(read.containsKey(e.getKey())).isTrue();
            Map<String, String> other = new HashMap<>(ids);
            other.put(e.getKey(), e.getValue() + "x");
            assertThat(read.equals(other)).as("changed value of " + e.getKey()).isFalse();
            other.put(e.getKey(), e.getValue().substring(0, e.getValue().length() - 1));
            assertThat(read.equals(other)).as("shorter value of " + e.getKey()).isFalse();
            other = new HashMap<>(ids);
            other.remove(e.getKey());
            other.put(e.getKey() + "x", e.getValue());
            assertThat(read.equals(other)).as("changed key " + e.getKey()).isFalse();
        }
        assertThat(read.entrySet()).isEqualTo(ids.entrySet()).hasSameHashCodeAs(ids.entrySet());
        assertThat(read.keySet()).isEqualTo(ids.keySet());
        assertThat(new HashSet<Object>(read.values())).isEqualTo(new HashSet<Object>(ids.values()));
        for (Map.Entry<?, ?> e : read.entrySet()) {
            assertThat(e).isEqualTo(Map.entry(e.getKey(), ids.get(e.getKey()))).hasSameHashCodeAs(Map.entry(e.getKey(), ids.get(e.getKey())));
            assertThat(e).isNotEqualTo(Map.entry(e.getKey(), "other"));
            assertThat(e.toString()).isEqualTo(e.getKey() + "=" + ids.get(e.getKey()));
        }
        assertThat(read.get("ovnj.owne")).isNull();
        assertThat(read.get(5L)).isNull();
        assertThat(read.equals(Map.of(1L, REF, 2L, REF, 3L, REF, 4L, REF))).isFalse();
        assertThat(read.equals(Set.of())).isFalse();
        Map<?, ?> refs = (Map<?, ?>) row.get("imap");
        assertThat(refs).isEqualTo(Map.of(1L, REF)).isNotEqualTo(Map.of(1L, ROW)).isNotEqualTo(Map.of(2L, REF));
        assertThat(refs.get(1L)).isEqualTo(REF);
        assertThat(refs.get(1)).isNull();
    }

    @Test
    void partialRowsCarryExactlyTheirColumns() {
        Row partial = Row.fromPartialJson(table, object("{'s':'','ints':['set',[]],'smap':['map',[['a','1.2']]]}"));
        assertThat(partial.presentColumns()).containsExactlyInAnyOrder("ints", "s", "smap");
        assertThat(partial.get("s")).isEqualTo("");
        assertThat(partial.get("ints")).isEqualTo(Set.of());
        assertThat(partial.get("smap")).isEqualTo(Map.of("a", "1.2"));
        assertThat(partial.has("i")).isFalse();
        assertThat(partial.has("_uuid")).isFalse();
        assertThat(partial.with(Map.of("i", 4L)).presentColumns()).containsExactlyInAnyOrder("i", "ints", "s", "smap");
    }

    @Test
    void bigSetsStayObjectsSoDiffsShareThem() {
        Set<UUID> many = new HashSet<>();
        for (int k = 0; k < 100; k++) {
            many.add(new UUID(7, k));
        }
        Row row = Row.of(table, ROW, Map.of("ref", Set.copyOf(many), "s", "x"));
        assertThat((Object) row.get("ref")).isSameAs(row.get("ref"));
        assertThat(row.get("s")).isEqualTo("x");
        Row changed = row.applyDiff(object("{'ref':['uuid','" + REF + "']}"));
        many.add(REF);
        assertThat(changed.get("ref")).isEqualTo(many);
        assertThat(changed.get("s")).isEqualTo("x");
    }

    @Test
    void packedRowIsSmallerThanItsStrings() {
        String backends = "10.0.49.249.1:8080,10.0.49.249.2:8080,10.0.49.249.3:8080,10.0.49.249.4:8080";
        Row row = Row.of(table, ROW, Map.of("s", "sync-lb-12345", "smap", Map.of("172.18.49.250:80", backends)));
        byte[] bytes = PackedColumns.bytes(dataOf(row));
        // Header and bitmap (3), the name (1 + 13), the map (2 + 1 + 1 + 8 + 2 + 37).
        assertThat(bytes.length).isLessThanOrEqualTo(3 + 14 + 2 + 1 + 9 + 2 + (backends.length() + 1) / 2);
    }

    private static Object dataOf(Row row) {
        try {
            java.lang.reflect.Field f = Row.class.getDeclaredField("data");
            f.setAccessible(true);
            return f.get(row);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
