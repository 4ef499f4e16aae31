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
import io.fabric8.kubernetes.api.model.Service;
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
 * none is ready, and rejected when none serves; a ClientIP affinity reaches the flows as an
 * affinity check, and the Local traffic policy on this distributed router writes no skip_snat.
 * Checked with ovn-trace from the router's external port. No ovn-controller runs; the gateway chassis and bindings are faked.
 */
@EnableKubernetesMockClient(crud = true)
class OvnTraceIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The lowest free address of lrp-ext's 172.16.0.0/24: .1 is the port's own. */
    private static final String EIP = "172.16.0.2";
    private static final String STICKY_EIP = "172.16.0.3";
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
                    // The router SNATs load-balanced traffic, unless a load balancer skips it.
                    nbctl.run("set", "logical_router", "lr0", "options:lb_force_snat_ip=172.16.0.1");
                    kube.resource(Kube.loadBalancer("web")).create();
                    kube.resource(slice("web", READY, NOT_READY)).create();
                    awaitVips(nbctl, "shop/web-tcp", "{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    String out = trace(trace, EIP, "tcp");
                    assertThat(backends(out)).isEqualTo("10.0.0.2:8080");
                    assertThat(out).as(out).contains("flags.force_snat_for_lb = 1").doesNotContain("chk_lb_aff");

                    kube.resource(slice("web", READY, READY)).update();
                    awaitVips(nbctl, "shop/web-tcp", "{\"" + EIP + ":80\"=\"10.0.0.2:8080,10.0.0.3:8080\"}");
                    ovn.sync();
                    assertThat(backends(trace(trace, EIP, "tcp"))).isEqualTo("10.0.0.2:8080,10.0.0.3:8080");

                    // ClientIP affinity and the Local policy: OVN checks the affinity table. lr0 is a
                    // distributed router with a gateway port, where OVN applies lb_force_snat_ip to no
                    // load-balanced traffic and skip_snat would leave the replies un-DNATed: Local
                    // writes no skip_snat here.
                    Service sticky = Kube.loadBalancer("sticky");
                    sticky.getSpec().setSessionAffinity("ClientIP");
                    sticky.getSpec().setExternalTrafficPolicy("Local");
                    kube.resource(sticky).create();
                    kube.resource(slice("sticky", READY, NOT_READY)).create();
                    awaitVips(nbctl, "shop/sticky-tcp", "{\"" + STICKY_EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    out = trace(trace, STICKY_EIP, "tcp");
                    assertThat(backends(out)).isEqualTo("10.0.0.2:8080");
                    assertThat(out).as(out).doesNotContain("flags.skip_snat_for_lb = 1").contains("chk_lb_aff");
                    assertThat(nbctl.run("get", "Load_Balancer", "shop/sticky-tcp", "options")).doesNotContain("skip_snat");

                    // A rolling update: neither is ready, 10.0.0.2 still serves while terminating and
                    // takes the traffic; 10.0.0.3 no longer serves.
                    kube.resource(slice("web", SERVING_TERMINATING, TERMINATED)).update();
                    awaitVips(nbctl, "shop/web-tcp", "{\"" + EIP + ":80\"=\"10.0.0.2:8080\"}");
                    ovn.sync();
                    assertThat(backends(trace(trace, EIP, "tcp"))).isEqualTo("10.0.0.2:8080");

                    // Nothing serves: the VIP stays, without backends, and OVN rejects (a TCP RST, an
                    // ICMP port unreachable for UDP, back out of the external port) instead of dropping
                    // in silence. The slice never published the dns port: its UDP VIP rejects all along.
                    kube.resource(slice("web", NOT_READY, TERMINATED)).update();
                    awaitVips(nbctl, "shop/web-tcp", "{\"" + EIP + ":80\"=\"\"}");
                    assertThat(nbctl.run("get", "Load_Balancer", "shop/web-tcp", "options:reject")).isEqualTo("\"true\"");
                    ovn.sync();
                    out = trace(trace, EIP, "tcp");
                    assertThat(out).as(out).contains("reject {").contains("tcp_reset {").contains("output to \"lrp-ext\"")
                            .doesNotContain("ct_lb");
                    out = trace(trace, EIP, "udp");
                    assertThat(out).as(out).contains("reject {").contains("icmp4 {").contains("output to \"lrp-ext\"")
                            .doesNotContain("ct_lb");
                }
            }
        }
    }

    /** A packet from outside to the VIP, port 80 for TCP and 53 for UDP, through the router's external port. */
    private static String trace(OvnTrace trace, String vip, String protocol) {
        return trace.trace("lr0", "inport == \"lrp-ext\" && eth.src == 02:00:00:00:00:01 && eth.dst == 00:00:00:00:01:01"
                + " && ip4.src == 192.0.2.1 && ip4.dst == " + vip + " && ip.ttl == 64 && " + protocol + " && " + protocol + ".dst == "
                + (protocol.equals("tcp") ? 80 : 53));
    }

    private static String backends(String out) {
        Matcher m = BACKENDS.matcher(out);
        assertThat(m.find()).as("ovn-trace reaches ct_lb:\n" + out).isTrue();
        return m.group(1);
    }

    private static EndpointConditions conditions(boolean ready, boolean serving, boolean terminating) {
        return new EndpointConditionsBuilder().withReady(ready).withServing(serving).withTerminating(terminating).build();
    }

    private static EndpointSlice slice(String service, EndpointConditions first, EndpointConditions second) {
        return new EndpointSliceBuilder().withNewMetadata().withName(service + "-a").withNamespace(Kube.NAMESPACE)
                .addToLabels(ServiceSpecs.SERVICE_NAME_LABEL, service).endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                .addNewEndpoint().withAddresses("10.0.0.2").withConditions(first).endEndpoint()
                .addNewEndpoint().withAddresses("10.0.0.3").withConditions(second).endEndpoint()
                .build();
    }

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
