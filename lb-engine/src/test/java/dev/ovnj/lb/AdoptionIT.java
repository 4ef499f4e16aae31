package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.testkit.Await;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Explicit adoption against a real ovsdb-server: load balancers written by another tool with
 * ovn-nbctl (as kube-dc or Kube-OVN write them) are a conflict without an {@link Adoption}, and with
 * one they are taken over in place, the VIP served in every state a monitoring client sees. One
 * server for the class; each test is its own owner with its own VIPs.
 */
class AdoptionIT {
    private static EngineFixture f;

    @BeforeAll
    static void start() {
        f = new EngineFixture();
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void aForeignRowIsAConflictWithoutAdoptionAndIsTakenOverInPlaceWithIt() throws Exception {
        String owner = "ovnj-k8s";
        f.nbctl.run("lb-add", "kube-web", "168.119.17.52:80", "172.18.0.2:80,172.18.0.3:80", "tcp");
        f.nbctl.run("set", "Load_Balancer", "kube-web", "external_ids:vendor=kube-ovn", "external_ids:service=shop/web");
        f.nbctl.run("lr-lb-add", "shalb-dev", "kube-web");
        f.nbctl.run("ls-lb-add", "shalb-dev-default", "kube-web");
        // An address claim of the former tool on the external port, as ovnj's EipAllocator records one.
        f.nbctl.run("set", "Logical_Router_Port", "shalb-dev-ext", "external_ids:ovnj.eip.168.119.17.52=kube-dc/web");
        UUID foreign = UUID.fromString(f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-web").trim());
        Await.until(WAIT, "the engine's cache has the foreign row", () -> f.client.cache().table("Logical_Switch").rows().stream()
                .anyMatch(r -> ((Set<?>) r.get("load_balancer")).contains(foreign)));
        String before = f.nbctl.run("list", "Load_Balancer", "kube-web");
        // One backend changed, one VIP added: the adopted row's map is mutated, not replaced.
        LoadBalancerSpec web = LoadBalancerSpec.builder("web").routers("shalb-dev").switches("shalb-dev-default")
                .tcp("168.119.17.52:80", "172.18.0.2:80", "172.18.0.4:80").tcp("168.119.17.52:443", "172.18.0.2:443").build();

        // Without the option: as before, a conflict, and the row is not touched.
        LoadBalancerPlan refused = f.engine.plan(owner, List.of(web));
        assertThat(refused.changes()).isEmpty();
        assertThat(refused.conflicts()).anyMatch(c -> c.contains("kube-web"));
        ApplyResult conflict = f.engine.apply(owner, List.of(web)).get(10, TimeUnit.SECONDS);
        assertThat(conflict.statuses().get("web").state()).isEqualTo(SpecStatus.State.CONFLICT);
        assertThat(f.nbctl.run("list", "Load_Balancer", "kube-web")).isEqualTo(before);

        // The plan shows the adoption first, with the VIP changes of the same row.
        Adoption adoption = Adoption.rows("kube-web").claimingAs("shop/web");
        LoadBalancerPlan plan = f.engine.plan(owner, List.of(web), adoption);
        assertThat(plan.conflicts()).isEmpty();
        assertThat(plan.changes()).first().isInstanceOfSatisfying(PlanChange.Adopt.class, a -> {
            assertThat(a.uuid()).isEqualTo(foreign);
            assertThat(a.formerName()).isEqualTo("kube-web");
            assertThat(a.formerOwner()).isEmpty();
            assertThat(a.rowName()).isEqualTo("web-tcp");
        });
        assertThat(plan.toString()).contains("& adopt load balancer kube-web (uuid " + foreign + ", no ovnj.owner) as web-tcp")
                .contains("& move claim ovnj.eip.168.119.17.52 on port shalb-dev-ext from kube-dc/web to shop/web");
        assertThat(plan.changes()).noneMatch(c -> c instanceof PlanChange.CreateRow || c instanceof PlanChange.DeleteRow
                || c instanceof PlanChange.Attach || c instanceof PlanChange.Detach);
        assertThat(plan.changes()).filteredOn(PlanChange.UpdateVips.class::isInstance).singleElement()
                .isInstanceOfSatisfying(PlanChange.UpdateVips.class, u -> {
                    assertThat(u.uuid()).isEqualTo(foreign);
                    assertThat(u.insert()).containsOnlyKeys("168.119.17.52:80", "168.119.17.52:443");
                    assertThat(u.deleteKeys()).containsExactly("168.119.17.52:80");
                });
        assertThat(f.nbctl.run("list", "Load_Balancer", "kube-web")).as("a plan writes nothing").isEqualTo(before);

        // The move, watched by a second client: no update may take the VIP, the row or a reference away.
        List<String> blips = new CopyOnWriteArrayList<>();
        List<Row> seen = new CopyOnWriteArrayList<>();
        try (OvsdbClient watcher = OvsdbClient.builder().remotes(f.server.remote())
                .monitor(MonitorRequest.tables("Load_Balancer", "Logical_Router", "Logical_Switch")).build()) {
            watcher.cache().addListener(events -> events.forEach(e -> watch(e, foreign, blips, seen)));
            watcher.startAndWait(WAIT);
            ApplyResult adopted = f.engine.apply(owner, List.of(web), adoption).get(10, TimeUnit.SECONDS);
            assertThat(adopted.statuses().get("web").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(adopted.statuses().get("web").rows()).containsExactly(foreign);
            Await.until(WAIT, "the watcher saw the adoption", () -> seen.stream().anyMatch(r -> owner.equals(ids(r).get("ovnj.owner"))));
        }
        assertThat(blips).isEmpty();
        assertThat(seen.get(seen.size() - 1).get("vips")).isEqualTo(Map.of("168.119.17.52:80", "172.18.0.2:80,172.18.0.4:80",
                "168.119.17.52:443", "172.18.0.2:443"));

        // Cross-checked with ovn-nbctl: one row, the same UUID, ours now, still attached.
        assertThat(f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=web-tcp").trim()).isEqualTo(foreign.toString());
        assertThat(f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-web").trim()).isEmpty();
        assertThat(f.nbctl.run("get", "Load_Balancer", foreign.toString(), "external_ids:ovnj.owner").trim()).isEqualTo(owner);
        assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).contains(foreign.toString());
        assertThat(f.nbctl.run("ls-lb-list", "shalb-dev-default")).contains(foreign.toString());
        // The claim moved with the row: the adopter's now, the former owner's gone.
        assertThat(f.nbctl.run("get", "Logical_Router_Port", "shalb-dev-ext", "external_ids")).contains("shop/web")
                .doesNotContain("kube-dc/web");
        // Ours from now on: a later apply without the option finds nothing to do.
        assertThat(f.engine.plan(owner, List.of(web)).isEmpty()).isTrue();
    }

    @Test
    void adoptionIsScopedAndSplitsASharedRowWithoutTakingAVipTheSpecDoesNotDeclare() throws Exception {
        String owner = "ovnj-scoped";
        // Another ovnj owner's row, and a shared row of another tool serving a second VIP too.
        f.nbctl.run("lb-add", "dc-dns", "168.119.17.53:53", "172.18.0.5:53", "udp");
        f.nbctl.run("set", "Load_Balancer", "dc-dns", "external_ids:ovnj.owner=kube-dc", "external_ids:ovnj.spec=dns");
        f.nbctl.run("lr-lb-add", "shalb-dev", "dc-dns");
        f.nbctl.run("lb-add", "shared-lb", "168.119.17.54:80", "172.18.0.6:80", "tcp");
        f.nbctl.run("lb-add", "shared-lb", "168.119.17.55:80", "172.18.0.7:80", "tcp");
        f.nbctl.run("lr-lb-add", "shalb-dev", "shared-lb");
        Await.until(WAIT, "the engine's cache has the foreign rows", () -> f.client.cache().table("Load_Balancer").rows().stream()
                .filter(r -> r.get("name").equals("shared-lb")).anyMatch(r -> ((Map<?, ?>) r.get("vips")).size() == 2));
        String sharedUuid = f.nbctl.run("get", "Load_Balancer", "shared-lb", "_uuid").trim();
        LoadBalancerSpec dns = LoadBalancerSpec.builder("dns").routers("shalb-dev").udp("168.119.17.53:53", "172.18.0.5:53").build();
        LoadBalancerSpec api = LoadBalancerSpec.builder("api").routers("shalb-dev").tcp("168.119.17.54:80", "172.18.0.6:80").build();

        // Another owner named: neither row is covered.
        LoadBalancerPlan other = f.engine.plan(owner, List.of(dns), ApplyOption.adopt("owner:someone-else"));
        assertThat(other.changes()).isEmpty();
        assertThat(other.conflicts()).anyMatch(c -> c.contains("dc-dns"));

        ApplyResult r = f.engine.apply(owner, List.of(dns, api), ApplyOption.adopt("owner:kube-dc"), ApplyOption.adopt("unowned"))
                .get(10, TimeUnit.SECONDS);
        assertThat(r.statuses().get("dns").state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(f.nbctl.run("get", "Load_Balancer", "dns-udp", "external_ids:ovnj.owner").trim()).isEqualTo(owner);
        // The shared row is split, not taken: api's VIP moves to api's own row, the other VIP stays
        // in the same shared row (same UUID, still on the router).
        assertThat(r.statuses().get("api").state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(f.nbctl.run("get", "Load_Balancer", "shared-lb", "vips").trim()).isEqualTo("{\"168.119.17.55:80\"=\"172.18.0.7:80\"}");
        assertThat(f.nbctl.run("get", "Load_Balancer", "shared-lb", "_uuid").trim()).isEqualTo(sharedUuid);
        assertThat(f.nbctl.run("get", "Load_Balancer", "shared-lb", "external_ids").trim()).isEqualTo("{}");
        assertThat(f.nbctl.run("get", "Load_Balancer", "api-tcp", "vips").trim()).isEqualTo("{\"168.119.17.54:80\"=\"172.18.0.6:80\"}");
        assertThat(f.nbctl.run("lr-lb-list", "shalb-dev")).contains("shared-lb").contains("api-tcp");
    }

    /** Records an event of the watched row or of a router or switch, and every blip: the row gone, its VIP or a reference lost. */
    private static void watch(CacheEvent e, UUID lb, List<String> blips, List<Row> seen) {
        if (e instanceof CacheEvent.Deleted d && d.uuid().equals(lb)) {
            blips.add("row deleted");
        } else if (e instanceof CacheEvent.Updated u && u.table().equals("Load_Balancer") && u.uuid().equals(lb)) {
            seen.add(u.newRow());
            if (!((Map<?, ?>) u.newRow().get("vips")).containsKey("168.119.17.52:80")) {
                blips.add("VIP missing in " + u.newRow());
            }
        } else if (e instanceof CacheEvent.Updated u && !u.table().equals("Load_Balancer")
                && ((Set<?>) u.oldRow().get("load_balancer")).contains(lb) && !((Set<?>) u.newRow().get("load_balancer")).contains(lb)) {
            blips.add(u.table() + " " + u.newRow().get("name") + " lost the reference");
        }
    }

    private static Map<?, ?> ids(Row r) {
        return (Map<?, ?>) r.get("external_ids");
    }
}
