package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Many tenants at once: four namespaces (two projects with a pool each, one without, one the
 * command line's router serves) create, annotate and delete Services at random against the
 * pools, asking for other projects' routers, switches and pools, the gateway, router port and
 * excluded addresses, other projects' addresses and shared addresses. After every step: no
 * Service's load balancer is on a router its namespace may not use, no reserved address is
 * claimed, and no address a Service was served on has changed to another. At the end, every
 * Service says where it stands (a condition, with a reason).
 */
@EnableKubernetesMockClient(crud = true)
class TenancyRandomIT extends ControllerTestBase {
    private static final Map<String, String> ROUTER_OF = Map.of("proj-a", "r1", "proj-b", "r2", "legacy", ROUTER);
    private static final List<String> RESERVED = List.of("172.30.0.254", "172.30.0.1", "172.30.0.2", "172.30.0.5", "168.119.17.51");
    private static final List<String> REQUESTS = List.of("172.30.0.254", "172.30.0.1", "172.30.0.2", "172.30.0.5", "172.30.0.20",
            "172.30.0.70", "172.30.0.255", "168.119.17.55", "168.119.17.51", "10.9.9.9");
    private static final List<Map<String, String>> ANNOTATIONS = List.of(
            Map.of(), Map.of(), Map.of(),
            Map.of(ServiceAnnotations.ROUTER, "r1"), Map.of(ServiceAnnotations.ROUTER, "r2"), Map.of(ServiceAnnotations.ROUTER, ROUTER),
            Map.of(ServiceAnnotations.SWITCH, "s1"), Map.of(ServiceAnnotations.GROUP, "g"),
            Map.of(EipPools.ANNOTATION, "a"), Map.of(EipPools.ANNOTATION, "b"),
            Map.of(ServiceAnnotations.SHARED_IP, "k"), Map.of(ServiceAnnotations.SHARED_IP, "k"));

    /** Service uid to the first address it was served on. */
    private final Map<String, String> servedOn = new HashMap<>();
    private final List<String> violations = new ArrayList<>();

    @Test
    void tenantsAtRandomNeverLandOutsideTheirProjectTakeAReservedAddressOrMoveAWorkingOne() {
        long seed = Long.getLong("ovnj.tenancy.seed", System.nanoTime());
        Random random = new Random(seed);
        nbctl.run("lr-add", "r1");
        nbctl.run("lrp-add", "r1", "r1-ext", "02:00:00:00:01:01", "172.30.0.1/24");
        nbctl.run("lr-route-add", "r1", "0.0.0.0/0", "172.30.0.254");
        nbctl.run("ls-add", "s1");
        nbctl.run("lr-add", "r2");
        nbctl.run("lrp-add", "r2", "r2-ext", "02:00:00:00:01:02", "172.30.0.2/24");
        installPoolCrd();
        kube.resource(pool("a", new EipPool.Spec("r1", "r1-ext", "s1", null, List.of("172.30.0.0/26"), List.of("proj-a"), null,
                List.of("172.30.0.5"), null, null, null, null))).create();
        kube.resource(pool("b", new EipPool.Spec("r2", "r2-ext", null, null, List.of("172.30.0.64/26"), List.of("proj-b"), null))).create();
        controller(settings().withRouterNamespaces(Set.of("legacy")), b -> b);

        List<String> namespaces = List.of("proj-a", "proj-b", "proj-c", "legacy");
        int steps = Integer.getInteger("ovnj.tenancy.steps", 60);
        for (int step = 0; step < steps; step++) {
            String ns = namespaces.get(random.nextInt(namespaces.size()));
            List<Service> existing = kube.services().inNamespace(ns).list().getItems();
            int op = random.nextInt(10);
            try {
                if (op < 5 || existing.isEmpty()) {
                    Service s = loadBalancer("s" + step);
                    s.getMetadata().setNamespace(ns);
                    Map<String, String> a = new HashMap<>(ANNOTATIONS.get(random.nextInt(ANNOTATIONS.size())));
                    if (random.nextInt(3) == 0) {
                        a.put(ServiceAnnotations.ADDRESSES, REQUESTS.get(random.nextInt(REQUESTS.size())));
                    }
                    s.getMetadata().setAnnotations(a);
                    kube.resource(s).create();
                } else if (op < 8) {
                    Service victim = existing.get(random.nextInt(existing.size()));
                    Map<String, String> more = ANNOTATIONS.get(random.nextInt(ANNOTATIONS.size()));
                    kube.services().inNamespace(ns).withName(victim.getMetadata().getName()).edit(s -> {
                        Map<String, String> a = new HashMap<>(s.getMetadata().getAnnotations() == null ? Map.of() : s.getMetadata().getAnnotations());
                        a.putAll(more);
                        s.getMetadata().setAnnotations(a);
                        return s;
                    });
                } else {
                    kube.resource(existing.get(random.nextInt(existing.size()))).delete();
                }
            } catch (KubernetesClientException conflict) {
                // A 409 against the controller's own write: a tenant would retry; the step is skipped.
            }
            pause(150 + random.nextInt(250));
            check("step " + step + " (seed " + seed + ")");
        }
        Await.until(WAIT, "every Service says where it stands", () -> namespaces.stream().flatMap(ns -> kube.services().inNamespace(ns)
                .list().getItems().stream()).allMatch(s -> LoadBalancerCondition.current(s).map(c -> c.getReason() != null).orElse(false)));
        pause(2000);
        check("the end (seed " + seed + ")");
        assertThat(violations).as("seed %d", seed).isEmpty();
        assertThat(servedOn).as("some Services were served (seed %d)", seed).isNotEmpty();
    }

    private void check(String when) {
        // Routers: every load balancer row of a Service is attached to its namespace's router only.
        for (String router : List.of("r1", "r2", ROUTER)) {
            for (String line : nbctl.run("lr-lb-list", router).split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 2 || !f[1].contains("/")) {
                    continue;
                }
                String ns = f[1].substring(0, f[1].indexOf('/'));
                if (!router.equals(ROUTER_OF.get(ns))) {
                    violations.add(when + ": " + f[1] + " of namespace " + ns + " is on router " + router);
                }
            }
        }
        // Reserved addresses: never claimed.
        for (String port : List.of("r1-ext", "r2-ext", EXTERNAL_PORT)) {
            String claims = nbctl.run("get", "Logical_Router_Port", port, "external_ids");
            for (String ip : RESERVED) {
                if (claims.contains("ovnj.eip." + ip + "=")) {
                    violations.add(when + ": reserved " + ip + " claimed on " + port + ": " + claims);
                }
            }
        }
        // Working addresses: the first one a Service was served on never changes to another.
        for (String ns : List.of("proj-a", "proj-b", "proj-c", "legacy")) {
            for (Service s : kube.services().inNamespace(ns).list().getItems()) {
                List<String> ingress = s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                        || s.getStatus().getLoadBalancer().getIngress() == null ? List.of()
                        : s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).toList();
                if (ingress.isEmpty()) {
                    continue;
                }
                String first = servedOn.putIfAbsent(s.getMetadata().getUid(), ingress.get(0));
                if (first != null && !first.equals(ingress.get(0))) {
                    violations.add(when + ": " + ns + "/" + s.getMetadata().getName() + " moved from " + first + " to " + ingress.get(0));
                }
                if (RESERVED.contains(ingress.get(0))) {
                    violations.add(when + ": " + ns + "/" + s.getMetadata().getName() + " served on reserved " + ingress.get(0));
                }
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
