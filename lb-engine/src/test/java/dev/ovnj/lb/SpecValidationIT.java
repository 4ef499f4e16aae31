package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every check of {@link dev.ovnj.lb.spec.SpecValidator}, through the public API against a real
 * server: the caller gets the error with its field, and the database does not change at all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpecValidationIT {
    static final String OWNER = "kube-dc";
    private EngineFixture f;
    private String before;

    @BeforeAll
    void start() throws Exception {
        f = new EngineFixture();
        // A valid spec already applied: invalid requests must leave it exactly as it is.
        f.engine.apply(OWNER, List.of(valid("existing", "168.119.17.60:80"))).get(20, TimeUnit.SECONDS);
        before = database();
    }

    @AfterAll
    void stop() {
        f.close();
    }

    static LoadBalancerSpec valid(String name, String vip) {
        return LoadBalancerSpec.builder(name).routers("shalb-dev").switches("shalb-dev-default").tcp(vip, "10.1.0.1:8080").build();
    }

    static LoadBalancerSpec.Builder named(String name) {
        return LoadBalancerSpec.builder(name).routers("shalb-dev");
    }

    static Stream<Arguments> invalidSpecs() {
        LbOptions o = LbOptions.DEFAULTS;
        return Stream.of(
                Arguments.of(named("vip-syntax").tcp("168.119.17.300:80", "10.1.0.1:80").buildUnchecked(), "vips[0].vip", "is not an IPv4 address"),
                Arguments.of(named("vip-garbage").tcp("lb.example.com:80", "10.1.0.1:80").buildUnchecked(), "vips[0].vip", "is not an IP"),
                Arguments.of(named("backend-syntax").tcp("168.119.17.52:80", "10.1.0.x:80").buildUnchecked(), "vips[0].backends[0]", "is not an IPv4 address"),
                Arguments.of(named("v6-unbracketed").tcp("fd00::1:80", "[fd01::1]:80").buildUnchecked(), "vips[0].vip", "[ADDR]:PORT"),
                Arguments.of(named("vip-port-range").tcp("168.119.17.52:70000", "10.1.0.1:80").buildUnchecked(), "vips[0].vip", "out of range 1..65535"),
                Arguments.of(named("backend-port-zero").tcp("168.119.17.52:80", "10.1.0.1:0").buildUnchecked(), "vips[0].backends[0]", "out of range 1..65535"),
                Arguments.of(named("port-not-number").tcp("168.119.17.52:http", "10.1.0.1:80").buildUnchecked(), "vips[0].vip", "is not a number"),
                Arguments.of(named("vip-without-port").tcp("168.119.17.52", "10.1.0.1").buildUnchecked(), "vips[0].vip", "needs a port"),
                Arguments.of(named("family-mix").tcp("168.119.17.52:80", "[fd00::1]:80").buildUnchecked(), "vips[0].backends[0]", "is IPv6 but the VIP"),
                Arguments.of(named("backend-without-port").tcp("168.119.17.52:80", "10.1.0.1").buildUnchecked(), "vips[0].backends[0]", "needs a port because the VIP has one"),
                Arguments.of(named("backend-twice").tcp("168.119.17.52:80", "10.1.0.1:80", "10.1.0.1:80").buildUnchecked(), "vips[0].backends[1]", "listed twice"),
                Arguments.of(named("vip-twice").tcp("168.119.17.52:80", "10.1.0.1:80").tcp("168.119.17.52:80", "10.1.0.2:80").buildUnchecked(),
                        "vips[1].vip", "already used by spec vip-twice"),
                Arguments.of(named("no-vips").buildUnchecked(), "vips", "at least one VIP"),
                Arguments.of(named("").tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(), "name", "must not be empty"),
                Arguments.of(LoadBalancerSpec.builder("blank-router").routers(" ").tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(), "routers", "must not be empty"),
                Arguments.of(LoadBalancerSpec.builder("blank-switch").switches("").tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(), "switches", "must not be empty"),
                Arguments.of(named("blank-group").group("").tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(), "group", "must not be empty"),
                Arguments.of(named("affinity-zero").options(o.withAffinityTimeout(0)).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.affinityTimeout", "out of range"),
                Arguments.of(named("affinity-huge").options(o.withAffinityTimeout(70000)).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.affinityTimeout", "out of range"),
                Arguments.of(named("hairpin-port").options(o.withHairpinSnatIp("168.119.17.51:80")).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.hairpinSnatIp", "without a port"),
                Arguments.of(named("hairpin-garbage").options(o.withHairpinSnatIp("gateway")).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.hairpinSnatIp", "not an IP"),
                Arguments.of(named("responder").options(o.withNeighborResponder("sometimes")).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.neighborResponder", "not one of reachable, all, none"),
                Arguments.of(named("selection").options(o.withSelectionFields(Set.of("ip_src", "vlan"))).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "options.selectionFields", "\"vlan\" is not one of"),
                Arguments.of(named("reserved-key").externalIds(Map.of("ovnj.owner", "someone-else")).tcp("168.119.17.52:80", "10.1.0.1:80").buildUnchecked(),
                        "externalIds.ovnj.owner", "reserved for the engine"),
                Arguments.of(named("udp-backend-v6-mix").vip(VipSpec.udp("168.119.17.52:53", "[fd00::53]:53")).buildUnchecked(),
                        "vips[0].backends[0]", "is IPv6 but the VIP"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSpecs")
    void upsertFailsNamingTheFieldAndWritesNothing(LoadBalancerSpec bad, String field, String message) throws Exception {
        assertThatThrownBy(() -> f.engine.upsert(OWNER, bad).join()).hasCauseInstanceOf(InvalidSpecException.class)
                .cause().satisfies(e -> assertThat(((InvalidSpecException) e).errors())
                        .anySatisfy(err -> {
                            assertThat(err.field()).isEqualTo(field);
                            assertThat(err.message()).contains(message);
                            assertThat(err.owner()).isEqualTo(OWNER);
                        }));
        // apply() reports the same spec INVALID and keeps the owner's valid spec as it is.
        ApplyResult r = f.engine.apply(OWNER, List.of(valid("existing", "168.119.17.60:80"), bad)).get(20, TimeUnit.SECONDS);
        assertThat(r.statuses().get(bad.name()).state()).isEqualTo(SpecStatus.State.INVALID);
        assertThat(r.statuses().get(bad.name()).reasons()).anyMatch(m -> m.startsWith(field + ": ") && m.contains(message));
        assertThat(database()).isEqualTo(before);
    }

    @Test
    void theSameVipInTwoSpecsOfOneOwnerIsRejectedForTheSecond() throws Exception {
        ApplyResult r = f.engine.apply(OWNER, List.of(valid("existing", "168.119.17.60:80"), valid("copycat", "168.119.17.60:80")))
                .get(20, TimeUnit.SECONDS);
        assertThat(r.statuses().get("copycat").state()).isEqualTo(SpecStatus.State.INVALID);
        assertThat(r.statuses().get("copycat").reasons()).anyMatch(m -> m.contains("already used by spec existing"));
        assertThat(database()).isEqualTo(before);
    }

    @Test
    void aNameDeclaredTwiceIsRejected() throws Exception {
        ApplyResult r = f.engine.apply(OWNER, List.of(valid("existing", "168.119.17.60:80"), valid("twin", "168.119.17.61:80"),
                valid("twin", "168.119.17.62:80"))).get(20, TimeUnit.SECONDS);
        assertThat(r.statuses().get("twin").state()).isEqualTo(SpecStatus.State.INVALID);
        assertThat(r.statuses().get("twin").reasons()).anyMatch(m -> m.startsWith("name: declared twice"));
        assertThat(database()).isEqualTo(before);
    }

    /** Everything the engine could have touched, as ovn-nbctl prints it. */
    private String database() {
        return f.nbctl.run("--columns=name,vips,options,external_ids", "list", "Load_Balancer")
                + f.nbctl.run("list", "Load_Balancer_Group")
                + f.nbctl.run("--columns=name,load_balancer,load_balancer_group", "list", "Logical_Router")
                + f.nbctl.run("--columns=name,load_balancer,load_balancer_group", "list", "Logical_Switch");
    }
}
