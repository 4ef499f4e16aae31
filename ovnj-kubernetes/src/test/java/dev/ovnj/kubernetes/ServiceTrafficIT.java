package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.EchoServer;
import dev.ovnj.testkit.EipTopology;
import dev.ovnj.testkit.Host;
import dev.ovnj.testkit.Prober;
import dev.ovnj.testkit.ProbeReport;
import dev.ovnj.testkit.Reply;
import dev.ovnj.testkit.Transport;
import dev.ovnj.testkit.junit.ChassisExtension;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The controller with real packets: a Service of type LoadBalancer whose EndpointSlice points at
 * backends in their own network namespaces ({@link EipTopology} on a {@link Chassis}, with
 * ovs-vswitchd and ovn-controller) answers on the EIP the controller assigned it, from every ready
 * endpoint, over TCP and UDP; with no ready endpoint a TCP client is refused at once (RST); a ready
 * endpoint again answers; deleting the Service silences the EIP. The API server is fabric8's CRUD
 * mock, as in the controller's other tests.
 */
@EnableKubernetesMockClient(crud = true)
class ServiceTrafficIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final ChassisExtension DATA_PLANE = new ChassisExtension();

    KubernetesClient kube;

    @Test
    void aServiceAnswersOnItsEipFromItsReadyEndpointsRefusesWithoutAnyAndGoesSilentWhenDeleted() {
        Chassis chassis = DATA_PLANE.chassis();
        EipTopology net = EipTopology.create(chassis);
        Host b1 = net.backends().get(0);
        Host b2 = net.backends().get(1);
        Host client = net.client();
        try (EchoServer web1 = b1.serve(8080); EchoServer web2 = b2.serve(8080);
                EchoServer dns1 = b1.serve(5353); EchoServer dns2 = b2.serve(5353);
                OvsdbClient nb = OvsdbClient.builder().remotes(chassis.northbound().remote())
                        .monitor(LoadBalancerEngine.monitorRequest()).build();
                LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).build().start()) {
            nb.startAndWait(WAIT);
            try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, nb, engine,
                    ControllerSettings.of(EipTopology.ROUTER, EipTopology.EXTERNAL_PORT).withSwitch(EipTopology.PROJECT_SWITCH)
                            .withServerSideApply(false)).build().start()) {
                kube.resource(Kube.loadBalancer("web")).create();
                kube.resource(Kube.slice("web-a", "web", "10.1.0.11", "10.1.0.12")).create();
                Await.until(WAIT, "an EIP in the Service's status", () -> !ingress("web").isEmpty());
                String eip = ingress("web").get(0);
                assertThat(eip).startsWith("172.30.0.");

                client.requestUntil(Transport.TCP, eip, 80, Reply::answered, WAIT);
                try (Prober p = client.probe(Transport.TCP, eip, 80, Duration.ofMillis(10), Duration.ofSeconds(2))) {
                    Await.until(Duration.ofSeconds(20), "answers from both endpoints",
                            () -> p.report().answersBy().keySet().containsAll(Set.of("b1", "b2")));
                    ProbeReport report = p.stop();
                    assertThat(report.answersBy()).as("%s", report).containsOnlyKeys("b1", "b2");
                }
                assertThat(client.requestUntil(Transport.UDP, eip, 53, Reply::answered, WAIT).server()).isPresent();

                // Scaled to no ready endpoint: the VIP stays, without backends, and OVN refuses.
                kube.resource(Kube.slice("web-a", "web")).update();
                Reply refused = client.requestUntil(Transport.TCP, eip, 80, r -> r.outcome() == Reply.Outcome.REFUSED, WAIT);
                System.out.println("no ready endpoint: TCP " + eip + ":80 " + refused);

                kube.resource(Kube.slice("web-a", "web", "10.1.0.11")).update();
                client.requestUntil(Transport.TCP, eip, 80, r -> r.server().orElse("").equals("b1"), WAIT);

                kube.resource(Kube.loadBalancer("web")).delete();
                Reply silent = client.requestUntil(Transport.TCP, eip, 80,
                        r -> r.outcome() == Reply.Outcome.TIMEOUT || r.outcome() == Reply.Outcome.ERROR, WAIT);
                System.out.println("Service deleted: TCP " + eip + ":80 " + silent);
                for (int i = 0; i < 3; i++) {
                    assertThat(client.request(Transport.TCP, eip, 80, Duration.ofSeconds(1)).answered()).isFalse();
                }
            }
        }
    }

    private List<String> ingress(String name) {
        Service s = kube.services().inNamespace(Kube.NAMESPACE).withName(name).get();
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).toList();
    }
}
