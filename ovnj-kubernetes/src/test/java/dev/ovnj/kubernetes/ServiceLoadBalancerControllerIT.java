package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.ClientIPConfig;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.SessionAffinityConfig;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One controller: the life of a Service's load balancer, addresses, status, conditions and Events. */
@EnableKubernetesMockClient(crud = true)
class ServiceLoadBalancerControllerIT extends ControllerTestBase {

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
        editService("web", s -> {
            s.getSpec().setType("ClusterIP");
            return s;
        });
        Await.until(WAIT, "withdrawn on type ClusterIP", () -> lbNames().isEmpty() && claims().equals("{}")
                && !service("web").getMetadata().getFinalizers().contains(ControllerSettings.FINALIZER)
                && ingress("web").isEmpty());
        editService("web", s -> {
            s.getSpec().setType("LoadBalancer");
            return s;
        });
        // A released address is given out again last: another free one comes first.
        awaitVips("shop/web-tcp", "{\"" + SECOND_EIP + ":80\"=\"10.1.0.12:8080\"}");

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

        // An address of a family the Service is not served in is refused, not ignored.
        Service v6 = loadBalancer("v6");
        v6.getSpec().setLoadBalancerIP("fd00:10::5");
        kube.resource(v6).create();
        Await.until(WAIT, "AddressInvalid naming the family", () -> condition("v6").map(c -> c.getReason().equals("AddressInvalid")
                && c.getMessage().equals("requested address fd00:10::5 is IPv6, and the Service is served in IPv4 only")).orElse(false));

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

    /**
     * A tenant naming a router is refused until an administrator grants it (an EipPool's
     * {@code allowedAttachments}); granted, a router that does not exist yet is WAITING.
     */
    @Test
    void anUngrantedRouterIsRefusedAndAGrantedOneThatDoesNotExistYetIsWaitingAndABadAnnotationIsNamed() {
        installPoolCrd();
        controller(settings(), b -> b);
        Service edge = loadBalancer("edge");
        edge.getMetadata().setAnnotations(java.util.Map.of(ServiceAnnotations.ROUTER, "edge-gw"));
        kube.resource(edge).create();
        Await.until(WAIT, "PlacementNotAllowed naming the annotation, with a Warning Event", () -> condition("edge")
                .map(c -> c.getReason().equals("PlacementNotAllowed") && c.getMessage().startsWith("ovnj.dev/router: router edge-gw"))
                .orElse(false) && events("edge").stream().anyMatch(e -> e.getType().equals("Warning")
                && e.getReason().equals("PlacementNotAllowed") && e.getMessage().contains("ovnj.dev/router")));
        assertThat(lbNames()).isEmpty();
        assertThat(claims()).isEqualTo("{}");
        kube.resource(pool("shop", new EipPool.Spec(ROUTER, EXTERNAL_PORT, SWITCH, null, null, List.of(NAMESPACE), null, null, null, null,
                new EipPool.Attachments(List.of("edge-gw"), null, null), null))).create();
        Await.until(WAIT, "WAITING condition and Warning Event", () -> condition("edge")
                .map(c -> c.getStatus().equals("False") && c.getReason().equals("WAITING") && c.getMessage().contains("edge-gw"))
                .orElse(false)
                && events("edge").stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("WAITING")));
        assertThat(ingress("edge")).isEmpty();
        // The router appears: the engine writes, and the next look publishes the address.
        nbctl.run("lr-add", "edge-gw");
        Await.until(WAIT, "APPLIED on edge-gw", () -> condition("edge").map(c -> c.getReason().equals("APPLIED")).orElse(false)
                && ingress("edge").equals(List.of(FIRST_EIP)));
        assertThat(nbctl.run("lr-lb-list", "edge-gw")).contains(FIRST_EIP + ":80");

        Service odd = loadBalancer("odd");
        odd.getMetadata().setAnnotations(java.util.Map.of(ServiceAnnotations.HEALTH_CHECK, "every=5"));
        kube.resource(odd).create();
        Await.until(WAIT, "InvalidAnnotation condition", () -> condition("odd")
                .map(c -> c.getReason().equals("InvalidAnnotation") && c.getMessage().contains("unknown key \"every\"")).orElse(false));
        assertThat(lbNames()).doesNotContain("shop/odd-tcp");
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

