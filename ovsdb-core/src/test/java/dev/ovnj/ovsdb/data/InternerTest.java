package dev.ovnj.ovsdb.data;

import static dev.ovnj.ovsdb.data.Json.object;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class InternerTest {

    private final TableSchema lb = SchemaFixtures.northbound().table("Load_Balancer");

    private static UUID uuid(int i) {
        return new UUID(0xaaL, i);
    }

    /** A row's decoded values, shared as a cache shares the values a row keeps as objects. */
    private Map<String, Object> decode(Interner.Table sharing, int i, String owner) {
        Row row = Row.fromJson(lb, uuid(i), object("{'name':'lb-" + i + "','protocol':'tcp',"
                + "'vips':['map',[['10.0." + (i / 250) + "." + (i % 250) + ":80','192.168.0.1:80']]],"
                + "'external_ids':['map',[['ovnj.owner','" + owner + "'],['ovnj.spec','svc-" + i + "']]]}"));
        Map<String, Object> values = new java.util.HashMap<>();
        for (String c : new String[] {"protocol", "vips", "external_ids"}) {
            Object v = row.get(c);
            values.put(c, sharing == null ? v : sharing.share(lb.columnIndex(c), v));
        }
        return values;
    }

    @Test
    void repeatedAtomsAreOneInstanceAndValuesStayEqual() {
        Interner.Table sharing = new Interner().table(lb);
        Map<String, Object> a = decode(sharing, 1, "team-a");
        Map<String, Object> b = decode(sharing, 2, "team-a");
        // An enum atom and the one-element set holding it.
        assertThat(b.get("protocol")).isSameAs(a.get("protocol"));
        Map<?, ?> idsA = (Map<?, ?>) a.get("external_ids");
        Map<?, ?> idsB = (Map<?, ?>) b.get("external_ids");
        assertThat(key(idsB, "ovnj.owner")).isSameAs(key(idsA, "ovnj.owner"));
        assertThat(idsB.get("ovnj.owner")).isSameAs(idsA.get("ovnj.owner"));
        // Sharing changes identity only, never a value.
        assertThat(a).isEqualTo(decode(null, 1, "team-a"));
        assertThat(a.get("protocol")).isEqualTo(Set.of("tcp"));
        assertThat(idsA).isEqualTo(Map.of("ovnj.owner", "team-a", "ovnj.spec", "svc-1"));
    }

    @Test
    void valuesThatNeverRepeatStopBeingInterned() {
        Interner interner = new Interner();
        Interner.Table sharing = interner.table(lb);
        for (int i = 0; i < 3 * Interner.PROBE; i++) {
            decode(sharing, i, "team-" + (i % 3));
        }
        // Distinct VIPs (vips keys) and spec names (ovnj.spec values) were probed, then left alone;
        // the two external_ids keys, three owners, the repeated backend and "tcp" stay.
        assertThat(interner.size()).isLessThanOrEqualTo(2 * Interner.PROBE + 7);
        Map<String, Object> late = decode(sharing, 10_000, "team-1");
        Map<String, Object> later = decode(sharing, 10_001, "team-1");
        Map<?, ?> ids = (Map<?, ?>) late.get("external_ids");
        assertThat(((Map<?, ?>) later.get("external_ids")).get("ovnj.owner")).isSameAs(ids.get("ovnj.owner"));
        assertThat(late.get("vips")).isEqualTo(Map.of("10.0.40.0:80", "192.168.0.1:80"));
    }

    @Test
    void aBigMapThatARowKeepsAsAnObjectIsShared() {
        Interner.Table sharing = new Interner().table(lb);
        StringBuilder pairs = new StringBuilder();
        for (int k = 0; k < 40; k++) {
            pairs.append(k == 0 ? "" : ",").append("['key-").append(k).append("','v']");
        }
        Row a = Row.fromJson(lb, uuid(1), object("{'external_ids':['map',[" + pairs + "]]}"), sharing);
        Row b = Row.fromJson(lb, uuid(2), object("{'name':'b'}"), sharing)
                .applyDiff(object("{'external_ids':['map',[" + pairs + "]]}"), sharing);
        Map<?, ?> idsA = (Map<?, ?>) a.get("external_ids");
        Map<?, ?> idsB = (Map<?, ?>) b.get("external_ids");
        assertThat(idsB).isEqualTo(idsA).hasSize(40);
        assertThat(key(idsB, "key-7")).isSameAs(key(idsA, "key-7"));
        assertThat(idsB.get("key-7")).isSameAs(idsA.get("key-7"));
    }

    private static Object key(Map<?, ?> map, String key) {
        return map.keySet().stream().filter(key::equals).findFirst().orElseThrow();
    }
}
