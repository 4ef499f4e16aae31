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

    private Row decode(Interner.Table sharing, int i, String owner) {
        return Row.fromJson(lb, uuid(i), object("{'name':'lb-" + i + "','protocol':'tcp',"
                + "'vips':['map',[['10.0." + (i / 250) + "." + (i % 250) + ":80','192.168.0.1:80']]],"
                + "'external_ids':['map',[['ovnj.owner','" + owner + "'],['ovnj.spec','svc-" + i + "']]]}"), sharing);
    }

    @Test
    void repeatedAtomsAreOneInstanceAndRowsStayEqual() {
        Interner.Table sharing = new Interner().table(lb);
        Row a = decode(sharing, 1, "team-a");
        Row b = decode(sharing, 2, "team-a");
        // An enum atom and the one-element set holding it.
        assertThat((Object) b.get("protocol")).isSameAs(a.get("protocol"));
        Map<?, ?> idsA = (Map<?, ?>) a.get("external_ids");
        Map<?, ?> idsB = (Map<?, ?>) b.get("external_ids");
        assertThat(key(idsB, "ovnj.owner")).isSameAs(key(idsA, "ovnj.owner"));
        assertThat(idsB.get("ovnj.owner")).isSameAs(idsA.get("ovnj.owner"));
        // Sharing changes identity only, never a value.
        assertThat(a).isEqualTo(decode(null, 1, "team-a"));
        assertThat(a.hashCode()).isEqualTo(decode(null, 1, "team-a").hashCode());
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
        Row late = decode(sharing, 10_000, "team-1");
        Row later = decode(sharing, 10_001, "team-1");
        Map<?, ?> ids = (Map<?, ?>) late.get("external_ids");
        assertThat(((Map<?, ?>) later.get("external_ids")).get("ovnj.owner")).isSameAs(ids.get("ovnj.owner"));
        assertThat(late.get("vips")).isEqualTo(Map.of("10.0.40.0:80", "192.168.0.1:80"));
    }

    @Test
    void aModifyedColumnIsSharedToo() {
        Interner.Table sharing = new Interner().table(lb);
        Row a = decode(sharing, 1, "team-a");
        Row b = Row.fromJson(lb, uuid(2), object("{'name':'lb-2'}"), sharing);
        Row modified = b.applyDiff(object("{'protocol':'tcp','external_ids':['map',[['ovnj.owner','team-a']]]}"), sharing);
        assertThat((Object) modified.get("protocol")).isSameAs(a.get("protocol"));
        assertThat(((Map<?, ?>) modified.get("external_ids")).get("ovnj.owner"))
                .isSameAs(((Map<?, ?>) a.get("external_ids")).get("ovnj.owner"));
    }

    private static Object key(Map<?, ?> map, String key) {
        return map.keySet().stream().filter(key::equals).findFirst().orElseThrow();
    }
}