    @Test
    void serviceFieldsBecomeOptionsOrAVisibleRefusalAndNeverAHalfChangedLoadBalancer() {
        controller(settings(), b -> b);
        // ClientIP affinity above OVN's maximum, Local traffic policy, dual stack preferred on an
        // IPv4-only external network, and no endpoints at all. The router is a distributed one: OVN
        // keeps the client's address there without skip_snat (and with it would not un-DNAT the
        // replies), so Local writes none and the condition says so.
        Service sticky = loadBalancer("sticky");
        sticky.getSpec().setSessionAffinity("ClientIP");
        sticky.getSpec().setSessionAffinityConfig(new SessionAffinityConfig(new ClientIPConfig(86400)));
        sticky.getSpec().setExternalTrafficPolicy("Local");
        sticky.getSpec().setIpFamilyPolicy("PreferDualStack");
        sticky.getSpec().setIpFamilies(List.of("IPv4", "IPv6"));
        kube.resource(sticky).create();
        awaitVips("shop/sticky-tcp", "{\"" + FIRST_EIP + ":80\"=\"\"}");
        assertThat(nbctl.run("get", "Load_Balancer", "shop/sticky-tcp", "options"))
                .isEqualTo("{affinity_timeout=\"65535\", reject=\"true\"}");
        assertThat(nbctl.run("get", "Load_Balancer", "shop/sticky-udp", "options"))
                .isEqualTo("{affinity_timeout=\"65535\", reject=\"true\"}");
        Await.until(WAIT, "APPLIED saying what is missing and clamped, ingress with ipMode VIP", () -> condition("sticky")
                .map(c -> c.getStatus().equals("True") && c.getMessage().contains("no ready endpoints: every VIP rejects connections")
                        && c.getMessage().contains("no IPv6 network, serving IPv4 only")
                        && c.getMessage().contains("externalTrafficPolicy Local: no skip_snat on distributed router " + ROUTER)
                        && c.getMessage().contains("timeoutSeconds: 86400 s is above OVN's maximum")).orElse(false)
                && service("sticky").getStatus().getLoadBalancer().getIngress().stream()
                        .anyMatch(i -> i.getIp().equals(FIRST_EIP) && "VIP".equals(i.getIpMode())));
        Await.until(WAIT, "a Warning Event naming the clamped field", () -> events("sticky").stream()
                .anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("FieldClamped")
                        && e.getMessage().startsWith("spec.sessionAffinityConfig.clientIP.timeoutSeconds: 86400")));

        // A value OVN cannot take at all is refused before the engine is asked: the load balancer stays whole.
        editService("sticky", s -> {
            s.getSpec().getSessionAffinityConfig().getClientIP().setTimeoutSeconds(0);
            s.getSpec().setExternalTrafficPolicy("Cluster");
            return s;
        });
        Await.until(WAIT, "INVALID naming the field", () -> condition("sticky").map(c -> c.getReason().equals("INVALID")
                && c.getMessage().contains("spec.sessionAffinityConfig.clientIP.timeoutSeconds: 0")).orElse(false));
        assertThat(nbctl.run("get", "Load_Balancer", "shop/sticky-tcp", "options"))
                .isEqualTo("{affinity_timeout=\"65535\", reject=\"true\"}");

        // RequireDualStack on the same network fails naming IPv6 and holds no IPv4 claim meanwhile,
        // not even one an earlier controller left (it claimed IPv4 before finding no IPv6).
        nbctl.run("set", "Logical_Router_Port", EXTERNAL_PORT, "external_ids:\"ovnj.eip." + SECOND_EIP + "\"=\"shop/dual\"");
        Service dual = loadBalancer("dual");
        dual.getSpec().setIpFamilyPolicy("RequireDualStack");
        dual.getSpec().setIpFamilies(List.of("IPv4", "IPv6"));
        kube.resource(dual).create();
        Await.until(WAIT, "AddressUnavailable naming IPv6", () -> condition("dual").map(c -> c.getStatus().equals("False")
                && c.getReason().equals("AddressUnavailable") && c.getMessage().contains("RequireDualStack")
                && c.getMessage().contains("no IPv6 network")).orElse(false));
        Await.until(WAIT, "the left-over claim released", () -> !claims().contains("shop/dual"));
        assertThat(claims()).contains(FIRST_EIP + "=\"shop/sticky\"");
        assertThat(lbNames()).doesNotContain("shop/dual-tcp");
        assertThat(ingress("dual")).isEmpty();
    }
}
