package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * EipPools: one controller process serves two project routers (r-a, r-b) and the command line's
 * router (shop-gw), each Service from its pool; pools scoped by namespace, named by annotation,
 * invalid, exhausted, edited and deleted. One ovsdb-server, one mock API server and one controller
 * for the whole class; each test has namespaces of its own. Throughout, a poller reads every
 * Service's ingress: an address once published never changes or disappears while the Service exists.
 */
@EnableKubernetesMockClient(crud = true)
class EipPoolControllerIT {
    private static final Duration WAIT = ControllerTestBase.WAIT;

    static KubernetesClient kube;
    static KubernetesMockServer mock;

    private static OvsdbServer server;
    private static Nbctl nbctl;
    private static OvsdbClient client;
    private static LoadBalancerEngine engine;
    private static OvnjKubernetesController controller;
    private static Thread poller;
    private static volatile boolean polling = true;
    /** Each Service's first published ingress. */
    private static final Map<String, List<String>> firstIngress = new ConcurrentHashMap<>();
    private static final List<String> moved = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        server = OvsdbServer.start();
        nbctl = Nbctl.of(server);
        nbctl.run("lr-add", ControllerTestBase.ROUTER);
        nbctl.run("lrp-add", ControllerTestBase.ROUTER, ControllerTestBase.EXTERNAL_PORT, "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", ControllerTestBase.SWITCH);
        for (String p : List.of("a", "b")) {
            nbctl.run("lr-add", "r-" + p);
            nbctl.run("lrp-add", "r-" + p, "r-" + p + "-ext", "02:00:00:00:01:0" + (p.equals("a") ? 1 : 2),
                    "172.3" + (p.equals("a") ? 0 : 1) + ".0.1/24");
            nbctl.run("ls-add", "s-" + p);
        }
        try (InputStream crd = Files.newInputStream(Path.of("../deploy/eippool-crd.yaml"))) {
            kube.load(crd).create();
        }
        createPool(pool("project-a", "r-a", "s-a", List.of("172.30.0.100-172.30.0.102"), List.of("project-a"), null));
        createPool(pool("project-b", "r-b", "s-b", List.of("172.31.0.128/28"), List.of("project-b"), null));

        startController();
        awaitPoolCondition("project-a", EipPoolStatusWriter.READY, "True", "");
        awaitPoolCondition("project-b", EipPoolStatusWriter.READY, "True", "");

