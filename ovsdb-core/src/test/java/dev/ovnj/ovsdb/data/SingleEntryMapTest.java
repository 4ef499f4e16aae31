package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SingleEntryMapTest {

    private final Map<String, String> compact = new SingleEntryMap<>("10.0.0.1:80", "10.1.0.1:80");
    private final Map<String, String> jdk = Map.of("10.0.0.1:80", "10.1.0.1:80");

    @Test
    void equalsHashesAndPrintsAsMapOf() {
        assertThat(compact).isEqualTo(jdk).hasSameHashCodeAs(jdk).hasToString(jdk.toString());
        assertThat(jdk).isEqualTo(compact);
        assertThat(new HashMap<>(jdk)).isEqualTo(compact);
        assertThat(compact).isEqualTo(new TreeMap<>(jdk));
        assertThat(compact).isNotEqualTo(Map.of("10.0.0.1:80", "other")).isNotEqualTo(Map.of())
                .isNotEqualTo(Map.of("10.0.0.1:80", "10.1.0.1:80", "x", "y"));
        // A sorted map of keys of another type cannot hold the key: not equal, no exception.
        assertThat(compact.equals(new TreeMap<>(Map.of(5L, "10.1.0.1:80")))).isFalse();
        assertThat(compact.entrySet()).isEqualTo(jdk.entrySet());
        assertThat(compact.keySet()).isEqualTo(jdk.keySet());
        assertThat(List.copyOf(compact.values())).isEqualTo(List.copyOf(jdk.values()));
    }

    @Test
    void readsAsMapOfDoes() {
        assertThat(compact.get("10.0.0.1:80")).isEqualTo("10.1.0.1:80");
        assertThat(compact.get("nope")).isNull();
        assertThat(compact.getOrDefault("nope", "d")).isEqualTo("d");
        assertThat(compact.containsKey("10.0.0.1:80")).isTrue();
        assertThat(compact.containsValue("10.1.0.1:80")).isTrue();
        assertThat(compact).hasSize(1).isNotEmpty();
        Map<String, String> seen = new HashMap<>();
        compact.forEach(seen::put);
        assertThat(seen).isEqualTo(jdk);
        // Null queries fail as they do on Map.of.
        for (Map<String, String> m : List.of(jdk, compact)) {
            assertThatThrownBy(() -> m.get(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> m.containsKey(null)).isInstanceOf(NullPointerException.class);
        }
    }

    private static List<Consumer<Map<String, String>>> changes() {
        return List.of(
                m -> m.put("k", "v"), m -> m.remove("10.0.0.1:80"), m -> m.putAll(Map.of("k", "v")), Map::clear,
                m -> m.putIfAbsent("10.0.0.1:80", "v"), m -> m.replace("10.0.0.1:80", "v"),
                m -> m.replace("10.0.0.1:80", "10.1.0.1:80", "v"), m -> m.remove("10.0.0.1:80", "10.1.0.1:80"),
                m -> m.replaceAll((k, v) -> v), m -> m.computeIfAbsent("k", k -> "v"),
                m -> m.computeIfPresent("10.0.0.1:80", (k, v) -> v), m -> m.compute("k", (k, v) -> "v"),
                m -> m.merge("k", "v", (a, b) -> a));
    }

    @Test
    void refusesEveryChangeAsMapOfDoes() {
        for (Consumer<Map<String, String>> change : changes()) {
            assertThatThrownBy(() -> change.accept(jdk)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> change.accept(compact)).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(compact).isEqualTo(jdk);
    }

    @Test
    void oneEntryMapColumnsDecodeAndDiffIntoARowMapThatBehavesTheSame() {
        TableSchema lb = SchemaFixtures.northbound().table("Load_Balancer");
        Row row = Row.fromJson(lb, new UUID(1, 1), object("{'vips':['map',[['10.0.0.1:80','10.1.0.1:80']]]}"));
        assertThat((Object) row.get("vips")).isEqualTo(jdk).hasSameHashCodeAs(jdk);
        Row two = row.applyDiff(object("{'vips':['map',[['10.0.0.2:80','10.1.0.2:80']]]}"));
        assertThat((Object) two.get("vips")).isEqualTo(Map.of("10.0.0.1:80", "10.1.0.1:80", "10.0.0.2:80", "10.1.0.2:80"));
        Row back = two.applyDiff(object("{'vips':['map',[['10.0.0.2:80','10.1.0.2:80']]]}"));
        assertThat((Object) back.get("vips")).isEqualTo(jdk);
        @SuppressWarnings("unchecked")
        Map<String, String> read = (Map<String, String>) back.get("vips");
        for (Consumer<Map<String, String>> change : changes()) {
            assertThatThrownBy(() -> change.accept(read)).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThatThrownBy(() -> read.get(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> read.containsKey(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> read.containsValue(null)).isInstanceOf(NullPointerException.class);
        assertThat(read.get("10.0.0.1:80")).isEqualTo("10.1.0.1:80");
        assertThat(read.get("10.0.0.1:8")).isNull();
        assertThat(read.getOrDefault("nope", "d")).isEqualTo("d");
        assertThat(read.containsValue("10.1.0.1:80")).isTrue();
        assertThat(back).isEqualTo(row).hasSameHashCodeAs(row);
        assertThat(back.toJson()).isEqualTo(row.toJson());
        assertThat(Map.copyOf(compact)).isEqualTo(jdk);
    }
}
