package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One admission for plan, upsert and apply; conflicts are results. */
class AdmissionIT {

    static LoadBalancerSpec onRouter(String name, String vip) {
        return LoadBalancerSpec.builder(name).routers("shalb-dev").tcp(vip, "10.1.0.5:80").build();
    }

    static LoadBalancerSpec onSwitch(String name, String vip) {
        return LoadBalancerSpec.builder(name).switches("shalb-dev-default").tcp(vip, "10.1.0.6:80").build();
    }

    @Test
    void dryRunAndApplyRunTheSameEipCheck() throws Exception {
        try (EngineFixture f = new EngineFixture(b -> b.eipPolicy(EipPolicy.REJECT))) {
            LoadBalancerSpec outside = onRouter("outside", "10.200.0.1:80");
            LoadBalancerSpec inside = onRouter("inside", "168.119.17.52:80");
            LoadBalancerPlan plan = f.engine.plan(OWNER, List.of(outside, inside));
            assertThat(plan.invalid()).containsOnlyKeys("outside");
            assertThat(plan.invalid().get("outside")).anyMatch(r -> r.contains("10.200.0.1:80"));
            assertThat(plan.changes()).noneMatch(c -> c.subject().startsWith("outside"));

            ApplyResult r = f.engine.apply(OWNER, List.of(outside, inside)).get(10, TimeUnit.SECONDS);
            assertThat(r.statuses().get("outside").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(r.statuses().get("outside").reasons()).isEqualTo(plan.invalid().get("outside"));
            assertThat(r.statuses().get("inside").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactly("inside-tcp");
            assertThatThrownBy(() -> f.engine.upsert(OWNER, outside).get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(InvalidSpecException.class).hasMessageContaining("10.200.0.1:80");
        }
    }

    @Test
    void aForeignLoadBalancerOnTheSameRouterOrGroupIsAConflictAndStaysUntouched() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("lb-add", "kube-lb", "168.119.17.52:80", "172.18.0.2:80");
            f.nbctl.run("lr-lb-add", "shalb-dev", "kube-lb");
            f.nbctl.run("lb-add", "grouped-lb", "168.119.17.53:80", "172.18.0.3:80");
            f.nbctl.run("create", "Load_Balancer_Group", "name=foreign-group");
            f.nbctl.run("add", "Load_Balancer_Group", "foreign-group", "load_balancer", uuid(f, "grouped-lb"));
            f.nbctl.run("add", "Logical_Switch", "shalb-dev-default", "load_balancer_group", groupUuid(f));
            Await.until(WAIT, "the engine's cache has the foreign rows", () -> f.client.cache().table("Logical_Switch").rows().stream()
                    .anyMatch(r -> !((java.util.Set<?>) r.get("load_balancer_group")).isEmpty()));
            String kubeBefore = f.nbctl.run("list", "Load_Balancer", "kube-lb");
            String groupedBefore = f.nbctl.run("list", "Load_Balancer", "grouped-lb");

            LoadBalancerSpec onRouter = onRouter("web", "168.119.17.52:80");
            LoadBalancerSpec viaGroup = onSwitch("dns", "168.119.17.53:80");
            LoadBalancerSpec free = onRouter("free", "168.119.17.54:80");
            LoadBalancerPlan plan = f.engine.plan(OWNER, List.of(onRouter, viaGroup, free));
            assertThat(plan.conflicts()).anyMatch(c -> c.contains("spec web") && c.contains("kube-lb"))
                    .anyMatch(c -> c.contains("spec dns") && c.contains("grouped-lb"));
            assertThat(plan.changes()).allMatch(c -> c.subject().startsWith("free"));

            ApplyResult r = f.engine.apply(OWNER, List.of(onRouter, viaGroup, free)).get(10, TimeUnit.SECONDS);
            SpecStatus web = r.statuses().get("web");
            assertThat(web.state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(web.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.table()).isEqualTo("Load_Balancer");
                assertThat(c.name()).isEqualTo("kube-lb");
                assertThat(c.uuid()).contains(UUID.fromString(uuid(f, "kube-lb")));
                assertThat(c.owner()).isEmpty();
                assertThat(c.vip()).isEqualTo("tcp 168.119.17.52:80");
                assertThat(c.target()).isEqualTo("router shalb-dev");
            });
            assertThat(r.statuses().get("dns").state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(r.statuses().get("dns").conflicts()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("grouped-lb"));
            assertThat(r.statuses().get("free").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactlyInAnyOrder("kube-lb", "grouped-lb", "free-tcp");
            assertThat(f.nbctl.run("list", "Load_Balancer", "kube-lb")).isEqualTo(kubeBefore);
            assertThat(f.nbctl.run("list", "Load_Balancer", "grouped-lb")).isEqualTo(groupedBefore);

            // The foreign row goes: the conflict resolves by itself.
            f.nbctl.run("lb-del", "kube-lb");
            Await.until(WAIT, "web applied once the foreign row is gone", () -> f.engine.status(OWNER).get("web").state() == SpecStatus.State.APPLIED);
        }
    }

    @Test
    void twoOwnersClaimingOneVipTheFirstKeepsIt() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            assertThat(f.engine.upsert("team-a", onRouter("web", "168.119.17.52:80")).get(10, TimeUnit.SECONDS).allApplied()).isTrue();
            CompletableFuture<ApplyResult> second = f.engine.upsert("team-b", onRouter("www", "168.119.17.52:80"), UpsertOption.KEEP_DECLARED);
            assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(SpecFailedException.class).hasMessageContaining("conflict");
            SpecStatus www = f.engine.status("team-b").get("www");
            assertThat(www.state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(www.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.owner()).contains("team-a");
                assertThat(c.name()).isEqualTo("web-tcp");
            });

            // Declared back to back, before either is written: the first declared wins.
            CompletableFuture<ApplyResult> a = f.engine.apply("team-c", List.of(onSwitch("api", "168.119.17.60:443")));
            CompletableFuture<ApplyResult> b = f.engine.apply("team-d", List.of(onSwitch("api2", "168.119.17.60:443")));
            assertThat(a.get(10, TimeUnit.SECONDS).statuses().get("api").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(b.get(10, TimeUnit.SECONDS).statuses().get("api2").state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactlyInAnyOrder("web-tcp", "api-tcp");
        }
    }

    @Test
    void upsertRefusesAVipAnotherSpecOfTheOwnerHas() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.engine.upsert(OWNER, onRouter("one", "168.119.17.52:80")).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> f.engine.upsert(OWNER, onRouter("two", "168.119.17.52:80")).get(10, TimeUnit.SECONDS))
                    .cause().isInstanceOf(InvalidSpecException.class).hasMessageContaining("already used by spec one");
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactly("one-tcp");
            // As apply() says of the same pair.
            ApplyResult r = f.engine.apply(OWNER, List.of(onRouter("one", "168.119.17.52:80"), onRouter("two", "168.119.17.52:80")))
                    .get(10, TimeUnit.SECONDS);
            assertThat(r.statuses().get("two").state()).isEqualTo(SpecStatus.State.INVALID);
        }
    }

    @Test
    void aForeignRowWithAnOwnedNameIsAConflictOnTheFirstPass() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("lb-add", "web-tcp", "10.99.0.1:80", "10.99.1.1:80");
            Await.until(WAIT, "the engine's cache has the foreign row", () -> f.client.cache().table("Load_Balancer").size() == 1);
            CompletableFuture<ApplyResult> u = f.engine.upsert(OWNER, onRouter("web", "168.119.17.52:80"), UpsertOption.KEEP_DECLARED);
            assertThatThrownBy(() -> u.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(SpecFailedException.class);
            SpecStatus s = f.engine.status(OWNER).get("web");
            assertThat(s.state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(s.conflicts()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("web-tcp"));
            assertThat(f.nbctl.run("get", "Load_Balancer", "web-tcp", "vips")).contains("10.99.0.1:80");
        }
    }

    static String uuid(EngineFixture f, String lb) {
        return f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=" + lb).trim();
    }

    static String groupUuid(EngineFixture f) {
        return f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer_Group", "name=foreign-group").trim();
    }
}
