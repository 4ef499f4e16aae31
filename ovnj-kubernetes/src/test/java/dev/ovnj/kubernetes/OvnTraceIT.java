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
 * by OVN's logical flows to exactly the ready endpoints, checked with ovn-trace from the
 * router's external port. No ovn-controller runs; the gateway chassis and bindings are faked.
 */
@EnableKubernetesMockClient(crud = true)
class OvnTraceIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The lowest free address of lrp-ext's 172.16.0.0/24: .1 is the port's own. */
    private static final String EIP = "172.16.0.2";
    private static final Pattern BACKENDS = Pattern.compile("backends=([^);]*)");

    KubernetesClient kube;

    @Test
    void theVipForwardsToTheReadyEndpointsOnly() {
        try (OvnCentral ovn = OvnCentral.start()) {
            Nbctl nbctl = ovn.nbctl();
            BackendTopology.of(ovn).withGateway().create();

            try (OvsdbClient client = OvsdbClient.builder().remotes(ovn.northbound().remote())
                    .monitor(LoadBalancerEngine.monitorRequest()).build();
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, client, engine,
                        ControllerSettings.of("lr0", "lrp-ext").withSwitch("ls-int").withServerSideApply(false)).build().start()) {
                    kube.resource(Kube.loadBalancer("web")).create();
                    kube.resource(slice("10.0.0.2", true, "10.0.0.3", false)).create();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    assertThat(tracedBackends(OvnTrace.of(ovn.southbound().remote()))).isEqualTo("10.0.0.2:8080");

                    kube.resource(slice("10.0.0.2", true, "10.0.0.3", true)).update();
                    awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.0.0.2:8080,10.0.0.3:8080\"}");
                    ovn.sync();
                    assertThat(tracedBackends(OvnTrace.of(ovn.southbound().remote()))).isEqualTo("10.0.0.2:8080,10.0.0.3:8080");
                }
            }
        }
    }

    private static String tracedBackends(OvnTrace trace) {
        String out = trace.trace("lr0", "inport == \"lrp-ext\" && eth.src == 02:00:00:00:00:01 && eth.dst == 00:00:00:00:01:01"
                + " && ip4.src == 192.0.2.1 && ip4.dst == " + EIP + " && ip.ttl == 64 && tcp && tcp.dst == 80");
        Matcher m = BACKENDS.matcher(out);
        assertThat(m.find()).as("ovn-trace reaches ct_lb:\n" + out).isTrue();
        return m.group(1);
    }

    private static EndpointSlice slice(String ip1, boolean ready1, String ip2, boolean ready2) {
        return new EndpointSliceBuilder().withNewMetadata().withName("web-a").withNamespace(Kube.NAMESPACE)
                .addToLabels(ServiceSpecs.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                .addNewEndpoint().withAddresses(ip1).withNewConditions().withReady(ready1).endConditions().endEndpoint()
                .addNewEndpoint().withAddresses(ip2).withNewConditions().withReady(ready2).endConditions().endEndpoint()
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
