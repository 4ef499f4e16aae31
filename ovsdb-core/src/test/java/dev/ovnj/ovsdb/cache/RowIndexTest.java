package dev.ovnj.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Indexes keep no key objects, only key hashes: equal hashes of different keys must never mix. */
class RowIndexTest {
    // "Aa" and "BB" have the same String.hashCode().
    static final String A = "aaaaaaaa-0000-0000-0000-000000000001";
    static final String B = "bbbbbbbb-0000-0000-0000-000000000002";
    static final String C = "cccccccc-0000-0000-0000-000000000003";
    static final IndexSpec BY_NAME = IndexSpec.of("Load_Balancer", "name");
    static final IndexSpec UNIQUE_NAME = IndexSpec.unique("Logical_Switch", "name");
    static final IndexSpec BY_ADDRESS = IndexSpec.of("Logical_Switch_Port", "addresses");
    RowCache cache;

    private static UpdateBatch u2(String json) throws Exception {
        return UpdateBatch.fromUpdates2(new ObjectMapper().readTree(json.replace('\'', '"')), Optional.empty());
    }

    @BeforeEach
    void setUp() throws Exception {
        DatabaseSchema schema = DatabaseSchema.parse(Path.of("src/test/resources/ovn-nb.ovsschema"));
        cache = new RowCache();
        cache.replace(schema, List.of("Load_Balancer", "Logical_Switch", "Logical_Switch_Port"), u2("{}"));
        cache.addIndex(BY_NAME);
        cache.addIndex(UNIQUE_NAME);
        cache.addIndex(BY_ADDRESS);
    }

    private List<Object> names(String table, IndexSpec spec, Object key) {
        return cache.table(table).lookup(spec, key).stream().map(r -> r.get("name")).toList();
    }

    @Test
    void keysWithEqualHashesStayApart() throws Exception {
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'insert':{'name':'Aa'}},'" + B + "':{'insert':{'name':'BB'}},"
                + "'" + C + "':{'insert':{'name':'Aa'}}}}"));
        assertThat(names("Load_Balancer", BY_NAME, "Aa")).containsExactly("Aa", "Aa");
        assertThat(names("Load_Balancer", BY_NAME, "BB")).containsExactly("BB");
        assertThat(names("Load_Balancer", BY_NAME, "Ab")).isEmpty();
        cache.apply(u2("{'Load_Balancer':{'" + A + "':{'modify':{'name':'BB'}},'" + C + "':{'delete':null}}}"));
        assertThat(cache.table("Load_Balancer").lookup(BY_NAME, "BB")).extracting(Row::uuid)
                .containsExactlyInAnyOrder(UUID.fromString(A), UUID.fromString(B));
        assertThat(names("Load_Balancer", BY_NAME, "Aa")).isEmpty();
    }

    @Test
    void aRowKeepsAKeyWhoseHashAnotherOfItsKeysShared() throws Exception {
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'insert':{'name':'p','addresses':['set',['Aa','BB','x']]}}}}"));
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "Aa")).containsExactly("p");
        // update2 toggles set elements: 'Aa' leaves, 'BB' (same hash) stays.
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'modify':{'addresses':['set',['Aa']]}}}}"));
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "Aa")).isEmpty();
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "BB")).containsExactly("p");
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'modify':{'addresses':['set',['BB']]}}}}"));
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "BB")).isEmpty();
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "x")).containsExactly("p");
    }

    @Test
    void aBigSetKeepsAKeyWhoseHashAnotherOfItsKeysShared() throws Exception {
        // Above 32 elements a set column is a persistent set, and the index moves only the keys
        // its trie diff reports: the removed key's hash must still be checked against the rest.
        StringBuilder many = new StringBuilder("'Aa','BB'");
        for (int i = 0; i < 40; i++) {
            many.append(",'k").append(i).append('\'');
        }
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'insert':{'name':'p','addresses':['set',[" + many + "]]}}}}"));
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'modify':{'addresses':['set',['Aa','k7']]}}}}"));
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "Aa")).isEmpty();
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "k7")).isEmpty();
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "BB")).containsExactly("p");
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "k8")).containsExactly("p");
        cache.apply(u2("{'Logical_Switch_Port':{'" + A + "':{'modify':{'addresses':['set',['BB','new']]}}}}"));
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "BB")).isEmpty();
        assertThat(names("Logical_Switch_Port", BY_ADDRESS, "new")).containsExactly("p");
    }

    @Test
    void uniqueIndexKeepsTheLatestRowOfAKeyOnly() throws Exception {
        cache.apply(u2("{'Logical_Switch':{'" + A + "':{'insert':{'name':'Aa'}},'" + B + "':{'insert':{'name':'BB'}}}}"));
        cache.apply(u2("{'Logical_Switch':{'" + C + "':{'insert':{'name':'Aa'}}}}"));
        assertThat(cache.table("Logical_Switch").lookup(UNIQUE_NAME, "Aa")).extracting(Row::uuid).containsExactly(UUID.fromString(C));
        assertThat(names("Logical_Switch", UNIQUE_NAME, "BB")).containsExactly("BB");
    }

    @Test
    void manyRowsInAndOut() throws Exception {
        for (int round = 0; round < 2; round++) {
            StringBuilder insert = new StringBuilder("{'Load_Balancer':{");
            for (int i = 0; i < 2_000; i++) {
                insert.append(i == 0 ? "" : ",").append("'").append(new UUID(round + 1, i)).append("':{'insert':{'name':'lb-")
                        .append(i % 500).append("'}}");
            }
            cache.apply(u2(insert.append("}}").toString()));
            assertThat(cache.table("Load_Balancer").lookup(BY_NAME, "lb-7")).hasSize(4);
            StringBuilder delete = new StringBuilder("{'Load_Balancer':{");
            for (int i = 0; i < 2_000; i++) {
                delete.append(i == 0 ? "" : ",").append("'").append(new UUID(round + 1, i)).append("':{'delete':null}");
            }
            cache.apply(u2(delete.append("}}").toString()));
            assertThat(cache.table("Load_Balancer").lookup(BY_NAME, "lb-7")).isEmpty();
        }
    }
}
