package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.Adoption;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceStatusBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Moving in from kube-dc / Kube-OVN in one step. The rows are as Kube-OVN writes them (its
 * source: {@code vendor=kube-ovn} in {@code external_ids}, one shared row per VPC and protocol,
 * {@code vpc-NAME-tcp-load}, holding every Service's VIPs, cluster IPs included); the Services
 * carry the addresses kube-dc published in their status. {@link BulkAdoption} lists which Service
 * takes which VIPs, then annotates them; the controller splits the shared row in place (and
 * adopts whole the row that served one Service alone) while a
 * second client watches every update: no VIP is ever absent from the router's load balancers.
 */
@EnableKubernetesMockClient(crud = true)
class KubeOvnMigrationIT extends ControllerTestBase {
    private static final String TCP_ROW = "vpc-shop-tcp-load";
    private static final String UDP_ROW = "vpc-shop-udp-load";
    /** A cluster IP Kube-OVN serves in the same row, of a Service the controller does not serve. */
    private static final String CLUSTER_VIP = "10.96.0.10:80";

    @Test
    void aBulkAdoptionSplitsKubeOvnsSharedRowsWithNoVipEverAbsent() throws Exception {
        nbctl.run("lb-add", TCP_ROW, FIRST_EIP + ":80", "10.1.0.10:8080", "tcp");
        nbctl.run("lb-add", TCP_ROW, SECOND_EIP + ":80", "10.1.0.20:8080", "tcp");
        nbctl.run("lb-add", TCP_ROW, CLUSTER_VIP, "10.1.0.30:8080", "tcp");
        nbctl.run("lb-add", UDP_ROW, FIRST_EIP + ":53", "10.1.0.10:5353", "udp");
        for (String row : List.of(TCP_ROW, UDP_ROW)) {
            nbctl.run("set", "Load_Balancer", row, "external_ids:vendor=kube-ovn");
            nbctl.run("lr-lb-add", ROUTER, row);
            nbctl.run("ls-lb-add", SWITCH, row);
        }
        String tcpUuid = nbctl.run("get", "Load_Balancer", TCP_ROW, "_uuid").trim();
        String udpUuid = nbctl.run("get", "Load_Balancer", UDP_ROW, "_uuid").trim();
        Set<String> watched = Set.of(FIRST_EIP + ":80", SECOND_EIP + ":80", CLUSTER_VIP, FIRST_EIP + ":53");

        // Two Services as kube-dc left them: served by Kube-OVN's rows, their EIPs in their status.
        kube.resource(slice("web-1", "web", "10.1.0.10")).create();
        kube.resource(slice("api-1", "api", "10.1.0.20")).create();
        published("web", FIRST_EIP);
        Service api = loadBalancer("api");
        api.getSpec().getPorts().removeIf(p -> p.getProtocol().equals("UDP"));
        published(api, SECOND_EIP);

        List<String> blips = new CopyOnWriteArrayList<>();
        try (OvsdbClient watcher = OvsdbClient.builder().remotes(server.remote())
                .monitor(MonitorRequest.tables("Load_Balancer", "Logical_Router")).build()) {
            VipWatch watch = new VipWatch(watched, blips);
            watcher.cache().addListener(events -> watch.apply(events));
            watcher.startAndWait(WAIT);
            Await.until(WAIT, "the watcher saw every VIP served", watch::allServed);

            // Before the controller runs (the old tool's Service controller stopped): plan, then annotate.
            BulkAdoption bulk = new BulkAdoption(kube, watcher, settings());
            // A misspelt owner matches nothing and says what would.
            BulkAdoption.Plan none = bulk.plan(Adoption.parse(List.of("owner:kube-dcc")));
            assertThat(none.moves()).isEmpty();
            assertThat(none.lines()).singleElement().asString().contains("owner:kube-dcc matches no load balancer")
                    .contains("closest: owner:kube-dc (2 rows)");

            Adoption selector = Adoption.parse(List.of("owner:kube-dc"));
            BulkAdoption.Plan plan = bulk.plan(selector);
            assertThat(plan.lines()).containsExactly(
                    "shop/api " + SECOND_EIP + ": splits " + TCP_ROW + " (takes " + SECOND_EIP + ":80)",
                    "shop/web " + FIRST_EIP + ": splits " + TCP_ROW + " (takes " + FIRST_EIP + ":80); adopts " + UDP_ROW
                            + " whole (" + FIRST_EIP + ":53)",
                    "stays in " + TCP_ROW + ": " + CLUSTER_VIP + " (no Service of this controller has that address and port)");
            assertThat(service("web").getMetadata().getAnnotations()).as("a plan writes nothing").isNullOrEmpty();

            assertThat(bulk.apply(selector, plan)).containsExactly("shop/api", "shop/web");
            assertThat(service("web").getMetadata().getAnnotations()).containsEntry(ServiceAnnotations.ADDRESSES, FIRST_EIP)
                    .containsEntry(ServiceAnnotations.ADOPT, "owner:kube-dc");
            replica(settings(), b -> b);
            for (String s : List.of("web", "api")) {
                Await.until(WAIT, s + " APPLIED", () -> condition(s).map(c -> c.getReason().equals("APPLIED")).orElse(false));
            }
            awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080\"}");
            awaitVips("shop/web-udp", "{\"" + FIRST_EIP + ":53\"=\"10.1.0.10:5353\"}");
            awaitVips("shop/api-tcp", "{\"" + SECOND_EIP + ":80\"=\"10.1.0.20:8080\"}");
            awaitVips(TCP_ROW, "{\"" + CLUSTER_VIP + "\"=\"10.1.0.30:8080\"}");
            Await.until(WAIT, "the watcher saw the split", () -> watch.servedBy(FIRST_EIP + ":80").equals(Set.of("shop/web-tcp")));
        }
        assertThat(blips).as("moments a VIP was in no load balancer of the router").isEmpty();
        // Split in place: Kube-OVN's shared row keeps its UUID, name, mark and attachments.
        assertThat(nbctl.run("get", "Load_Balancer", TCP_ROW, "_uuid").trim()).isEqualTo(tcpUuid);
        // The UDP row served web's VIP alone: adopted whole, the same row under web's name.
        assertThat(nbctl.run("get", "Load_Balancer", "shop/web-udp", "_uuid").trim()).isEqualTo(udpUuid);
        assertThat(nbctl.run("get", "Load_Balancer", TCP_ROW, "external_ids").trim()).isEqualTo("{vendor=kube-ovn}");
        assertThat(nbctl.run("lr-lb-list", ROUTER)).contains(tcpUuid).contains("shop/web-tcp").contains("shop/api-tcp");
        assertThat(ingress("web")).containsExactly(FIRST_EIP);
        assertThat(ingress("api")).containsExactly(SECOND_EIP);
        assertThat(claims()).contains("ovnj.eip." + FIRST_EIP + "=\"shop/web\"").contains("ovnj.eip." + SECOND_EIP + "=\"shop/api\"");
    }

    /** A Service annotated with a selector that matches nothing is refused, naming the closest markers. */
    @Test
    void anAdoptionSelectorThatMatchesNothingIsAnInvalidAnnotationListingTheClosest() {
        nbctl.run("lb-add", TCP_ROW, FIRST_EIP + ":80", "10.1.0.10:8080", "tcp");
        nbctl.run("set", "Load_Balancer", TCP_ROW, "external_ids:vendor=kube-ovn");
        controller(settings(), b -> b);
        Service web = loadBalancer("web");
        web.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, FIRST_EIP, ServiceAnnotations.ADOPT, "owner:kubedc"));
        kube.resource(web).create();
        Await.until(WAIT, "InvalidAnnotation", () -> condition("web").map(c -> c.getReason().equals("InvalidAnnotation")).orElse(false));
        assertThat(condition("web").orElseThrow().getMessage()).contains("owner:kubedc matches no load balancer")
                .contains("closest: owner:kube-dc (1 rows), owner:kube-ovn (1 rows)");
        assertThat(nbctl.run("get", "Load_Balancer", TCP_ROW, "vips")).contains(FIRST_EIP);
    }

    private void published(String name, String address) {
        published(loadBalancer(name), address);
    }

    private void published(Service s, String address) {
        kube.resource(s).create();
        Service created = service(s.getMetadata().getName());
        created.setStatus(new ServiceStatusBuilder().withNewLoadBalancer().addNewIngress().withIp(address).endIngress().endLoadBalancer()
                .build());
        kube.services().inNamespace(NAMESPACE).resource(created).updateStatus();
    }

    /**
     * Each batch the watcher applies (one committed transaction), kept as rows of its own: which
     * router-attached load balancer serves each watched VIP. A VIP served by none after a batch is
     * a blip.
     */
    private static final class VipWatch {
        private final Set<String> watched;
        private final List<String> blips;
        private final Map<UUID, Row> lbs = new HashMap<>();
        private Set<?> routerLbs = Set.of();
        private volatile Map<String, Set<String>> servedBy = Map.of();

        VipWatch(Set<String> watched, List<String> blips) {
            this.watched = watched;
            this.blips = blips;
        }

        synchronized void apply(List<CacheEvent> events) {
            for (CacheEvent e : events) {
                if (e instanceof CacheEvent.Inserted i) {
                    put(i.table(), i.row());
                } else if (e instanceof CacheEvent.Updated u) {
                    put(u.table(), u.newRow());
                } else if (e instanceof CacheEvent.Deleted d && d.table().equals("Load_Balancer")) {
                    lbs.remove(d.oldRow().uuid());
                }
            }
            Map<String, Set<String>> now = new HashMap<>();
            for (Row lb : lbs.values()) {
                if (routerLbs.contains(lb.uuid()) && lb.get("vips") instanceof Map<?, ?> vips) {
                    for (Object key : vips.keySet()) {
                        now.computeIfAbsent(String.valueOf(key), k -> new java.util.TreeSet<>()).add(String.valueOf(lb.get("name")));
                    }
                }
            }
            if (!servedBy.isEmpty()) {
                for (String vip : watched) {
                    if (!now.containsKey(vip)) {
                        blips.add(vip + " served by no load balancer of the router after " + events);
                    }
                }
            }
            if (watched.stream().allMatch(now::containsKey)) {
                servedBy = now;
            }
        }

        private void put(String table, Row row) {
            if (table.equals("Load_Balancer")) {
                lbs.put(row.uuid(), row);
            } else if (table.equals("Logical_Router") && ROUTER.equals(row.get("name"))) {
                routerLbs = row.get("load_balancer") instanceof Set<?> s ? s : Set.of();
            }
        }

        boolean allServed() {
            return !servedBy.isEmpty();
        }

        Set<String> servedBy(String vip) {
            return servedBy.getOrDefault(vip, Set.of());
        }
    }
}
