package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.diagnosis.OvnTrace;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.loadBalancerSourceRanges} from the API (CRUD mock) to OVN's flows: the controller
 * declares the ranges, the engine writes the router policies, and ovn-trace from the router's
 * external port shows a client inside the ranges DNATed to the endpoint's port and one outside
 * dropped. A range OVN cannot hold (the API server of this mock lets anything through) gives a
 * Warning Event and a False condition naming the field, and leaves the load balancer and its
 * policies exactly as they were.
 */
@EnableKubernetesMockClient(crud = true)
class SourceRangesControllerIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The lowest free address of lrp-ext's 172.16.0.0/24: .1 is the port's own. */
    private static final String EIP = "172.16.0.2";
    private static final String SPEC = "shop/web";

    KubernetesClient kube;

    @Test
    void theRangesReachOvnAndARangeOvnCannotHoldChangesNothing() {
        try (OvnCentral ovn = OvnCentral.start()) {
            Nbctl nbctl = ovn.nbctl();
            BackendTopology.of(ovn).withGateway().create();
            try (OvsdbClient client = OvsdbClient.builder().remotes(ovn.northbound().remote())
                    .monitor(LoadBalancerEngine.monitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                ControllerSettings settings = ControllerSettings.of("lr0", "lrp-ext").withSwitch("ls-int")
                        .withServerSideApply(false).withRetryAfter(Duration.ofSeconds(1));
                try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, client, engine, settings)
                        .exitOnStopLeading(false).build().start()) {
                    Service web = Kube.loadBalancer("web");
                    web.getSpec().setLoadBalancerSourceRanges(List.of("198.51.100.0/24"));
                    kube.resource(web).create();
                    kube.resource(Kube.slice("web-a", "web", "10.0.0.2")).create();
                    Await.until(WAIT, "web applied", () -> condition("web").map(c -> "APPLIED".equals(c.getReason()))
                            .orElse(false));
                    assertThat(nbctl.run("get", "Load_Balancer", SPEC + "-tcp", "vips")).isEqualTo("{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    String policies = policies(nbctl);
                    assertThat(policies).contains("ip4.src == 198.51.100.0/24").contains("allow").contains("drop");
                    // Attached to the router only: the switch's own load balancing would bypass the ranges.
                    assertThat(nbctl.run("ls-lb-list", "ls-int")).doesNotContain(SPEC);

                    ovn.sync();
                    OvnTrace trace = OvnTrace.of(ovn.southbound().remote()).withCommand(OvnRelease.current().command("ovn-trace"));
                    String inside = trace.trace("lr0", flow("198.51.100.7"));
                    assertThat(inside).as(inside).contains("backends=10.0.0.2:8080").contains("output to \"web1\"");
                    String outside = trace.trace("lr0", flow("192.0.2.1"));
                    assertThat(outside).as(outside).contains("backends=10.0.0.2:8080").contains("drop;")
                            .doesNotContain("output to \"web1\"");

                    kube.services().inNamespace(Kube.NAMESPACE).withName("web").edit(s -> {
                        s.getSpec().setLoadBalancerSourceRanges(List.of("198.51.100.0/24", "10.0.0.0/33"));
                        return s;
                    });
                    Await.until(WAIT, "SourceRangesUnsupported condition and Warning Event", () -> condition("web")
                            .map(c -> "False".equals(c.getStatus()) && SourceRanges.UNSUPPORTED.equals(c.getReason())).orElse(false)
                            && kube.v1().events().inNamespace(Kube.NAMESPACE).list().getItems().stream().anyMatch(e ->
                            "Warning".equals(e.getType()) && SourceRanges.UNSUPPORTED.equals(e.getReason())
                                    && e.getMessage().contains("spec.loadBalancerSourceRanges[1]")));
                    assertThat(condition("web").orElseThrow().getMessage()).contains("\"10.0.0.0/33\"");
                    assertThat(nbctl.run("get", "Load_Balancer", SPEC + "-tcp", "vips")).isEqualTo("{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    assertThat(policies(nbctl)).isEqualTo(policies);
                }
            }
        }
    }

    private static String flow(String source) {
        return "inport == \"lrp-ext\" && eth.src == 02:00:00:00:00:01 && eth.dst == 00:00:00:00:01:01"
                + " && ip4.src == " + source + " && ip4.dst == " + EIP + " && ip.ttl == 64 && tcp && tcp.dst == 80";
    }

    /** The Service's policies (uuid, priority, match, action), cross-checked with ovn-nbctl. */
    private static String policies(Nbctl nbctl) {
        try {
            return nbctl.run("--columns=_uuid,priority,match,action", "find", "logical_router_policy",
                    "external_ids:\"ovnj.spec\"=\"" + SPEC + "\"");
        } catch (NbctlException e) {
            return "";
        }
    }

    private Optional<Condition> condition(String name) {
        Service s = kube.services().inNamespace(Kube.NAMESPACE).withName(name).get();
        return s == null ? Optional.empty() : LoadBalancerCondition.current(s);
    }
}
