package dev.ovnj.ovsdb.tx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.data.Json;
import dev.ovnj.ovsdb.data.ValueConstraintException;
import dev.ovnj.ovsdb.schema.SchemaFixtures;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConditionAndMutationTest {

    private final TableSchema lb = SchemaFixtures.northbound().table("Load_Balancer");
    private final TableSchema global = SchemaFixtures.northbound().table("NB_Global");
    private final TableSchema parent = SchemaFixtures.allShapes().table("Parent");

    private static String json(String text) {
        return Json.parse(text).toString();
    }

    @Test
    void everyFunctionSymbol() {
        assertThat(Condition.lt("nb_cfg", 5L).toJson(global).toString()).isEqualTo(json("['nb_cfg','<',5]"));
        assertThat(Condition.le("nb_cfg", 5L).toJson(global).toString()).isEqualTo(json("['nb_cfg','<=',5]"));
        assertThat(Condition.gt("nb_cfg", 5L).toJson(global).toString()).isEqualTo(json("['nb_cfg','>',5]"));
        assertThat(Condition.ge("nb_cfg", 5L).toJson(global).toString()).isEqualTo(json("['nb_cfg','>=',5]"));
        assertThat(Condition.ne("name", "x").toJson(lb).toString()).isEqualTo(json("['name','!=','x']"));
        assertThat(Condition.excludes("vips", Map.of("a", "b")).toJson(lb).toString())
                .isEqualTo(json("['vips','excludes',['map',[['a','b']]]]"));
    }

    @Test
    void literalConditions() {
        assertThat(Condition.TRUE.toJson(lb).toString()).isEqualTo("true");
        assertThat(Condition.FALSE.toJson(lb).toString()).isEqualTo("false");
    }

    @Test
    void includesAcceptsMoreElementsThanTheColumn() {
        assertThat(Condition.includes("protocol", Set.of("tcp", "udp")).toJson(lb).toString())
                .isEqualTo(json("['protocol','includes',['set',['tcp','udp']]]"));
    }

    @Test
    void orderingTakesPlainAtomIgnoringColumnBounds() {
        assertThat(Condition.lt("count", 1000L).toJson(parent).toString()).isEqualTo(json("['count','<',1000]"));
    }

    @Test
    void orderingRejectedOnStrings() {
        assertThatThrownBy(() -> Condition.lt("name", "x").toJson(lb))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Load_Balancer.name: \"<\" applies only to integer or real columns with at most one"
                        + " element, not \"string\"");
    }

    @Test
    void conditionValueChecked() {
        assertThatThrownBy(() -> Condition.eq("protocol", "http").toJson(lb))
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("Load_Balancer.protocol: \"http\" is not one of [tcp, udp, sctp]");
        assertThatThrownBy(() -> Condition.eq("nope", "x").toJson(lb))
                .hasMessage("table Load_Balancer has no column \"nope\"");
    }

    @Test
    void arithmeticMutators() {
        assertThat(Mutation.add("count", 100L).toJson(parent).toString()).isEqualTo(json("['count','+=',100]"));
        assertThat(Mutation.subtract("count", 1L).toJson(parent).toString()).isEqualTo(json("['count','-=',1]"));
        assertThat(Mutation.multiply("weight", 2.0).toJson(parent).toString())
                .isEqualTo(json("['weight','*=',2.0]"));
        assertThat(Mutation.divide("ports", 2L).toJson(parent).toString()).isEqualTo(json("['ports','/=',2]"));
        assertThat(Mutation.modulo("count", 3L).toJson(parent).toString()).isEqualTo(json("['count','%=',3]"));
    }

    @Test
    void arithmeticRejectedWhereMeaningless() {
        assertThatThrownBy(() -> Mutation.modulo("weight", 2.0).toJson(parent))
                .hasMessage("Parent.weight: \"%=\" does not apply to column type "
                        + "{\"key\":{\"type\":\"real\",\"minReal\":0.5,\"maxReal\":2.5}}");
        assertThatThrownBy(() -> Mutation.add("options", 1L).toJson(parent))
                .hasMessageStartingWith("Parent.options: \"+=\" does not apply to column type");
        assertThatThrownBy(() -> Mutation.insert("name", "x").toJson(parent))
                .hasMessageStartingWith("Parent.name: \"insert\" applies only to set and map columns");
    }

    @Test
    void mapDeleteByKeysOrByEntries() {
        assertThat(Mutation.delete("options", Set.of("k")).toJson(parent).toString())
                .isEqualTo(json("['options','delete',['set',['k']]]"));
        assertThat(Mutation.delete("options", Map.of("k", "v")).toJson(parent).toString())
                .isEqualTo(json("['options','delete',['map',[['k','v']]]]"));
        assertThat(Mutation.insert("options", Map.of("k", "v")).toJson(parent).toString())
                .isEqualTo(json("['options','insert',['map',[['k','v']]]]"));
    }

    @Test
    void mutationOfImmutableOrImplicitColumnRejected() {
        assertThatThrownBy(() -> Mutation.insert("id", Set.of()).toJson(parent))
                .hasMessage("Parent.id is immutable and cannot be mutated");
        assertThatThrownBy(() -> Mutation.add("_version", 1L).toJson(parent))
                .hasMessage("Parent._version is immutable and cannot be mutated");
    }

    @Test
    void mutationElementsChecked() {
        assertThatThrownBy(() -> Mutation.insert("ports", 70000L).toJson(parent))
                .isInstanceOf(ValueConstraintException.class)
                .hasMessage("Parent.ports: 70000 is greater than maximum allowed value 65535");
    }
}
