package dev.ovnj.kubernetes;


import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import static dev.ovnj.kubernetes.Kube.NAMESPACE;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the controller's tests share: fabric8's mock API server in CRUD mode (informers, status
 * subresource, finalizers, Events, Leases; no server-side apply, so the controller runs with it
 * off) and a real Northbound ovsdb-server per test, cross-checked with ovn-nbctl.
 */
abstract class ControllerTestBase {
    static final Duration WAIT = Duration.ofSeconds(30);
    static final String ROUTER = "shop-gw";
    static final String EXTERNAL_PORT = "shop-gw-ext";
    static final String SWITCH = "shop-default";
    /** The lowest free address of 168.119.17.48/28: .48 is the network, .51 the port's own. */
    static final String FIRST_EIP = "168.119.17.49";
    static final String SECOND_EIP = "168.119.17.50";

    KubernetesClient kube;
    KubernetesMockServer mock;

    OvsdbServer server;
    Nbctl nbctl;
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

    /** One controller process: its Northbound client, engine and controller. */
    record Replica(OvsdbClient client, LoadBalancerEngine engine, OvnjKubernetesController controller) implements AutoCloseable {
        @Override
        public void close() {
            controller.close();
            engine.close();
            client.close();
        }
    }

    /** A client, an engine and a controller on them, started (and closed after the test). */
    Replica replica(ControllerSettings settings, java.util.function.UnaryOperator<OvnjKubernetesController.Builder> more) {
        OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start();
        client.startAndWait(WAIT);
        OvnjKubernetesController controller = more.apply(OvnjKubernetesController.builder(kube, client, engine, settings)
                .exitOnStopLeading(false)).build();
        Replica replica = new Replica(client, engine, controller);
        open.add(replica);
        controller.start();
        return replica;
    }

    OvnjKubernetesController controller(ControllerSettings settings, java.util.function.UnaryOperator<OvnjKubernetesController.Builder> more) {
        return replica(settings, more).controller();
    }

    /**
     * Edits a Service as a user would, again on a 409: the controller writes the same Service
     * (finalizer, status) concurrently, so a test's read-modify-write can lose the race.
     */
    void editService(String name, java.util.function.UnaryOperator<Service> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                kube.services().inNamespace(NAMESPACE).withName(name).edit(change);
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    /** Creates the EipPool CRD of deploy/ in the mock API server. */
    void installPoolCrd() {
        try (java.io.InputStream crd = java.nio.file.Files.newInputStream(java.nio.file.Path.of("../deploy/eippool-crd.yaml"))) {
            kube.load(crd).create();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** An EipPool object (not created). */
    static EipPool pool(String name, EipPool.Spec spec) {
        EipPool p = new EipPool();
        p.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        p.setSpec(spec);
        return p;
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
