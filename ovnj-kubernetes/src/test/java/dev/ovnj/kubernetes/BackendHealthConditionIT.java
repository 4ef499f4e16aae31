package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.Sbctl;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code ovnj.dev/health-check} end to end with ovn-northd and a Southbound connection: the
 * engine writes the health check and ip_port_mappings for the Service's ready endpoints, and
 * OVN's verdict on each backend (set with ovn-sbctl, as ovn-controller would) reaches the
 * Service's condition without waiting for a retry, and its roll-up the {@code ovnj.dev/BackendsHealthy}
 * condition and an Event per transition.
 */
@EnableKubernetesMockClient(crud = true)
class BackendHealthConditionIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    KubernetesClient kube;

    @Test
    void backendVerdictsReachTheCondition() {
        try (OvnCentral ovn = OvnCentral.start()) {
            Nbctl nbctl = ovn.nbctl();
            Sbctl sbctl = ovn.sbctl();
            BackendTopology.of(ovn).withSwitchSubnet().create();

            try (OvsdbClient nb = OvsdbClient.builder().remotes(ovn.northbound().remote())
                    .monitor(LoadBalancerEngine.monitorRequest()).build();
                 OvsdbClient sb = OvsdbClient.builder().remotes(ovn.southbound().remote()).database("OVN_Southbound")
                         .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(nb).southbound(sb).build().start()) {
                nb.startAndWait(WAIT);
                sb.startAndWait(WAIT);
                try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, nb, engine,
                        ControllerSettings.of("lr0", "lrp-ext").withSwitch("ls-int").withServerSideApply(false)
                                .withRetryAfter(Duration.ofMinutes(5))).build().start()) {
                    Service web = Kube.loadBalancer("web");
                    web.getSpec().getPorts().remove(1);
                    web.getMetadata().setAnnotations(Map.of(ServiceAnnotations.HEALTH_CHECK, "interval=5,source=10.0.0.254"));
                    kube.resource(web).create();
                    kube.resource(new EndpointSliceBuilder().withNewMetadata().withName("web-a").withNamespace(Kube.NAMESPACE)
                            .addToLabels(ServiceSpecs.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                            .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                            .addNewEndpoint().withAddresses("10.0.0.2").endEndpoint()
                            .addNewEndpoint().withAddresses("10.0.0.3").endEndpoint().build()).create();

                    Await.until(WAIT, "ip_port_mappings written", () -> {
                        try {
                            return nbctl.run("--bare", "--columns=ip_port_mappings", "find", "load_balancer", "name=\"shop/web-tcp\"")
                                    .trim().equals("10.0.0.2=web1:10.0.0.254 10.0.0.3=web2:10.0.0.254");
                        } catch (NbctlException notYet) {
                            return false;
                        }
                    });
                    assertThat(nbctl.run("--bare", "--columns=options", "list", "load_balancer_health_check")).contains("interval=5");

                    ovn.sync();
                    for (String p : new String[] {"web1", "web2"}) {
                        sbctl.run("set", "port_binding", uuid(sbctl, "port_binding", "logical_port=" + p), "up=true");
                    }
                    sbctl.run("set", "service_monitor", uuid(sbctl, "service_monitor", "logical_port=web1"), "status=offline");
                    sbctl.run("set", "service_monitor", uuid(sbctl, "service_monitor", "logical_port=web2"), "status=online");
                    // The retry is 5 minutes away: only the engine's news can bring the verdicts this soon.
                    Await.until(WAIT, "backend verdicts in the condition", () -> condition("web").map(Condition::getMessage)
                            .filter(m -> m.contains("10.0.0.2:8080=offline") && m.contains("10.0.0.3:8080=online")).isPresent());
                    // The roll-up: one backend of two out is DEGRADED, with a Warning Event; all back is ONLINE.
                    Await.until(WAIT, "BackendsHealthy DEGRADED", () -> backendsHealthy("web").filter(c -> c.getReason().equals("DEGRADED")
                            && c.getStatus().equals("False") && c.getMessage().contains("10.0.0.2:8080 error")).isPresent());
                    Await.until(WAIT, "DEGRADED Event", () -> events("DEGRADED").anyMatch(e -> e.getType().equals("Warning")));
                    sbctl.run("set", "service_monitor", uuid(sbctl, "service_monitor", "logical_port=web1"), "status=online");
                    Await.until(WAIT, "BackendsHealthy ONLINE", () -> backendsHealthy("web").filter(c -> c.getReason().equals("ONLINE")
                            && c.getStatus().equals("True")).isPresent());
                    Await.until(WAIT, "ONLINE Event", () -> events("ONLINE").anyMatch(e -> e.getType().equals("Normal")));
                    assertThat(events("DEGRADED").count()).as("one Event per transition").isEqualTo(1);
                }
            }
        }
    }

    private Optional<Condition> backendsHealthy(String name) {
        Service s = kube.services().inNamespace(Kube.NAMESPACE).withName(name).get();
        return s == null || s.getStatus() == null ? Optional.empty() : s.getStatus().getConditions().stream()
                .filter(c -> BackendsHealthyCondition.TYPE.equals(c.getType())).findFirst();
    }

    private java.util.stream.Stream<io.fabric8.kubernetes.api.model.Event> events(String reason) {
        return kube.v1().events().inNamespace(Kube.NAMESPACE).list().getItems().stream().filter(e -> reason.equals(e.getReason()));
    }

    private Optional<Condition> condition(String name) {
        Service s = kube.services().inNamespace(Kube.NAMESPACE).withName(name).get();
        return s == null ? Optional.empty() : LoadBalancerCondition.current(s);
    }

    private static String uuid(Sbctl sbctl, String table, String condition) {
        return sbctl.run("--bare", "--columns=_uuid", "find", table, condition).trim();
    }
}
