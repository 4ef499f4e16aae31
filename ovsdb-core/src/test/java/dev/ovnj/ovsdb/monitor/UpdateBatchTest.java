package dev.ovnj.ovsdb.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UpdateBatchTest {
    static final String U1 = "11111111-1111-1111-1111-111111111111";
    static final String U2 = "22222222-2222-2222-2222-222222222222";

    private static JsonNode json(String s) throws Exception {
        return new ObjectMapper().readTree(s.replace('\'', '"'));
    }

    @Test
    void decodesEveryUpdate2Kind() throws Exception {
        UpdateBatch b = UpdateBatch.fromUpdates2(json("{'Load_Balancer':{'" + U1 + "':{'insert':{'name':'a'}},'" + U2
                + "':{'modify':{'name':'b'}}},'Logical_Switch':{'" + U1 + "':{'delete':null},'" + U2 + "':{'initial':{}}}}"),
                Optional.of("txn"));
        assertThat(b.updates()).extracting(RowUpdate::table, RowUpdate::uuid, RowUpdate::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Load_Balancer", UUID.fromString(U1), RowUpdate.Kind.INSERT),
                org.assertj.core.groups.Tuple.tuple("Load_Balancer", UUID.fromString(U2), RowUpdate.Kind.MODIFY),
                org.assertj.core.groups.Tuple.tuple("Logical_Switch", UUID.fromString(U1), RowUpdate.Kind.DELETE),
                org.assertj.core.groups.Tuple.tuple("Logical_Switch", UUID.fromString(U2), RowUpdate.Kind.INITIAL));
        assertThat(b.updates().get(2).row()).isNull();
        assertThat(b.lastTxnId()).contains("txn");
    }

    @Test
    void decodesRfcUpdates() throws Exception {
        UpdateBatch b = UpdateBatch.fromUpdates(json("{'T':{'" + U1 + "':{'new':{'a':1}},'" + U2 + "':{'old':{'a':1},'new':{'a':2}},'"
                + "33333333-3333-3333-3333-333333333333':{'old':{'a':1}}}}"), false);
        assertThat(b.updates()).extracting(RowUpdate::kind)
                .containsExactly(RowUpdate.Kind.INSERT, RowUpdate.Kind.REPLACE, RowUpdate.Kind.DELETE);
        assertThat(UpdateBatch.fromUpdates(json("{'T':{'" + U1 + "':{'new':{}}}}"), true).updates().get(0).kind())
                .isEqualTo(RowUpdate.Kind.INITIAL);
    }

    @Test
    void malformedUpdatesNameTheTableAndRow() throws Exception {
        assertThatThrownBy(() -> UpdateBatch.fromUpdates2(json("{'T':{'not-a-uuid':{'insert':{}}}}"), Optional.empty()))
                .isInstanceOf(MonitorProtocolException.class).hasMessageContaining("\"not-a-uuid\" in T is not a UUID");
        assertThatThrownBy(() -> UpdateBatch.fromUpdates2(json("{'T':{'" + U1 + "':{'upsert':{}}}}"), Optional.empty()))
                .hasMessageContaining("unknown row-update2 member \"upsert\" for T " + U1);
        assertThatThrownBy(() -> UpdateBatch.fromUpdates2(json("{'T':{'" + U1 + "':{'insert':3}}}"), Optional.empty()))
                .hasMessageContaining("is not an object");
        assertThatThrownBy(() -> UpdateBatch.fromUpdates2(json("[1]"), Optional.empty()))
                .hasMessageContaining("table-updates is not an object");
        assertThatThrownBy(() -> UpdateBatch.fromUpdates2(json("{'T':{'" + U1 + "':{}}}"), Optional.empty()))
                .hasMessageContaining("empty row-update2");
    }
}
