package dev.ovnj.ovsdb.tx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.data.Json;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OperationJsonTest {

    private static final UUID LB = UUID.fromString("cccccccc-0000-0000-0000-000000000001");

    private final DatabaseSchema nb = SchemaFixtures.northbound();

    private void encodesAs(Operation operation, String expected) {
        assertThat(operation.toJson(nb).toString()).isEqualTo(Json.parse(expected).toString());
    }

    @Test
    void insert() {
        encodesAs(Operations.insert("Load_Balancer")
                        .value("name", "web")
                        .value("protocol", Set.of("tcp"))
                        .value("vips", Map.of("10.0.0.1:80", "192.168.0.1:80"))
                        .uuidName("lb"),
                "{'op':'insert','table':'Load_Balancer','row':{'name':'web','protocol':['set',['tcp']],"
                        + "'vips':['map',[['10.0.0.1:80','192.168.0.1:80']]]},'uuid-name':'lb'}");
    }

    @Test
    void insertWithChosenUuid() {
        encodesAs(Operations.insert("Load_Balancer").value("name", "web").uuid(LB),
                "{'op':'insert','table':'Load_Balancer','row':{'name':'web'},'uuid':'" + LB + "'}");
    }

    @Test
    void selectWithColumns() {
        encodesAs(Operations.select("Load_Balancer").where(Condition.eq("name", "web")).columns("_uuid", "vips"),
                "{'op':'select','table':'Load_Balancer','where':[['name','==','web']],'columns':['_uuid','vips']}");
    }

    @Test
    void selectAllRows() {
        encodesAs(Operations.select("NB_Global"), "{'op':'select','table':'NB_Global','where':[]}");
    }

    @Test
    void update() {
        encodesAs(Operations.update("Load_Balancer").set("vips", Map.of()).where(Condition.eq("_uuid", LB)),
                "{'op':'update','table':'Load_Balancer','where':[['_uuid','==',['uuid','" + LB + "']]],"
                        + "'row':{'vips':['map',[]]}}");
    }

    @Test
    void mutate() {
        encodesAs(Operations.mutate("Logical_Router")
                        .where(Condition.eq("name", "r1"))
                        .mutation(Mutation.insert("load_balancer", new NamedUuid("lb")),
                                Mutation.delete("external_ids", Set.of("stale"))),
                "{'op':'mutate','table':'Logical_Router','where':[['name','==','r1']],'mutations':["
                        + "['load_balancer','insert',['set',[['named-uuid','lb']]]],"
                        + "['external_ids','delete',['set',['stale']]]]}");
    }

    @Test
    void delete() {
        encodesAs(Operations.delete("Load_Balancer").where(Condition.includes("protocol", "udp")),
                "{'op':'delete','table':'Load_Balancer','where':[['protocol','includes',['set',['udp']]]]}");
    }

    @Test
    void waitWithTimeout() {
        encodesAs(Operations.wait("Load_Balancer")
                        .where(Condition.eq("_uuid", LB))
                        .columns("name")
                        .until(Wait.Until.EQ)
                        .row(Map.of("name", "web"))
                        .timeout(0),
                "{'op':'wait','table':'Load_Balancer','timeout':0,'where':[['_uuid','==',['uuid','" + LB + "']]],"
                        + "'columns':['name'],'until':'==','rows':[{'name':'web'}]}");
    }

    @Test
    void waitWithoutTimeout() {
        encodesAs(Operations.wait("NB_Global").until(Wait.Until.NE),
                "{'op':'wait','table':'NB_Global','where':[],'columns':[],'until':'!=','rows':[]}");
    }

    @Test
    void commitAbortCommentAssert() {
        encodesAs(Operations.commit(true), "{'op':'commit','durable':true}");
        encodesAs(Operations.abort(), "{'op':'abort'}");
        encodesAs(Operations.comment("ovnj: add lb"), "{'op':'comment','comment':'ovnj: add lb'}");
        encodesAs(Operations.assertLock("ovn_northd"), "{'op':'assert','lock':'ovn_northd'}");
    }

    @Test
    void integerValuesStayIntegers() {
        encodesAs(Operations.update("NB_Global").set("nb_cfg", 42L),
                "{'op':'update','table':'NB_Global','where':[],'row':{'nb_cfg':42}}");
    }
}
