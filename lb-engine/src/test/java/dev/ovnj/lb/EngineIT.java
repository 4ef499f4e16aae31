package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EngineIT {
    static final String OWNER = "kube-dc";

    static LoadBalancerSpec etcd(String... backends) {
        return LoadBalancerSpec.builder("shalb-dev-etcd-lb").routers("shalb-dev").switches("shalb-dev-default")
                .tcp("168.119.17.51:2379", backends).build();
    }

    static LoadBalancerSpec api() {
        return LoadBalancerSpec.builder("shalb-dev-api").routers("shalb-dev").switches("shalb-dev-default")
                .tcp("168.119.17.55:6443", "10.1.0.10:6443", "10.1.0.11:6443")
                .udp("168.119.17.55:53", "10.1.0.20:53")
                .options(LbOptions.DEFAULTS.withAffinityTimeout(10800).withSkipSnat(true))
                .build();
    }

    @Test
    void appliesChangesAndDeletesMatchingNbctlExactly() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            ApplyResult r = f.engine.apply(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.41:2379"), api())).get(20, TimeUnit.SECONDS);
            assertThat(r.allApplied()).as(r.toString()).isTrue();
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer"))
                    .containsExactlyInAnyOrder("shalb-dev-etcd-lb-tcp", "shalb-dev-api-tcp", "shalb-dev-api-udp");
            String lr = f.nbctl.run("lr-lb-list", "shalb-dev");
            assertThat(lr).contains("168.119.17.51:2379").contains("10.1.0.40:2379,10.1.0.41:2379")
                    .contains("168.119.17.55:53").contains("10.1.0.20:53");
            assertThat(f.nbctl.run("ls-lb-list", "shalb-dev-default")).contains("168.119.17.55:6443");
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-api-tcp", "options:affinity_timeout")).isEqualTo("\"10800\"");
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-api-tcp", "external_ids:ovnj.owner")).isEqualTo(OWNER);
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-api-udp", "protocol")).isEqualTo("udp");

            // Change one backend: only that VIP key is mutated, in one small transaction.
            int before = f.txSizes.size();
            var plan = f.engine.plan(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.42:2379"), api()));
            assertThat(plan.changes()).singleElement().hasToString(
                    "~ shalb-dev-etcd-lb-tcp vips: ~168.119.17.51:2379=10.1.0.40:2379,10.1.0.42:2379");
            f.engine.apply(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.42:2379"), api())).get(20, TimeUnit.SECONDS);
            // onTransaction reaches listeners on their own thread, possibly after the future completed.
            Await.until(WAIT, "the transaction event", () -> f.txSizes.size() > before);
            assertThat(f.txSizes.subList(before, f.txSizes.size())).containsExactly(2); // wait guard + one mutate
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-etcd-lb-tcp", "vips"))
                    .isEqualTo("{\"168.119.17.51:2379\"=\"10.1.0.40:2379,10.1.0.42:2379\"}");

            // Drop the api spec: its rows go, and with them (weak references) the attachments.
            f.engine.apply(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.42:2379"))).get(20, TimeUnit.SECONDS);
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactly("shalb-dev-etcd-lb-tcp");
            assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).doesNotContain("6443");
            assertThat(f.engine.plan(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.42:2379"))).isEmpty()).isTrue();
        }
    }

    @Test
    void repairsEveryKindOfDriftWithinMilliseconds() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.engine.apply(OWNER, List.of(etcd("10.1.0.40:2379", "10.1.0.41:2379"), api())).get(20, TimeUnit.SECONDS);
            String expectedLr = f.nbctl.run("lr-lb-list", "shalb-dev");

            f.nbctl.run("lb-del", "shalb-dev-etcd-lb-tcp");
            awaitRepairs(f, 1);
            f.nbctl.run("lb-del", "shalb-dev-api-tcp", "168.119.17.55:6443");
            awaitRepairs(f, 2);
            f.nbctl.run("set", "Load_Balancer", "shalb-dev-api-udp", "vips:\"168.119.17.55:53\"=\"10.9.9.9:53\"");
            awaitRepairs(f, 3);
            f.nbctl.run("lr-lb-del", "shalb-dev", "shalb-dev-api-udp");
            awaitRepairs(f, 4);
            f.nbctl.run("ls-lb-del", "shalb-dev-default", "shalb-dev-etcd-lb-tcp");
            awaitRepairs(f, 5);
            f.nbctl.run("set", "Load_Balancer", "shalb-dev-api-tcp", "options:affinity_timeout=1");
            awaitRepairs(f, 6);

            Await.until(WAIT, "database restored", () -> normalize(f.nbctl.run("lr-lb-list", "shalb-dev")).equals(normalize(expectedLr)));
            assertThat(f.nbctl.run("ls-lb-list", "shalb-dev-default")).contains("168.119.17.51:2379");
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-api-tcp", "options:affinity_timeout")).isEqualTo("\"10800\"");
            assertThat(f.repairs).extracting(RepairEvent::what).anyMatch(w -> w.contains("recreated"))
                    .anyMatch(w -> w.contains("vips")).anyMatch(w -> w.contains("attached to router shalb-dev"))
                    .anyMatch(w -> w.contains("options"));
            assertThat(f.repairs).allSatisfy(r -> assertThat(r.latency()).isLessThan(java.time.Duration.ofSeconds(1)));
            assertThat(f.engine.status(OWNER).get("shalb-dev-api").repairs()).isGreaterThanOrEqualTo(3);
        }
    }

    /** lr-lb-list prints the LB UUID, which changes when a deleted row is recreated. */
    private static String normalize(String listing) {
        return listing.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID")
                .lines().map(String::trim).sorted().reduce("", (a, b) -> a + b + "\n");
    }

    private static void awaitRepairs(EngineFixture f, int n) {
        Await.until(WAIT, n + " repairs", () -> f.repairs.size() >= n);
    }

    @Test
    void neverTouchesForeignRows() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.nbctl.run("lb-add", "shalb-dev-etcd-lb-tcp", "10.99.0.1:80", "10.99.1.1:80");   // foreign namesake
            f.nbctl.run("lb-add", "kube-ovn-lb", "10.96.0.1:443", "172.18.0.2:6443");
            f.nbctl.run("lr-lb-add", "shalb-dev", "kube-ovn-lb");
            f.nbctl.run("set", "Load_Balancer", "kube-ovn-lb", "external_ids:ovnj.owner=someone-else");
            String foreignBefore = f.nbctl.run("list", "Load_Balancer", "kube-ovn-lb");

            // A foreign row with the name the spec's row must have is a conflict: nothing is written for it.
            ApplyResult r = f.engine.apply(OWNER, List.of(etcd("10.1.0.40:2379"))).get(20, TimeUnit.SECONDS);
            SpecStatus etcd = r.statuses().get("shalb-dev-etcd-lb");
            assertThat(etcd.state()).isEqualTo(SpecStatus.State.CONFLICT);
            assertThat(etcd.conflicts()).singleElement().satisfies(c -> {
                assertThat(c.name()).isEqualTo("shalb-dev-etcd-lb-tcp");
                assertThat(c.owner()).isEmpty();
                assertThat(c.uuid()).isPresent();
            });
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer"))
                    .containsExactlyInAnyOrder("shalb-dev-etcd-lb-tcp", "kube-ovn-lb");
            f.engine.apply(OWNER, List.of()).get(20, TimeUnit.SECONDS);

            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer"))
                    .containsExactlyInAnyOrder("shalb-dev-etcd-lb-tcp", "kube-ovn-lb");
            assertThat(f.nbctl.run("get", "Load_Balancer", "shalb-dev-etcd-lb-tcp", "vips")).contains("10.99.0.1:80");
            assertThat(f.nbctl.run("list", "Load_Balancer", "kube-ovn-lb")).isEqualTo(foreignBefore);
            assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).contains("kube-ovn-lb");
        }
    }

    @Test
    void invalidSpecsAreReportedAndNothingIsWritten() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            LoadBalancerSpec bad = LoadBalancerSpec.builder("bad").routers("shalb-dev")
                    .tcp("168.119.17.52:80", "10.1.0.1").tcp("168.119.17.53:99999", "[fd00::1]:80").buildUnchecked();
            ApplyResult r = f.engine.apply(OWNER, List.of(bad, etcd("10.1.0.40:2379"))).get(20, TimeUnit.SECONDS);
            assertThat(r.statuses().get("bad").state()).isEqualTo(SpecStatus.State.INVALID);
            assertThat(r.statuses().get("bad").reasons()).anyMatch(m -> m.startsWith("vips[0].backends[0]") && m.contains("needs a port"))
                    .anyMatch(m -> m.startsWith("vips[1].vip") && m.contains("out of range"));
            assertThat(r.statuses().get("shalb-dev-etcd-lb").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(f.lines("--bare", "--columns=name", "list", "Load_Balancer")).containsExactly("shalb-dev-etcd-lb-tcp");
            assertThatThrownBy(() -> f.engine.upsert(OWNER, bad).join()).hasCauseInstanceOf(InvalidSpecException.class)
                    .hasMessageContaining("owner kube-dc, spec bad, vips[0].backends[0]");
        }
    }

    @Test
    void pendingUntilTheRouterExists() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            LoadBalancerSpec later = LoadBalancerSpec.builder("later").routers("not-yet").tcp("168.119.17.56:80", "10.1.0.5:80").build();
            ApplyResult r = f.engine.apply(OWNER, List.of(later)).get(20, TimeUnit.SECONDS);
            assertThat(r.statuses().get("later").state()).isEqualTo(SpecStatus.State.WAITING);
            assertThat(r.statuses().get("later").reasons()).containsExactly("router not-yet does not exist yet");
            f.nbctl.run("lr-add", "not-yet");
            Await.until(WAIT, "attached once the router appears", () -> f.nbctl.run("lr-lb-list", "not-yet").contains("168.119.17.56:80"));
            Await.until(WAIT, "status applied", () -> f.engine.status(OWNER).get("later").state() == SpecStatus.State.APPLIED);
        }
    }

    @Test
    void attachesThroughALoadBalancerGroup() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            LoadBalancerSpec grouped = LoadBalancerSpec.builder("grouped").group("shalb-dev-lbs").routers("shalb-dev")
                    .switches("shalb-dev-default").tcp("168.119.17.57:443", "10.1.0.7:443").build();
            assertThat(f.engine.apply(OWNER, List.of(grouped)).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
            assertThat(f.nbctl.run("--bare", "--columns=name", "list", "Load_Balancer_Group")).isEqualTo("shalb-dev-lbs");
            String group = f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer_Group", "name=shalb-dev-lbs");
            assertThat(f.nbctl.run("get", "Logical_Router", "shalb-dev", "load_balancer_group")).contains(group);
            assertThat(f.nbctl.run("get", "Logical_Switch", "shalb-dev-default", "load_balancer_group")).contains(group);
            assertThat(f.nbctl.run("get", "Logical_Router", "shalb-dev", "load_balancer")).isEqualTo("[]");
            String lb = f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=grouped-tcp");
            assertThat(f.nbctl.run("get", "Load_Balancer_Group", "shalb-dev-lbs", "load_balancer")).contains(lb);
            assertThat(f.engine.plan(OWNER, List.of(grouped)).isEmpty()).isTrue();
        }
    }

    @Test
    void ipv6Vips() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            LoadBalancerSpec v6 = LoadBalancerSpec.builder("v6").switches("shalb-dev-default")
                    .tcp("[2a01:4f8:0:0::10]:443", "[fd00::5]:8443", "[fd00::6]:8443").build();
            assertThat(f.engine.apply(OWNER, List.of(v6)).get(20, TimeUnit.SECONDS).allApplied()).isTrue();
            assertThat(f.nbctl.run("get", "Load_Balancer", "v6-tcp", "vips")).isEqualTo("{\"[2a01:4f8::10]:443\"=\"[fd00::5]:8443,[fd00::6]:8443\"}");
            assertThat(f.engine.plan(OWNER, List.of(v6)).isEmpty()).isTrue();
        }
    }
}
