package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tenants against the boundary, on the CRUD mock API and a real Northbound: two projects (proj-a
 * on router r1, proj-b on r2) on the provider network 172.30.0.0/24 whose upstream gateway is
 * .254 (r1's default route), each with its pool. Every test is named after the attack or the
 * surprise it stops; every refusal must say why (condition and Warning Event) and write nothing.
 * The retry is set to a minute, so whatever happens within the waits happens on an event.
 */
@EnableKubernetesMockClient(crud = true)
class TenancyControllerIT extends ControllerTestBase {
    private static final String GATEWAY = "172.30.0.254";

    @BeforeEach
    void projects() {
        nbctl.run("lr-add", "r1");
        nbctl.run("lrp-add", "r1", "r1-ext", "02:00:00:00:01:01", "172.30.0.1/24");
        nbctl.run("lr-route-add", "r1", "0.0.0.0/0", GATEWAY);
        nbctl.run("ls-add", "s1");
        nbctl.run("lr-add", "r2");
        nbctl.run("lrp-add", "r2", "r2-ext", "02:00:00:00:01:02", "172.30.0.2/24");
        nbctl.run("ls-add", "s2");
        installPoolCrd();
    }

    /** The controller as a platform would run it: the command line's router serves no tenant namespace. */
    private static ControllerSettings platform() {
        return settings().withRouterNamespaces(java.util.Set.of()).withRetryAfter(Duration.ofMinutes(1));
    }

    private void projectPools(UnaryOperator<EipPool.Spec> a) {
        kube.resource(pool("a", a.apply(new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/25"), List.of("proj-a"), null))))
                .create();
        kube.resource(pool("b", new EipPool.Spec("r2", "r2-ext", "s2", null, List.of("172.30.0.128/25"), List.of("proj-b"), null))).create();
        Await.until(WAIT, "pools Ready", () -> List.of("a", "b").stream().allMatch(p -> poolStatus(p)
                .map(st -> st.conditions() != null && st.conditions().stream().anyMatch(c -> c.getType().equals(EipPoolStatusWriter.READY)
                        && c.getStatus().equals("True"))).orElse(false)));
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private Optional<EipPool.Status> poolStatus(String pool) {
        EipPool p = kube.resources(EipPool.class).withName(pool).get();
        return p == null ? Optional.empty() : Optional.ofNullable(p.getStatus());
    }

    private Service create(String ns, String name, Map<String, String> annotations) {
        Service s = loadBalancer(name);
        s.getMetadata().setNamespace(ns);
        s.getMetadata().setAnnotations(new HashMap<>(annotations));
        return kube.resource(s).create();
    }

    private Service get(String ns, String name) {
        return kube.services().inNamespace(ns).withName(name).get();
    }

    private Optional<Condition> conditionOf(String ns, String name) {
        Service s = get(ns, name);
        return s == null ? Optional.empty() : LoadBalancerCondition.current(s);
    }

    private List<String> ingressOf(String ns, String name) {
        Service s = get(ns, name);
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).toList();
    }

    private List<Event> eventsOf(String ns, String name) {
        return kube.v1().events().inNamespace(ns).list().getItems().stream().filter(e -> e.getInvolvedObject().getName().equals(name)).toList();
    }

    /** Waits for a refusal: the condition False with the reason and words, a Warning Event saying the same, and nothing written. */
    private void awaitRefused(String ns, String name, String reason, String words) {
        Await.until(WAIT, ns + "/" + name + " " + reason + " saying " + words, () -> conditionOf(ns, name)
                .map(c -> c.getStatus().equals("False") && c.getReason().equals(reason) && c.getMessage().contains(words)).orElse(false)
                && eventsOf(ns, name).stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals(reason)
                && e.getMessage().contains(words)));
        assertThat(ingressOf(ns, name)).isEmpty();
        assertThat(lbNames()).noneMatch(n -> n.startsWith(ns + "/" + name + "-"));
        assertThat(allClaims()).doesNotContain(ns + "/" + name + "\"");
    }

    private String allClaims() {
        return String.join(" ", List.of("r1-ext", "r2-ext", EXTERNAL_PORT).stream()
                .map(p -> nbctl.run("get", "Logical_Router_Port", p, "external_ids")).toList());
    }

    private void awaitServed(String ns, String name, String ip) {
        Await.until(WAIT, ns + "/" + name + " served on " + ip, () -> ingressOf(ns, name).equals(List.of(ip))
                && conditionOf(ns, name).map(c -> c.getStatus().equals("True")).orElse(false));
    }

    @Test
    void aTenantNamingAnotherProjectsRouterSwitchGroupOrPoolLandsNowhere() {
        controller(platform(), b -> b);
        projectPools(s -> s);
        create("proj-b", "evil-router", Map.of(ServiceAnnotations.ROUTER, "r1", ServiceAnnotations.SWITCH, "s1"));
        create("proj-b", "evil-switch", Map.of(ServiceAnnotations.SWITCH, "s1"));
        create("proj-b", "evil-group", Map.of(ServiceAnnotations.GROUP, "g1"));
        create("proj-b", "evil-pool", Map.of(EipPools.ANNOTATION, "a"));
        awaitRefused("proj-b", "evil-router", ConditionReasons.PLACEMENT_NOT_ALLOWED, "ovnj.dev/router: router r1 is not granted");
        awaitRefused("proj-b", "evil-switch", ConditionReasons.PLACEMENT_NOT_ALLOWED, "ovnj.dev/switch: switch s1 is not granted");
        awaitRefused("proj-b", "evil-group", ConditionReasons.PLACEMENT_NOT_ALLOWED, "ovnj.dev/group: group g1 is not granted");
        awaitRefused("proj-b", "evil-pool", ConditionReasons.PLACEMENT_NOT_ALLOWED,
                "ovnj.dev/eip-pool: EipPool a serves the namespaces [proj-a] only, not proj-b");
        assertThat(nbctl.run("lr-lb-list", "r1")).isEmpty();
        assertThat(nbctl.run("ls-lb-list", "s1")).isEmpty();
        // The project's own Service lands on its own router.
        create("proj-b", "good", Map.of());
        awaitServed("proj-b", "good", "172.30.0.128");
        assertThat(nbctl.run("lr-lb-list", "r2")).contains("172.30.0.128:80");
        assertThat(nbctl.run("lr-lb-list", "r1")).isEmpty();
    }

    @Test
    void aTenantRequestingTheGatewayARouterPortAddressAnExcludedOrAnotherProjectsAddressIsRefused() {
        controller(platform(), b -> b);
        kube.resource(pool("b", new EipPool.Spec("r2", "r2-ext", "s2", null, List.of("172.30.0.128/25"), List.of("proj-b"), null))).create();
        kube.resource(pool("a", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/25"), List.of("proj-a"), null,
                List.of("172.30.0.10"), null, null, null, null))).create();
        create("proj-b", "gw", Map.of(ServiceAnnotations.ADDRESSES, GATEWAY));
        create("proj-a", "port", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.2"));
        create("proj-a", "excluded", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.10"));
        Service foreign = loadBalancer("foreign");
        foreign.getMetadata().setNamespace("proj-b");
        foreign.getSpec().setLoadBalancerIP("172.30.0.20");
        kube.resource(foreign).create();
        awaitRefused("proj-b", "gw", ConditionReasons.ADDRESS_INVALID, "requested address 172.30.0.254 is reserved: the next hop of a "
                + "static route of router r1 (0.0.0.0/0 via 172.30.0.254)");
        awaitRefused("proj-a", "port", ConditionReasons.ADDRESS_INVALID, "the address of Logical_Router_Port r2-ext of router r2");
        awaitRefused("proj-a", "excluded", ConditionReasons.ADDRESS_INVALID, "excluded by EipPool a spec.excludeAddresses");
        awaitRefused("proj-b", "foreign", ConditionReasons.ADDRESS_INVALID, "172.30.0.20 is not in the addresses of EipPool b");
        assertThat(allClaims()).doesNotContain(GATEWAY).doesNotContain("172.30.0.20").doesNotContain("172.30.0.10");
    }

    @Test
    void allocationNeverReachesTheGatewayWhenThePoolFills() {
        controller(platform(), b -> b);
        kube.resource(pool("edge", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.252-172.30.0.254"), List.of("proj-a"),
                null))).create();
        create("proj-a", "x1", Map.of());
        awaitServed("proj-a", "x1", "172.30.0.252");
        create("proj-a", "x2", Map.of());
        awaitServed("proj-a", "x2", "172.30.0.253");
        create("proj-a", "x3", Map.of());
        awaitRefused("proj-a", "x3", ConditionReasons.ADDRESS_UNAVAILABLE, "EipPool edge");
        Await.until(WAIT, "pool status: 2 allocated, 0 free, 1 reserved, x3 waiting", () -> poolStatus("edge").map(st ->
                Long.valueOf(2).equals(st.allocated()) && Long.valueOf(0).equals(st.free()) && Long.valueOf(1).equals(st.reserved())
                        && List.of("proj-a/x3").equals(st.waiting())).orElse(false));
        // A release reaches the waiting Service on the event, long before the minute's retry.
        long released = System.nanoTime();
        kube.resource(get("proj-a", "x1")).delete();
        awaitServed("proj-a", "x3", "172.30.0.252");
        System.out.printf("x1 deleted -> x3 served on the freed address: %d ms (load %s)%n", (System.nanoTime() - released) / 1_000_000,
                loadAverage());
        assertThat(allClaims()).doesNotContain(GATEWAY);
    }

    @Test
    void aControllerWithoutRouterLeavesAServiceWithoutPoolPendingAndServesItOnThePoolsEvent() {
        controller(settings().withRetryAfter(Duration.ofMinutes(1)).withRouterNamespaces(java.util.Set.of()), b -> b);
        create("proj-a", "early", Map.of());
        awaitRefused("proj-a", "early", ConditionReasons.NO_POOL, "no EipPool serves namespace proj-a");
        kube.resource(pool("a", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/25"), List.of("proj-a"), null))).create();
        awaitServed("proj-a", "early", "172.30.0.3");
        // The pool deleted and re-created: the address stays where it is, with its router.
        kube.resources(EipPool.class).withName("a").delete();
        Await.until(WAIT, "pool gone", () -> kube.resources(EipPool.class).withName("a").get() == null);
        create("proj-a", "late", Map.of());
        awaitRefused("proj-a", "late", ConditionReasons.NO_POOL, "no EipPool serves namespace proj-a");
        assertThat(ingressOf("proj-a", "early")).containsExactly("172.30.0.3");
        assertThat(nbctl.run("lr-lb-list", ROUTER)).isEmpty();
        kube.resource(pool("a", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/25"), List.of("proj-a"), null))).create();
        awaitServed("proj-a", "late", "172.30.0.4");
        awaitServed("proj-a", "early", "172.30.0.3");
        assertThat(nbctl.run("lr-lb-list", "r1")).contains("172.30.0.3:80").contains("172.30.0.4:80");
        assertThat(nbctl.run("lr-lb-list", ROUTER)).isEmpty();
    }

    @Test
    void aPoolsOnlyControllerServesNothingOnARouterOfItsOwn() {
        controller(ControllerSettings.poolsOnly().withServerSideApply(false).withRetryAfter(Duration.ofMinutes(1)), b -> b);
        create("proj-a", "early", Map.of());
        awaitRefused("proj-a", "early", ConditionReasons.NO_POOL, "the controller has no router of its own");
        long created = System.nanoTime();
        kube.resource(pool("a", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/25"), List.of("proj-a"), null))).create();
        awaitServed("proj-a", "early", "172.30.0.3");
        System.out.printf("pool created -> NoPool Service served: %d ms (load %s)%n", (System.nanoTime() - created) / 1_000_000,
                loadAverage());
    }

    private Service shared(String ns, String name, String key, int port) {
        Service s = loadBalancer(name);
        s.getMetadata().setNamespace(ns);
        s.getSpec().setPorts(List.of(new ServicePortBuilder().withName("p").withProtocol("TCP").withPort(port).build()));
        if (key != null) {
            s.getMetadata().setAnnotations(new HashMap<>(Map.of(ServiceAnnotations.SHARED_IP, key)));
        }
        return s;
    }

    private void edit(String ns, String name, UnaryOperator<Service> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                kube.services().inNamespace(ns).withName(name).edit(change);
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    /**
     * shop/dns-tcp lost 172.30.0.4:53 to shop/dns-dup, created in the same second, when its slice
     * changed. Here the newcomer is even the older object (it existed as a ClusterIP Service first)
     * and sorts first by name: the holder keeps the port all the same.
     */
    @Test
    void aSameSecondCollisionOnASharedAddressKeepsTheHolder() {
        controller(platform().withRouterNamespaces(java.util.Set.of("shop")), b -> b);
        Service dup = shared("shop", "a-dup", null, 53);
        dup.getSpec().setType("ClusterIP");
        kube.resource(dup).create();
        kube.resource(shared("shop", "z-holder", "dns", 53)).create();
        awaitServed("shop", "z-holder", FIRST_EIP);
        edit("shop", "a-dup", s -> {
            s.getSpec().setType("LoadBalancer");
            s.getMetadata().setAnnotations(new HashMap<>(Map.of(ServiceAnnotations.SHARED_IP, "dns")));
            return s;
        });
        awaitRefused("shop", "a-dup", ConditionReasons.ADDRESS_CONFLICT, "port TCP/53 is held by shop/z-holder, which serves it");
        // The holder's slice changes (its reconciliation runs again): it keeps the port.
        kube.resource(Kube.slice("z-holder-1", "z-holder", "10.1.0.10")).create();
        awaitVips("shop/z-holder-tcp", "{\"" + FIRST_EIP + ":53\"=\"\"}");
        assertThat(ingressOf("shop", "z-holder")).containsExactly(FIRST_EIP);
        assertThat(conditionOf("shop", "a-dup").orElseThrow().getReason()).isEqualTo(ConditionReasons.ADDRESS_CONFLICT);
    }

    /** Adding allow-shared-ip to a working Service moved its address: it keeps it now, and waits. */
    @Test
    void joiningASharingGroupNeverMovesAWorkingAddress() {
        controller(platform().withRouterNamespaces(java.util.Set.of("shop")), b -> b);
        kube.resource(shared("shop", "member", "dns", 53)).create();
        awaitServed("shop", "member", FIRST_EIP);
        kube.resource(shared("shop", "solo", null, 80)).create();
        awaitServed("shop", "solo", SECOND_EIP);
        edit("shop", "solo", s -> {
            s.getMetadata().setAnnotations(new HashMap<>(Map.of(ServiceAnnotations.SHARED_IP, "dns")));
            return s;
        });
        Await.until(WAIT, "solo waits, naming the move it refuses", () -> conditionOf("shop", "solo").map(c -> c.getReason()
                .equals(ConditionReasons.ADDRESS_CONFLICT) && c.getMessage().contains("would move its working address " + SECOND_EIP))
                .orElse(false));
        assertThat(ingressOf("shop", "solo")).containsExactly(SECOND_EIP);
        awaitVips("shop/solo-tcp", "{\"" + SECOND_EIP + ":80\"=\"\"}");
        assertThat(claims()).contains(SECOND_EIP + "=\"shop/solo\"");
        // A Service without an address joins on the group's, compatible ports and all.
        kube.resource(shared("shop", "joiner", "dns", 443)).create();
        awaitServed("shop", "joiner", FIRST_EIP);
    }

    @Test
    void aServiceRefusedForAnotherReasonHoldsNoClaimAndAReleasedAddressIsGivenOutLast() {
        controller(platform().withRouterNamespaces(java.util.Set.of("shop")), b -> b);
        Service bad = loadBalancer("bad");
        bad.getSpec().setLoadBalancerSourceRanges(List.of("10.0.0.0/33"));
        kube.resource(bad).create();
        awaitRefused("shop", "bad", ConditionReasons.SOURCE_RANGES_UNSUPPORTED, "spec.loadBalancerSourceRanges");
        assertThat(claims()).isEqualTo("{}");

        kube.resource(loadBalancer("one")).create();
        awaitServed("shop", "one", FIRST_EIP);
        kube.resource(loadBalancer("two")).create();
        awaitServed("shop", "two", SECOND_EIP);
        kube.resource(get("shop", "one")).delete();
        Await.until(WAIT, "one released", () -> get("shop", "one") == null && !claims().contains(FIRST_EIP));
        kube.resource(loadBalancer("three")).create();
        Await.until(WAIT, "three served", () -> ingressOf("shop", "three").size() == 1);
        assertThat(ingressOf("shop", "three")).doesNotContain(FIRST_EIP);
    }
}
