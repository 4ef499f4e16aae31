package dev.ovnj.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RowCacheTest {
    static final String A = "aaaaaaaa-0000-0000-0000-000000000001";
    static final String B = "bbbbbbbb-0000-0000-0000-000000000002";
    DatabaseSchema schema;
    RowCache cache;
    List<CacheEvent> events;

    private static UpdateBatch u2(String json) throws Exception {
        return UpdateBatch.fromUpdates2(new ObjectMapper().readTree(json.replace('\'', '"')), Optional.empty());
    }

    @BeforeEach
    void setUp() throws Exception {
        schema = DatabaseSchema.parse(Path.of("src/test/resources/ovn-nb.ovsschema"));
        cache = new RowCache();
        cache.replace(schema, List.of("Load_Balancer", "Logical_Switch"), u2("{}"));
        events = new ArrayList<>();
        cache.addListener(events::addAll);
    }

    @Test
    void appliesInsertModifyDeleteWithEvents() throws Exception {
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'a','vips':['map',[['10.0.0.1:80','10.1.0.1:80']]]}}}}"));
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'modify':{'vips':['map',[['10.0.0.2:80','10.1.0.2:80']]]}}}}"));
        assertThat(cache.table("Load_Balancer").get(UUID.fromString(A)).orElseThrow().get("vips"))
                .isEqualTo(Map.of("10.0.0.1:80", "10.1.0.1:80", "10.0.0.2:80", "10.1.0.2:80"));
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'delete':null}}}"));
        assertThat(cache.table("Load_Balancer").size()).isZero();
        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("Inserted", "Updated", "Deleted");
    }

    @Test
    void aTablesVersionChangesWithItsRowsOnlyAndNeverRepeatsAcrossAResync() throws Exception {
        long lb0 = cache.table("Load_Balancer").version();
        long ls0 = cache.table("Logical_Switch").version();
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'a'}}}}"));
        long lb1 = cache.table("Load_Balancer").version();
        assertThat(lb1).isNotEqualTo(lb0);
        assertThat(cache.table("Logical_Switch").version()).as("another table's change").isEqualTo(ls0);
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'modify':{'name':'a2'}}}}"));
        long lb2 = cache.table("Load_Balancer").version();
        assertThat(lb2).isNotIn(lb0, lb1);
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'delete':null}}}"));
        long lb3 = cache.table("Load_Balancer").version();
        assertThat(lb3).isNotIn(lb0, lb1, lb2);
        // A resync builds the tables anew; their versions must not restart where an old one was.
        cache.replace(schema, List.of("Load_Balancer", "Logical_Switch"), u2("{'Load_Balancer':{'" + A + "':{'initial':{'name':'a'}}}}"));
        assertThat(cache.table("Load_Balancer").version()).isNotIn(lb0, lb1, lb2, lb3);
        assertThat(cache.table("Logical_Switch").version()).isNotEqualTo(ls0);
    }

    @Test
    void inconsistentBatchLeavesTheCacheUntouched() throws Exception {
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'a'}}}}"));
        events.clear();
        assertThatThrownBy(() -> cache.apply(u2("{'Load_Balancer':{'" + A + "':{'modify':{'name':'changed'}},'" + B + "':{'modify':{'name':'x'}}}}")))
                .isInstanceOf(CacheInconsistencyException.class).hasMessageContaining(B);
        assertThat(cache.table("Load_Balancer").get(UUID.fromString(A)).orElseThrow().get("name")).isEqualTo("a");
        assertThat(events).isEmpty();
        assertThatThrownBy(() -> cache.apply(u2("{'ACL':{'" + B + "':{'insert':{}}}}"))).hasMessageContaining("not monitored");
    }

    @Test
    void replaceEmitsOnlyTheDifferences() throws Exception {
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'a'}},'" + B + "':{'insert':{'name':'b'}}}}"));
        events.clear();
        String C = "cccccccc-0000-0000-0000-000000000003";
        cache.replace(schema, List.of("Load_Balancer", "Logical_Switch"),
                u2("{'Load_Balancer':{'" + A + "':{'initial':{'name':'a'}},'" + B + "':{'initial':{'name':'b2'}},'" + C + "':{'initial':{'name':'c'}}}}"));
        assertThat(events).hasSize(2);
        assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOf(CacheEvent.Updated.class).extracting(CacheEvent::uuid).isEqualTo(UUID.fromString(B)));
        assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOf(CacheEvent.Inserted.class).extracting(CacheEvent::uuid).isEqualTo(UUID.fromString(C)));
        events.clear();
        cache.replace(schema, List.of("Load_Balancer", "Logical_Switch"), u2("{}"));
        assertThat(events).hasSize(3).allSatisfy(e -> assertThat(e).isInstanceOf(CacheEvent.Deleted.class));
    }

    @Test
    void indexesTrackColumnsMapKeysAndSetElements() throws Exception {
        IndexSpec byName = IndexSpec.unique("Load_Balancer", "name");
        IndexSpec byOwner = IndexSpec.mapKey("Load_Balancer", "external_ids", "ovnj.owner");
        IndexSpec byLb = IndexSpec.of("Logical_Switch", "load_balancer");
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'a','external_ids':['map',[['ovnj.owner','o1']]]}}}}"));
        cache.addIndex(byName);
        cache.addIndex(byOwner);
        cache.addIndex(byLb);
        cache.apply(u2("{'Load_Balancer':{'" + B + "':{'insert':{'name':'b','external_ids':['map',[['ovnj.owner','o1']]]}}},"
                + "'Logical_Switch':{'cccccccc-0000-0000-0000-000000000003':{'insert':{'name':'s','load_balancer':['set',[['uuid','" + A + "'],['uuid','" + B + "']]]}}}}"));
        TableCache lbs = cache.table("Load_Balancer");
        assertThat(lbs.lookup(byOwner, "o1")).extracting(r -> r.get("name")).containsExactlyInAnyOrder("a", "b");
        assertThat(cache.table("Logical_Switch").lookup(byLb, UUID.fromString(A))).hasSize(1);
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'modify':{'name':'a2','external_ids':['map',[['ovnj.owner','o2']]]}}}}"));
        assertThat(lbs.lookupOne(byName, "a")).isEmpty();
        assertThat(lbs.lookupOne(byName, "a2")).isPresent();
        assertThat(lbs.lookup(byOwner, "o1")).extracting(r -> r.get("name")).containsExactly("b");
        assertThatThrownBy(() -> lbs.lookup(IndexSpec.of("Load_Balancer", "protocol"), "tcp")).hasMessageContaining("no index Load_Balancer.protocol");
    }

    @Test
    void anIndexOverABigSetFollowsItsDiffs() throws Exception {
        IndexSpec byLb = IndexSpec.of("Logical_Switch", "load_balancer");
        cache.addIndex(byLb);
        List<UUID> lbs = new ArrayList<>();
        StringBuilder set = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            UUID u = UUID.randomUUID();
            lbs.add(u);
            set.append(i == 0 ? "" : ",").append("['uuid','").append(u).append("']");
        }
        String sw = "cccccccc-0000-0000-0000-000000000003";
        cache.apply(u2("{'Logical_Switch':{'" + sw + "':{'insert':{'name':'s','load_balancer':['set',[" + set + "]]}}}}"));
        UUID added = UUID.randomUUID();
        UUID added2 = UUID.randomUUID();
        // The first diff turns the column into a persistent set; the later ones share its structure.
        cache.apply(u2("{'Logical_Switch':{'" + sw + "':{'modify':{'load_balancer':['set',[['uuid','" + added + "'],['uuid','" + lbs.get(0) + "']]]}}}}"));
        cache.apply(u2("{'Logical_Switch':{'" + sw + "':{'modify':{'load_balancer':['uuid','" + lbs.get(1) + "']}}}}"));
        cache.apply(u2("{'Logical_Switch':{'" + sw + "':{'modify':{'load_balancer':['set',[['uuid','" + added2 + "'],['uuid','" + added + "']]]}}}}"));
        TableCache switches = cache.table("Logical_Switch");
        assertThat(switches.get(UUID.fromString(sw)).orElseThrow().get("load_balancer")).isInstanceOf(dev.ovnj.ovsdb.data.PersistentSet.class);
        assertThat(switches.lookup(byLb, lbs.get(0))).isEmpty();
        assertThat(switches.lookup(byLb, lbs.get(1))).isEmpty();
        assertThat(switches.lookup(byLb, added)).isEmpty();
        assertThat(switches.lookup(byLb, added2)).hasSize(1);
        for (UUID u : lbs.subList(2, lbs.size())) {
            assertThat(switches.lookup(byLb, u)).as("%s", u).hasSize(1);
        }
    }
}
