package dev.ovnj.examples.k8s;

import static dev.ovnj.examples.k8s.KubeObjects.NAMESPACE;
import static dev.ovnj.examples.k8s.KubeObjects.loadBalancer;
import static dev.ovnj.examples.k8s.KubeObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.examples.SeedTopology;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The controller between a CRUD-mode mock API server and a real Northbound ovsdb-server. */
@EnableKubernetesMockClient(crud = true)
class ServiceLoadBalancerControllerIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Project PROJECT =
            new Project(NAMESPACE, SeedTopology.ROUTER, SeedTopology.EXTERNAL_PORT, SeedTopology.SWITCH);
    private static final String EIP = SeedTopology.FIRST_EIP;

    KubernetesClient kube;

    @Test
    void exposesScalesAndWithdrawsAService() throws Exception {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                     .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
            Nbctl nbctl = Nbctl.of(server);
            SeedTopology.create(nbctl);
            client.startAndWait(WAIT);

            try (ServiceLoadBalancerController controller =
                         new ServiceLoadBalancerController(kube, engine, new EipAllocator(client), PROJECT)) {
                controller.start();
                kube.resource(loadBalancer("web")).create();
                kube.resource(slice("web-abcde", "web", "10.1.0.10", "10.1.0.11")).create();

                awaitVips(nbctl, "shalb-dev-web-tcp", "{\"" + EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080\"}");
                awaitVips(nbctl, "shalb-dev-web-udp", "{\"" + EIP + ":53\"=\"10.1.0.10:5353,10.1.0.11:5353\"}");
                assertThat(nbctl.run("lr-lb-list", SeedTopology.ROUTER)).contains(EIP + ":80").contains(EIP + ":53");
                assertThat(nbctl.run("ls-lb-list", SeedTopology.SWITCH)).contains(EIP + ":80").contains(EIP + ":53");
                assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-web-tcp", "external_ids:ovnj.owner"))
                        .isEqualTo("\"k8s/shalb-dev\"");
                assertThat(claims(nbctl)).isEqualTo("{ovnj.eip." + EIP + "=\"k8s/shalb-dev/web\"}");
                Await.until(WAIT, "ingress IP published", () -> ingressIp("web").equals(Optional.of(EIP)));

                kube.resource(slice("web-abcde", "web", "10.1.0.10", "10.1.0.11", "10.1.0.12")).update();
                awaitVips(nbctl, "shalb-dev-web-tcp", "{\"" + EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080,10.1.0.12:8080\"}");
                awaitVips(nbctl, "shalb-dev-web-udp", "{\"" + EIP + ":53\"=\"10.1.0.10:5353,10.1.0.11:5353,10.1.0.12:5353\"}");

                kube.resource(loadBalancer("web")).delete();
                Await.until(WAIT, "rows and claim gone",
                        () -> nbctl.run("--bare", "--columns=name", "list", "Load_Balancer").isEmpty()
                                && claims(nbctl).equals("{}"));
                assertThat(nbctl.run("lr-lb-list", SeedTopology.ROUTER)).isEmpty();

                // The released address is the lowest free one again.
                kube.resource(loadBalancer("api")).create();
                Await.until(WAIT, "next Service gets the released EIP", () -> ingressIp("api").equals(Optional.of(EIP)));
                assertThat(claims(nbctl)).isEqualTo("{ovnj.eip." + EIP + "=\"k8s/shalb-dev/api\"}");
            }
        }
    }

    private Optional<String> ingressIp(String service) {
        Service s = kube.services().inNamespace(NAMESPACE).withName(service).get();
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null) {
            return Optional.empty();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().findFirst().map(LoadBalancerIngress::getIp);
    }

    private static String claims(Nbctl nbctl) {
        return nbctl.run("get", "Logical_Router_Port", SeedTopology.EXTERNAL_PORT, "external_ids");
    }

    /** Waits for a Load_Balancer row's exact vips, tolerating that the row does not exist yet. */
    private static void awaitVips(Nbctl nbctl, String row, String vips) {
        Await.until(WAIT, row + " vips " + vips, () -> {
            try {
                return nbctl.run("get", "Load_Balancer", row, "vips").equals(vips);
            } catch (NbctlException notYet) {
                return false;
            }
        });
    }
}
