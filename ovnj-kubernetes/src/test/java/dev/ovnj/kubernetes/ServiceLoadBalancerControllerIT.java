package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller between fabric8's mock API server in CRUD mode (informers, status subresource,
 * finalizers, Events; no server-side apply, so the controller runs with it off) and a real
 * Northbound ovsdb-server, cross-checked with ovn-nbctl.
 */
@EnableKubernetesMockClient(crud = true)
class ServiceLoadBalancerControllerIT {
    static final Duration WAIT = Duration.ofSeconds(30);
    static final String ROUTER = "shop-gw";
    static final String EXTERNAL_PORT = "shop-gw-ext";
    static final String SWITCH = "shop-default";
    /** The lowest free address of 168.119.17.48/28: .48 is the network, .51 the port's own. */
    static final String FIRST_EIP = "168.119.17.49";
    static final String SECOND_EIP = "168.119.17.50";

    KubernetesClient kube;

    private OvsdbServer server;
    private Nbctl nbctl;
    private final java.util.List<AutoCloseable> open = new java.util.ArrayList<>();

    @BeforeEach
    void startDatabase() {
        server = OvsdbServer.start();
        nbctl = Nbctl.of(server);
        nbctl.run("lr-add", ROUTER);
        nbctl.run("lrp-add", ROUTER, EXTERNAL_PORT, "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", SWITCH);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        server.close();
    }

    static ControllerSettings settings() {
        return ControllerSettings.of(ROUTER, EXTERNAL_PORT).withSwitch(SWITCH).withServerSideApply(false)
                .withRetryAfter(Duration.ofSeconds(1));
    }

    /** A client, an engine and a controller on them, started. */
    OvnjKubernetesController controller(ControllerSettings settings, java.util.function.UnaryOperator<OvnjKubernetesController.Builder> more) {
        OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        open.add(client);
        LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start();
        open.add(engine);
        client.startAndWait(WAIT);
        OvnjKubernetesController controller = more.apply(OvnjKubernetesController.builder(kube, client, engine, settings)
                .exitOnStopLeading(false)).build();
        open.add(controller);
        return controller.start();
    }

    @Test
    void exposesScalesFollowsReadinessAndWithdrawsAService() {
        controller(settings(), b -> b);
        kube.resource(loadBalancer("web")).create();
        kube.resource(slice("web-abcde", "web", "10.1.0.10", "10.1.0.11")).create();

        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080\"}");
        awaitVips("shop/web-udp", "{\"" + FIRST_EIP + ":53\"=\"10.1.0.10:5353,10.1.0.11:5353\"}");
        assertThat(nbctl.run("lr-lb-list", ROUTER)).contains(FIRST_EIP + ":80").contains(FIRST_EIP + ":53");
        assertThat(nbctl.run("ls-lb-list", SWITCH)).contains(FIRST_EIP + ":80");
        assertThat(claims()).isEqualTo("{ovnj.eip." + FIRST_EIP + "=\"shop/web\"}");
        Await.until(WAIT, "ingress and condition published", () -> ingress("web").equals(List.of(FIRST_EIP))
                && condition("web").map(c -> c.getStatus().equals("True") && c.getReason().equals("APPLIED")).orElse(false));
        assertThat(service("web").getMetadata().getFinalizers()).contains(ControllerSettings.FINALIZER);
        Await.until(WAIT, "an APPLIED Event", () -> events("web").stream()
                .anyMatch(e -> e.getReason().equals("APPLIED") && e.getType().equals("Normal")));

