package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Service moving in from another tool: its annotation {@value ServiceAnnotations#ADOPT} lets the
 * controller take the tool's load balancers over in place (the same rows, still attached) instead
 * of reporting a conflict (which {@code ServiceLoadBalancerControllerIT} shows without it), and the
 * address's claim moves to the Service with them.
 */
@EnableKubernetesMockClient(crud = true)
class AdoptionControllerIT extends ControllerTestBase {

    @Test
    void anAnnotatedServiceAdoptsTheLoadBalancersOfAnotherToolInPlace() {
        // As Kube-OVN or kube-dc left them: one row per protocol on the Service's address, no ovnj.owner.
        nbctl.run("lb-add", "kube-web", FIRST_EIP + ":80", "10.1.0.10:8080", "tcp");
        nbctl.run("lb-add", "kube-web-dns", FIRST_EIP + ":53", "10.1.0.10:5353", "udp");
        nbctl.run("set", "Load_Balancer", "kube-web", "external_ids:vendor=kube-ovn");
        nbctl.run("lr-lb-add", ROUTER, "kube-web");
        nbctl.run("lr-lb-add", ROUTER, "kube-web-dns");
        nbctl.run("ls-lb-add", SWITCH, "kube-web");
        // The address claimed by an earlier ovnj-based controller under another claim owner.
        nbctl.run("set", "Logical_Router_Port", EXTERNAL_PORT, "external_ids:ovnj.eip." + FIRST_EIP + "=old/web");
        String tcp = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-web").strip();
        String udp = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-web-dns").strip();

        controller(settings(), b -> b);
        kube.resource(slice("web-1", "web", "10.1.0.10")).create();
        Service web = loadBalancer("web");
        web.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, FIRST_EIP, ServiceAnnotations.ADOPT, "unowned"));
        kube.resource(web).create();
        Await.until(WAIT, "APPLIED with ingress " + FIRST_EIP, () -> condition("web").map(c -> c.getReason().equals("APPLIED")).orElse(false)
                && ingress("web").equals(List.of(FIRST_EIP)));

        assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=shop/web-tcp").strip()).isEqualTo(tcp);
        assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=shop/web-udp").strip()).isEqualTo(udp);
        assertThat(lbNames()).containsExactlyInAnyOrder("shop/web-tcp", "shop/web-udp");
        assertThat(nbctl.run("lr-lb-list", ROUTER)).contains(tcp.substring(0, 8)).contains(udp.substring(0, 8));
        assertThat(nbctl.run("ls-lb-list", SWITCH)).contains(tcp.substring(0, 8));
        // The claim moved with the rows (re-keyed in the adoption's transaction), not given twice.
        assertThat(claims()).contains("ovnj.eip." + FIRST_EIP + "=\"shop/web\"").doesNotContain("old/web");
    }
}