        poller = new Thread(EipPoolControllerIT::poll, "ingress-poller");
        poller.setDaemon(true);
        poller.start();
    }

    /** A Northbound client, an engine and a controller on them, as one controller process has. */
    private static void startController() {
        client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        engine = LoadBalancerEngine.builder(client).build().start();
        client.startAndWait(WAIT);
        controller = OvnjKubernetesController.builder(kube, client, engine, ControllerTestBase.settings()).exitOnStopLeading(false)
                .build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        polling = false;
        if (poller != null) {
            poller.join(WAIT.toMillis());
        }
        if (controller != null) {
            controller.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (client != null) {
            client.close();
        }
        server.close();
    }

    @AfterEach
    void noAddressMoved() {
        assertThat(moved).as("Services whose published address changed or vanished").isEmpty();
    }

    @Test
    void oneProcessServesTwoProjectRoutersEachServiceFromItsNamespacesPool() {
        create("project-a", "web", s -> s);
        create("project-b", "web", s -> s);
        create("shop", "web", s -> s);
        awaitIngress("project-a", "web", "172.30.0.100");
        awaitIngress("project-b", "web", "172.31.0.128");
        // The command line's port (another test's Service may have its first address).
        Await.until(WAIT, "shop/web on shop-gw-ext", () -> ingress("shop", "web").size() == 1
                && ingress("shop", "web").get(0).startsWith("168.119.17."));
        String shop = ingress("shop", "web").get(0);

        assertThat(nbctl.run("lr-lb-list", "r-a")).contains("172.30.0.100:80").doesNotContain("172.31.0.128");
        assertThat(nbctl.run("ls-lb-list", "s-a")).contains("172.30.0.100:80");
        assertThat(nbctl.run("lr-lb-list", "r-b")).contains("172.31.0.128:80").doesNotContain("172.30.0.100");
        assertThat(nbctl.run("ls-lb-list", "s-b")).contains("172.31.0.128:80");
        assertThat(nbctl.run("lr-lb-list", ControllerTestBase.ROUTER)).contains(shop + ":80").doesNotContain("172.3");
        assertThat(nbctl.run("get", "Logical_Router_Port", "r-a-ext", "external_ids")).contains("ovnj.eip.172.30.0.100=\"project-a/web\"");
        assertThat(nbctl.run("get", "Logical_Router_Port", "r-b-ext", "external_ids")).contains("ovnj.eip.172.31.0.128=\"project-b/web\"");

        Await.until(WAIT, "project-a's status counts the address", () -> status("project-a")
                .map(st -> Long.valueOf(1).equals(st.allocated()) && Long.valueOf(2).equals(st.free())).orElse(false));
        Await.until(WAIT, "project-b's status counts the address", () -> status("project-b")
                .map(st -> Long.valueOf(1).equals(st.allocated()) && Long.valueOf(15).equals(st.free())).orElse(false));
    }

    @Test
    void anAnnotationPicksAPoolInItsNamespacesAndAPoolThatDoesNotAutoAssignIsOnlyHadByName() {
        createPool(pool("g", "r-a", "s-a", List.of("172.30.0.120-172.30.0.121"), List.of("project-g"), null));
        createPool(pool("g-public", "r-a", "s-a", List.of("172.30.0.200-172.30.0.201"), List.of("project-g"), false));
        awaitPoolCondition("g", EipPoolStatusWriter.READY, "True", "");
        awaitPoolCondition("g-public", EipPoolStatusWriter.READY, "True", "");

        create("project-g", "plain", s -> s);
        awaitIngress("project-g", "plain", "172.30.0.120");
        create("project-g", "public", s -> annotate(s, EipPools.ANNOTATION, "g-public"));
        awaitIngress("project-g", "public", "172.30.0.200");
        assertThat(nbctl.run("lr-lb-list", "r-a")).contains("172.30.0.120:80", "172.30.0.200:80");

        create("project-b", "sneaky", s -> annotate(s, EipPools.ANNOTATION, "g-public"));
        awaitCondition("project-b", "sneaky", "PlacementNotAllowed", "EipPool g-public serves the namespaces [project-g] only, not project-b");
        create("project-b", "typo", s -> annotate(s, EipPools.ANNOTATION, "nope"));
        awaitCondition("project-b", "typo", "PoolNotFound", "no EipPool named nope");
        create("project-g", "asks", s -> {
            s.getSpec().setLoadBalancerIP("172.30.0.150");
            return s;
        });
        awaitCondition("project-g", "asks", "AddressInvalid",
                "requested address 172.30.0.150 is not in the addresses of EipPool g (172.30.0.120-172.30.0.121)");
        assertThat(claims("r-a-ext")).doesNotContain("project-b/").doesNotContain("project-g/asks");

        // The pool it names deleted, a Service keeps its address and says so, still applied.
        kube.resources(EipPool.class).withName("g-public").delete();
        awaitCondition("project-g", "public", "APPLIED",
                "ovnj.dev/eip-pool: no EipPool named g-public; keeps 172.30.0.200 on Logical_Router_Port r-a-ext");
        assertThat(nbctl.run("lr-lb-list", "r-a")).contains("172.30.0.200:80");
    }

    @Test
    void aPoolOutsideItsPortsNetworksOrOverlappingAnOlderPoolIsInvalidAndGivesOutNothing() {
        createPool(pool("elsewhere", "r-b", null, List.of("10.9.0.1-10.9.0.5"), List.of("project-c"), null));
        awaitPoolCondition("elsewhere", EipPoolStatusWriter.READY, "False",
                "10.9.0.1-10.9.0.5 is outside 172.31.0.0/24, the network of Logical_Router_Port r-b-ext");
        createPool(pool("greedy", "r-a", null, List.of("172.30.0.101-172.30.0.110"), List.of("project-d"), null));
        awaitPoolCondition("greedy", EipPoolStatusWriter.READY, "False",
                "172.30.0.101-172.30.0.110 overlaps the addresses of EipPool project-a (172.30.0.100-172.30.0.102), which is older");
        assertThat(status("project-a").orElseThrow().conditions()).anyMatch(c -> c.getType().equals(EipPoolStatusWriter.READY)
                && c.getStatus().equals("True"));
        assertThat(status("greedy").orElseThrow().free()).isZero();

        create("project-c", "x", s -> s);
        create("project-d", "x", s -> s);
        awaitCondition("project-c", "x", "PoolInvalid", "EipPool elsewhere is Invalid and gives out no address: spec.addresses: 10.9.0.1");
        awaitCondition("project-d", "x", "PoolInvalid", "EipPool greedy is Invalid");
        Await.until(WAIT, "a Warning Event naming the pool", () -> kube.v1().events().inNamespace("project-c").list().getItems().stream()
                .anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("PoolInvalid") && e.getMessage().contains("elsewhere")));
        assertThat(claims("r-b-ext")).doesNotContain("project-c/");
        assertThat(claims("r-a-ext")).doesNotContain("project-d/");

        // Mended, the pool gives out its first address to the Service waiting for it.
        editPool("elsewhere", p -> p.getSpec().addresses().set(0, "172.31.0.40-172.31.0.41"));
        awaitPoolCondition("elsewhere", EipPoolStatusWriter.READY, "True", "");
        awaitIngress("project-c", "x", "172.31.0.40");
        assertThat(nbctl.run("lr-lb-list", "r-b")).contains("172.31.0.40:80");

        // Broken again: the Service keeps what it was given, and says why it is not the pool's doing.
        editPool("elsewhere", p -> p.getSpec().addresses().set(0, "10.9.0.1-10.9.0.5"));
        awaitCondition("project-c", "x", "APPLIED", "EipPool elsewhere is Invalid (spec.addresses: 10.9.0.1-10.9.0.5 is outside"
                + " 172.31.0.0/24, the network of Logical_Router_Port r-b-ext that its addresses are given from); keeps 172.31.0.40");
        assertThat(nbctl.run("lr-lb-list", "r-b")).contains("172.31.0.40:80");
        assertThat(nbctl.run("ls-lb-list", "s-b")).doesNotContain("172.31.0.40");
    }

    @Test
    void anExhaustedPoolIsAddressUnavailableUntilAnAddressIsFreed() {
        createPool(pool("tiny", "r-b", null, List.of("172.31.0.10-172.31.0.11"), List.of("project-e"), null));
        awaitPoolCondition("tiny", EipPoolStatusWriter.READY, "True", "");
        create("project-e", "e1", s -> s);
        awaitIngress("project-e", "e1", "172.31.0.10");
        create("project-e", "e2", s -> s);
        awaitIngress("project-e", "e2", "172.31.0.11");
        create("project-e", "e3", s -> s);
        awaitCondition("project-e", "e3", "AddressUnavailable", "EipPool tiny (172.31.0.10-172.31.0.11): no free address left");
        Await.until(WAIT, "tiny's status: 2 allocated, 0 free", () -> status("tiny")
                .map(st -> Long.valueOf(2).equals(st.allocated()) && Long.valueOf(0).equals(st.free())).orElse(false));

        kube.services().inNamespace("project-e").withName("e1").delete();
        Await.until(WAIT, "e1 gone", () -> service("project-e", "e1") == null);
        firstIngress.remove("project-e/e1");
        awaitIngress("project-e", "e3", "172.31.0.10");
        assertThat(claims("r-b-ext")).contains("ovnj.eip.172.31.0.10=\"project-e/e3\"").doesNotContain("project-e/e1");
    }

    @Test
    void editingOrDeletingAPoolMovesNoAddressAndSaysSo() {
        createPool(pool("movable", "r-b", "s-b", List.of("172.31.0.20-172.31.0.23"), List.of("project-f"), null));
        awaitPoolCondition("movable", EipPoolStatusWriter.READY, "True", "");
        create("project-f", "f1", s -> s);
        awaitIngress("project-f", "f1", "172.31.0.20");
        create("project-f", "f2", s -> s);
        awaitIngress("project-f", "f2", "172.31.0.21");

        // Shrunk under its Services: they keep their addresses, and both statuses say so.
        editPool("movable", p -> p.getSpec().addresses().set(0, "172.31.0.22-172.31.0.23"));
        awaitPoolCondition("movable", EipPoolStatusWriter.KEPT, "True", "project-f/f1 keeps 172.31.0.20; project-f/f2 keeps 172.31.0.21");
        awaitCondition("project-f", "f1", "APPLIED", "keeps 172.31.0.20, outside the addresses of EipPool movable (172.31.0.22-172.31.0.23)");
        create("project-f", "f3", s -> s);
        awaitIngress("project-f", "f3", "172.31.0.22");

        // Deleted: its Services stay on r-b and s-b with their addresses; a new one gets the command line's.
        kube.resources(EipPool.class).withName("movable").delete();
        awaitCondition("project-f", "f1", "APPLIED", "keeps 172.31.0.20 on Logical_Router_Port r-b-ext");
        awaitCondition("project-f", "f3", "APPLIED", "no valid EipPool serves that port now");
        create("project-f", "f4", s -> s);
        Await.until(WAIT, "f4 on the command line's port", () -> ingress("project-f", "f4").size() == 1
                && ingress("project-f", "f4").get(0).startsWith("168.119.17."));
        for (String ip : List.of("172.31.0.20", "172.31.0.21", "172.31.0.22")) {
            assertThat(nbctl.run("lr-lb-list", "r-b")).contains(ip + ":80");
            assertThat(nbctl.run("ls-lb-list", "s-b")).contains(ip + ":80");
        }
        assertThat(claims("r-b-ext")).contains("ovnj.eip.172.31.0.20=\"project-f/f1\"", "ovnj.eip.172.31.0.21=\"project-f/f2\"",
                "ovnj.eip.172.31.0.22=\"project-f/f3\"");
        assertThat(nbctl.run("lr-lb-list", ControllerTestBase.ROUTER)).doesNotContain("172.31.0.2");
    }

    @Test
    void aRestartedControllerKeepsEveryPoolsServicesWhereTheyAre() {
        createPool(pool("h", "r-b", "s-b", List.of("172.31.0.60-172.31.0.61"), List.of("project-h"), null));
        awaitPoolCondition("h", EipPoolStatusWriter.READY, "True", "");
        create("project-h", "h1", s -> s);
        awaitIngress("project-h", "h1", "172.31.0.60");
        // Shrunk under h1: after the restart it must still keep .60, and h2 must not get it.
        editPool("h", p -> p.getSpec().addresses().set(0, "172.31.0.61"));
        awaitPoolCondition("h", EipPoolStatusWriter.KEPT, "True", "project-h/h1 keeps 172.31.0.60");
        List<String> applied = kube.services().inAnyNamespace().list().getItems().stream()
                .filter(s -> LoadBalancerCondition.current(s).map(c -> c.getStatus().equals("True")).orElse(false))
                .map(ServiceSpecs::specName).toList();
        String rows = nbctl.run("--bare", "--columns=_uuid,name,vips", "list", "Load_Balancer");
        List<String> held = claimEntries();

        controller.close();
        engine.close();
        client.close();
        startController();
        Await.until(WAIT, "the new controller placed every applied Service " + applied,
                () -> controller.reconciler().placements().keySet().containsAll(applied));
        create("project-h", "h2", s -> s);
        awaitIngress("project-h", "h2", "172.31.0.61");
        // Every claim and every row (same UUID, name and VIPs) as before the restart.
        assertThat(claimEntries()).containsAll(held);
        assertThat(nbctl.run("--bare", "--columns=_uuid,name,vips", "list", "Load_Balancer")).contains(rows.trim().split("\n\n"));
        awaitCondition("project-h", "h1", "APPLIED", "keeps 172.31.0.60, outside the addresses of EipPool h (172.31.0.61)");
    }

    // --- fixtures

    private static EipPool pool(String name, String router, String sw, List<String> addresses, List<String> namespaces,
                                Boolean autoAssign) {
        EipPool p = new EipPool();
        p.setMetadata(new ObjectMetaBuilder().withName(name).build());
        p.setSpec(new EipPool.Spec(router, router + "-ext", sw, null, new java.util.ArrayList<>(addresses), namespaces, autoAssign));
        return p;
    }

    private static void createPool(EipPool pool) {
        kube.resource(pool).create();
    }

    private static void editPool(String name, java.util.function.Consumer<EipPool> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                kube.resources(EipPool.class).withName(name).edit(p -> {
                    change.accept(p);
                    return p;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    private static Optional<EipPool.Status> status(String pool) {
        EipPool p = kube.resources(EipPool.class).withName(pool).get();
        return p == null ? Optional.empty() : Optional.ofNullable(p.getStatus());
    }

    private static void awaitPoolCondition(String pool, String type, String status, String message) {
        Await.until(WAIT, "EipPool " + pool + " " + type + "=" + status + " saying " + message, () -> status(pool)
                .map(st -> st.conditions() != null && st.conditions().stream().anyMatch(c -> c.getType().equals(type)
                        && c.getStatus().equals(status) && c.getMessage().contains(message))).orElse(false));
    }

    private static void create(String namespace, String name, UnaryOperator<Service> change) {
        Service s = Kube.loadBalancer(name);
        s.getMetadata().setNamespace(namespace);
        kube.resource(change.apply(s)).create();
    }

    private static Service annotate(Service s, String key, String value) {
        s.getMetadata().setAnnotations(Map.of(key, value));
        return s;
    }

    private static Service service(String namespace, String name) {
        return kube.services().inNamespace(namespace).withName(name).get();
    }

    private static List<String> ingress(String namespace, String name) {
        return ingressOf(service(namespace, name));
    }

    private static List<String> ingressOf(Service s) {
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).toList();
    }

    private static void awaitIngress(String namespace, String name, String ip) {
        Await.until(WAIT, namespace + "/" + name + " published " + ip, () -> ingress(namespace, name).equals(List.of(ip)));
    }

    private static void awaitCondition(String namespace, String name, String reason, String message) {
        Await.until(WAIT, namespace + "/" + name + " " + reason + " saying " + message, () -> {
            Service s = service(namespace, name);
            Optional<Condition> c = s == null ? Optional.empty() : LoadBalancerCondition.current(s);
            return c.map(x -> x.getReason().equals(reason) && x.getMessage().contains(message)).orElse(false);
        });
    }

    /** Every claim on the three external ports, as {@code ovnj.eip.IP="ns/name"}. */
    private static List<String> claimEntries() {
        return java.util.stream.Stream.of("r-a-ext", "r-b-ext", ControllerTestBase.EXTERNAL_PORT)
                .flatMap(p -> java.util.Arrays.stream(claims(p).replaceAll("[{}]", "").split(", ")))
                .filter(e -> !e.isBlank()).toList();
    }

    private static String claims(String port) {
        return nbctl.run("get", "Logical_Router_Port", port, "external_ids");
    }

    /** Records every Service whose published address changes or vanishes while it exists. */
    private static void poll() {
        while (polling) {
            try {
                for (Service s : kube.services().inAnyNamespace().list().getItems()) {
                    String key = s.getMetadata().getNamespace() + "/" + s.getMetadata().getName();
                    List<String> now = ingressOf(s);
                    List<String> first = now.isEmpty() ? firstIngress.get(key) : firstIngress.putIfAbsent(key, now);
                    if (first != null && !first.equals(now) && s.getMetadata().getDeletionTimestamp() == null) {
                        moved.add(key + ": " + first + " -> " + now);
                    }
                }
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The mock server closing at the end; the next round or the end of polling decides.
            }
        }
    }
}
