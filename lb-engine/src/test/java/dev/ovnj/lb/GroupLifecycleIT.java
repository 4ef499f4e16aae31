package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Load balancer groups ovnj creates live as long as a load balancer uses them: created (and
 * marked in NB_Global) when a spec needs one, detached from routers and switches and deleted when
 * the last spec leaves; a group someone else created is used and never deleted.
 */
class GroupLifecycleIT {

    @Test
    void ownedGroupsAreDeletedWhenUnusedForeignGroupsStay() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("create", "load_balancer_group", "name=foreign");
            LoadBalancerSpec a = LoadBalancerSpec.builder("a").group("g1").routers("shalb-dev").switches("shalb-dev-default")
                    .tcp("168.119.17.52:80", "10.0.0.2:80").build();
            LoadBalancerSpec b = LoadBalancerSpec.builder("b").group("g1").routers("shalb-dev").tcp("168.119.17.53:80", "10.0.0.3:80").build();
            LoadBalancerSpec c = LoadBalancerSpec.builder("c").group("foreign").routers("shalb-dev").tcp("168.119.17.54:80", "10.0.0.4:80").build();
            ApplyResult r = f.engine.apply("t", List.of(a, b, c)).get(30, TimeUnit.SECONDS);
            assertThat(r.allApplied()).as(r.toString()).isTrue();
            assertThat(f.nbctl.run("--bare", "--columns=name", "list", "load_balancer_group").split("\\s+")).contains("g1", "foreign");
            assertThat(f.nbctl.run("get", "nb_global", ".", "external_ids")).contains("ovnj.group.g1=created")
                    .doesNotContain("ovnj.group.foreign");

            // One of two specs leaves g1: it stays.
            f.engine.apply("t", List.of(a, c)).get(30, TimeUnit.SECONDS);
            Thread.sleep(300);
            assertThat(groups(f)).contains("g1", "foreign");

            // The last one leaves: g1 is detached and deleted, its mark removed; foreign stays.
            f.engine.apply("t", List.of()).get(30, TimeUnit.SECONDS);
            eventually(() -> !groups(f).contains("g1"));
            assertThat(groups(f)).containsExactly("foreign");
            assertThat(f.nbctl.run("--bare", "--columns=load_balancer_group", "list", "logical_router", "shalb-dev").trim())
                    .isEqualTo(f.nbctl.run("--bare", "--columns=_uuid", "find", "load_balancer_group", "name=foreign").trim());
            assertThat(f.nbctl.run("--bare", "--columns=load_balancer_group", "list", "logical_switch", "shalb-dev-default").trim()).isEmpty();
            assertThat(f.nbctl.run("get", "nb_global", ".", "external_ids")).doesNotContain("ovnj.group.g1");

            // Needed again: created again.
            f.engine.apply("t", List.of(a)).get(30, TimeUnit.SECONDS);
            assertThat(groups(f)).contains("g1");
        }
    }

    private static List<String> groups(EngineFixture f) {
        return f.lines("--bare", "--columns=name", "list", "load_balancer_group");
    }

    private static void eventually(BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 20 s");
            }
            Thread.sleep(20);
        }
    }
}
