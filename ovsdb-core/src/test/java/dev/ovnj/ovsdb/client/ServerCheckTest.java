package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ServerCheckTest {
    private static JsonNode json(String s) throws Exception {
        return new ObjectMapper().readTree(s);
    }

    @Test
    void omittedColumnsOfAFullRowAreDefaults() throws Exception {
        // As ovsdb-server sends a follower's row: leader=false is left out.
        ServerCheck c = ServerCheck.fromUpdates2(json("{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"initial\":"
                + "{\"connected\":true,\"model\":\"clustered\",\"name\":\"OVN_Northbound\",\"index\":5}}}}"), "OVN_Northbound", null);
        assertThat(c).isEqualTo(new ServerCheck(true, ServerModel.CLUSTERED, true, false, java.util.OptionalLong.of(5)));
    }

    @Test
    void modifyKeepsUnchangedColumns() throws Exception {
        ServerCheck before = new ServerCheck(true, ServerModel.CLUSTERED, true, true, java.util.OptionalLong.of(5));
        ServerCheck c = ServerCheck.fromUpdates2(json("{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"modify\":"
                + "{\"leader\":false}}}}"), "OVN_Northbound", before);
        assertThat(c).isEqualTo(new ServerCheck(true, ServerModel.CLUSTERED, true, false, java.util.OptionalLong.of(5)));
    }

    @Test
    void otherDatabasesAreIgnored() throws Exception {
        assertThat(ServerCheck.fromUpdates2(json("{\"Database\":{\"a112befa-c0e4-4328-b3b0-8ab8074e2d6e\":{\"initial\":"
                + "{\"name\":\"_Server\",\"model\":\"standalone\",\"connected\":true,\"leader\":true}}}}"), "OVN_Northbound", null)).isNull();
    }
}