        // Scale up, then a pod turns unready: only ready endpoints are backends.
        kube.resource(slice("web-abcde", "web", "10.1.0.10", "10.1.0.11", "10.1.0.12")).update();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080,10.1.0.12:8080\"}");
        kube.resource(slice("web-abcde", "web", "10.1.0.12")).update();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.12:8080\"}");
        awaitVips("shop/web-udp", "{\"" + FIRST_EIP + ":53\"=\"10.1.0.12:5353\"}");

        // A Service switching type loses its load balancer, address and finalizer, and gets them back.
        kube.services().inNamespace(NAMESPACE).withName("web").edit(s -> {
            s.getSpec().setType("ClusterIP");
            return s;
        });
        Await.until(WAIT, "withdrawn on type ClusterIP", () -> lbNames().isEmpty() && claims().equals("{}")
                && !service("web").getMetadata().getFinalizers().contains(ControllerSettings.FINALIZER)
                && ingress("web").isEmpty());
        kube.services().inNamespace(NAMESPACE).withName("web").edit(s -> {
            s.getSpec().setType("LoadBalancer");
            return s;
        });
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.12:8080\"}");

        // Deleting the Service removes the rows and the claim before the finalizer goes.
        kube.resource(service("web")).delete();
        Await.until(WAIT, "rows, claim and Service gone", () -> lbNames().isEmpty() && claims().equals("{}")
                && service("web") == null);
        assertThat(nbctl.run("lr-lb-list", ROUTER)).isEmpty();
    }

    @Test
    void aRequestedAddressIsUsedAndATakenOneIsReportedAsAConflict() {
        controller(settings(), b -> b);
        Service asked = loadBalancer("api");
        asked.getSpec().setLoadBalancerIP(SECOND_EIP);
        kube.resource(asked).create();
        awaitVips("shop/api-tcp", "{\"" + SECOND_EIP + ":80\"=\"\"}");
        Await.until(WAIT, "ingress " + SECOND_EIP, () -> ingress("api").equals(List.of(SECOND_EIP)));

        Service greedy = loadBalancer("greedy");
        greedy.getMetadata().setAnnotations(java.util.Map.of(ServiceAnnotations.ADDRESSES, SECOND_EIP));
        kube.resource(greedy).create();
        Await.until(WAIT, "AddressConflict condition and Warning Event", () -> condition("greedy")
                .map(c -> c.getReason().equals("AddressConflict") && c.getMessage().contains("shop/api")).orElse(false)
                && events("greedy").stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("AddressConflict")));
        assertThat(ingress("greedy")).isEmpty();

        // A foreign load balancer on the address another Service asks for: the engine's CONFLICT.
        nbctl.run("lb-add", "foreign", FIRST_EIP + ":80", "10.9.9.9:80");
        nbctl.run("lr-lb-add", ROUTER, "foreign");
        Service clash = loadBalancer("clash");
        clash.getSpec().setLoadBalancerIP(FIRST_EIP);
        kube.resource(clash).create();
        Await.until(WAIT, "CONFLICT condition", () -> condition("clash")
                .map(c -> c.getStatus().equals("False") && c.getReason().equals("CONFLICT")).orElse(false)
                && events("clash").stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("CONFLICT")));
        assertThat(nbctl.run("get", "Load_Balancer", "foreign", "vips")).contains("10.9.9.9:80");
    }

    @Test
    void servesOnlyItsLoadBalancerClass() {
        controller(settings().withLoadBalancerClass("ovnj.dev/ovn"), b -> b);
        Service other = loadBalancer("other");
        kube.resource(other).create();
        Service mine = loadBalancer("mine");
        mine.getSpec().setLoadBalancerClass("ovnj.dev/ovn");
        kube.resource(mine).create();
        awaitVips("shop/mine-tcp", "{\"" + FIRST_EIP + ":80\"=\"\"}");
        assertThat(lbNames()).doesNotContain("shop/other-tcp");
        assertThat(service("other").getMetadata().getFinalizers()).isNullOrEmpty();
    }

    Service service(String name) {
        return kube.services().inNamespace(NAMESPACE).withName(name).get();
    }

    List<String> ingress(String name) {
        Service s = service(name);
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).toList();
    }

    Optional<Condition> condition(String name) {
        Service s = service(name);
        return s == null ? Optional.empty() : LoadBalancerCondition.current(s);
    }

    List<Event> events(String name) {
        return kube.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(name)).toList();
    }

    String claims() {
        return nbctl.run("get", "Logical_Router_Port", EXTERNAL_PORT, "external_ids");
    }

    List<String> lbNames() {
        String out = nbctl.run("--bare", "--columns=name", "list", "Load_Balancer");
        return out.isBlank() ? List.of() : List.of(out.trim().split("\\s+"));
    }

    /** Waits for a Load_Balancer row's exact vips, tolerating that the row does not exist yet. */
    void awaitVips(String row, String vips) {
        Await.until(WAIT, row + " vips " + vips, () -> {
            try {
                return nbctl.run("get", "Load_Balancer", row, "vips").equals(vips);
            } catch (NbctlException notYet) {
                return false;
            }
        });
    }
}
