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
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The whole path with ovn-northd: a Service's VIP, as the controller writes it, is load-balanced
 * by OVN's logical flows to exactly the ready endpoints, to the serving terminating ones when
 * none is ready, and rejected when none serves, checked with ovn-trace from the router's external
 * port. No ovn-controller runs; the gateway chassis and bindings are faked.
 */
@EnableKubernetesMockClient(crud = true)
class OvnTraceIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The lowest free address of lrp-ext's 172.16.0.0/24: .1 is the port's own. */
    private static final String EIP = "172.16.0.2";
    private static final Pattern BACKENDS = Pattern.compile("backends=([^);]*)");

    private static final EndpointConditions READY = conditions(true, true, false);
    private static final EndpointConditions NOT_READY = conditions(false, false, false);
    private static final EndpointConditions SERVING_TERMINATING = conditions(false, true, true);
    private static final EndpointConditions TERMINATED = conditions(false, false, true);

    KubernetesClient kube;

    @Test
    void theVipForwardsToTheEndpointsKubernetesSaysShouldTakeTrafficAndRejectsWithoutAny() {
        try (OvnCentral ovn = OvnCentral.start()) {
            Nbctl nbctl = ovn.nbctl();
            BackendTopology.of(ovn).withGateway().create();

            try (OvsdbClient client = OvsdbClient.builder().remotes(ovn.northbound().remote())
                    .monitor(LoadBalancerEngine.monitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, client, engine,
                        ControllerSettings.of("lr0", "lrp-ext").withSwitch("ls-int").withServerSideApply(false)).build().start()) {
                    OvnTrace trace = OvnTrace.of(ovn.southbound().remote());
                    kube.resource(Kube.loadBalancer("web")).create();
                    kube.resource(slice(READY, NOT_READY)).create();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    assertThat(tracedBackends(trace)).isEqualTo("10.0.0.2:8080");

                    kube.resource(slice(READY, READY)).update();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.0.0.2:8080,10.0.0.3:8080\"}");
                    ovn.sync();
                    assertThat(tracedBackends(trace)).isEqualTo("10.0.0.2:8080,10.0.0.3:8080");

                    // A rolling update: neither is ready, 10.0.0.2 still serves while terminating and
                    // takes the traffic; 10.0.0.3 no longer serves.
                    kube.resource(slice(SERVING_TERMINATING, TERMINATED)).update();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    assertThat(tracedBackends(trace)).isEqualTo("10.0.0.2:8080");

                    // Nothing serves: the VIP stays, without backends, and OVN rejects (a TCP RST
                    // back out of the external port) instead of dropping in silence.
                    kube.resource(slice(NOT_READY, TERMINATED)).update();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"\"}");
                    assertThat(nbctl.run("get", "Load_Balancer", "shop/web-tcp", "options:reject")).isEqualTo("\"true\"");
                    ovn.sync();
                    String out = trace(trace);
                    assertThat(out).as(out).contains("reject {").contains("tcp_reset {").contains("output to \"lrp-ext\"")
                            .doesNotContain("ct_lb");
                }
            }
        }
    }

    private static String trace(OvnTrace trace) {
        return trace.trace("lr0", "inport == \"lrp-ext\" && eth.src == 02:00:00:00:00:01 && eth.dst == 00:00:00:00:01:01"
                + " && ip4.src == 192.0.2.1 && ip4.dst == " + EIP + " && ip.ttl == 64 && tcp && tcp.dst == 80");
    }

    private static String tracedBackends(OvnTrace trace) {
        String out = trace(trace);
        Matcher m = BACKENDS.matcher(out);
        assertThat(m.find()).as("ovn-trace reaches ct_lb:\n" + out).isTrue();
        return m.group(1);
    }

    private static EndpointConditions conditions(boolean ready, boolean serving, boolean terminating) {
        return new EndpointConditionsBuilder().withReady(ready).withServing(serving).withTerminating(terminating).build();
    }

    private static EndpointSlice slice(EndpointConditions first, EndpointConditions second) {
        return new EndpointSliceBuilder().withNewMetadata().withName("web-a").withNamespace(Kube.NAMESPACE)
                .addToLabels(ServiceSpecs.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                .addNewEndpoint().withAddresses("10.0.0.2").withConditions(first).endEndpoint()
                .addNewEndpoint().withAddresses("10.0.0.3").withConditions(second).endEndpoint()
                .build();
    }

    private static void awaitVips(Nbctl nbctl, String vips) {
        Await.until(WAIT, "shop/web-tcp vips " + vips, () -> {
            try {
                return nbctl.run("get", "Load_Balancer", "shop/web-tcp", "vips").equals(vips);
            } catch (NbctlException notYet) {
                return false;
            }
        });
    }
}
