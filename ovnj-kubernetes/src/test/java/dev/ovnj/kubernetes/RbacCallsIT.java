package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/rbac.yaml grants every call a running controller makes and no more: a replica with its
 * own client (told apart by its User-Agent) goes through a Service's whole life, an EipPool's
 * status and the Lease, while the mock API server records each request; each request, read as
 * the API server's authorizer reads it (verb, group, resource, subresource, namespace, name), must
 * be allowed by the ClusterRole or the namespace's Role.
 */
@EnableKubernetesMockClient(crud = true)
class RbacCallsIT extends ControllerTestBase {
    private static final String AGENT = "ovnj-rbac-under-test";
    private static final String LEASE_NAMESPACE = "ovnj-system";
    private static final String LEASE_NAME = "ovnj-kubernetes";
    /** A resource request: /api/v1/... or /apis/GROUP/VERSION/..., namespaced or not. */
    private static final Pattern RESOURCE = Pattern.compile(
            "^/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/([^/]+))?/([^/?]+)(?:/([^/?]+))?(?:/([^/?]+))?(?:\\?(.*))?$");

    /** One request as the authorizer sees it. */
    record Call(String verb, String group, String resource, String namespace, String name) {
        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + (namespace == null ? "" : " in " + namespace)
                    + (name == null ? "" : " " + name);
        }
    }

    @Test
    void everyCallTheControllerMakesIsGrantedByDeployRbac() throws Exception {
        // fabric8's mock server has no authorizer: answer JOSDK's check of its Lease permissions as deploy/ grants them.
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("create", "update", "get").endResourceRule().endStatus().build())
                .always();
        try (InputStream crd = Files.newInputStream(Path.of("../deploy/eippool-crd.yaml"))) {
            kube.load(crd).create();
        }
        kube.resource(Serialization.unmarshal("""
                apiVersion: ovnj.dev/v1alpha1
                kind: EipPool
                metadata: {name: shop-pool}
                spec: {router: %s, externalPort: %s, switch: %s}
                """.formatted(ROUTER, EXTERNAL_PORT, SWITCH), EipPool.class)).create();

        KubernetesClient own = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(kube.getConfiguration()).withUserAgent(AGENT).build()).build();
        OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start();
        client.startAndWait(WAIT);
        OvnjKubernetesController controller = OvnjKubernetesController.builder(own, client, engine,
                        settings().withLease(LEASE_NAMESPACE, LEASE_NAME))
                .identity("a").leaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500))
                .exitOnStopLeading(false).build().start();
        try {
            Await.until(WAIT, "the Lease held", controller::isLeader);
            // A Service's life: served (finalizer, status, Events), no longer a LoadBalancer
            // (status cleared, finalizer removed by the controller), and deleted (cleanup).
            kube.resource(loadBalancer("web")).create();
            kube.resource(slice("web-a", "web", "10.1.0.10")).create();
            kube.resource(loadBalancer("api")).create();
            Await.until(WAIT, "both published", () -> ingress("web").size() == 1 && ingress("api").size() == 1);
            Await.until(WAIT, "the pool's status written", () -> {
                EipPool p = kube.resources(EipPool.class).withName("shop-pool").get();
                return p.getStatus() != null && p.getStatus().allocated() != null && p.getStatus().allocated() == 2;
            });
            editService("web", s -> {
                s.getSpec().setType("ClusterIP");
                return s;
            });
            Await.until(WAIT, "web let go", () -> !service("web").hasFinalizer(ControllerSettings.FINALIZER));
            kube.services().inNamespace(NAMESPACE).withName("api").delete();
            Await.until(WAIT, "api deleted", () -> service("api") == null);
        } finally {
            controller.close();   // gives the Lease up
            engine.close();
            client.close();
            own.close();
        }

        Set<Call> calls = new TreeSet<>(java.util.Comparator.comparing(Call::toString));
        Set<String> nonResource = new TreeSet<>();
        for (RecordedRequest r = mock.takeRequest(1, TimeUnit.SECONDS); r != null; r = mock.takeRequest(1, TimeUnit.SECONDS)) {
            if (AGENT.equals(r.getHeader("User-Agent"))) {
                String line = r.getMethod() + " " + r.getPath();
                call(r).ifPresentOrElse(calls::add, () -> nonResource.add(line));
            }
        }
        List<HasMetadata> rbac = load();
        List<PolicyRule> cluster = rbac.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
                .flatMap(r -> r.getRules().stream()).toList();
        Role leaseRole = rbac.stream().filter(Role.class::isInstance).map(Role.class::cast).findFirst().orElseThrow();
        // Every API server grants these to any authenticated user (system:basic-user): JOSDK's self check.
        calls.removeIf(c -> c.verb().equals("create") && c.resource().equals("selfsubjectrulesreviews"));
        assertThat(nonResource).as("calls outside the resource API").isEmpty();
        assertThat(calls).as("what the controller called").isNotEmpty()
                .anyMatch(c -> c.verb().equals("patch") && c.resource().equals("services/status"))
                .anyMatch(c -> c.verb().equals("patch") && c.resource().equals("services"))
                .anyMatch(c -> c.verb().equals("patch") && c.resource().equals("eippools/status"))
                .anyMatch(c -> c.verb().equals("patch") && c.resource().equals("leases") && LEASE_NAME.equals(c.name()));
        for (Call c : calls) {
            boolean granted = allows(cluster, c)
                    || (leaseRole.getMetadata().getNamespace().equals(c.namespace()) && allows(leaseRole.getRules(), c));
            assertThat(granted).as("deploy/rbac.yaml grants " + c + " (all calls: " + calls + ")").isTrue();
        }
    }

    private static Optional<Call> call(RecordedRequest r) {
        String path = r.getPath();
        Matcher m = RESOURCE.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        String group = m.group(1) == null ? "" : m.group(1);
        String resource = m.group(3);
        String name = m.group(4);
        String sub = m.group(5);
        String query = m.group(6) == null ? "" : m.group(6);
        String verb = switch (r.getMethod()) {
            case "GET" -> query.contains("watch=true") ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> r.getMethod();
        };
        return Optional.of(new Call(verb, group, sub == null ? resource : resource + "/" + sub, m.group(2), name));
    }

    private static boolean allows(List<PolicyRule> rules, Call c) {
        return rules.stream().anyMatch(rule -> rule.getApiGroups().contains(c.group()) && rule.getResources().contains(c.resource())
                && rule.getVerbs().contains(c.verb())
                && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                || (c.name() != null && rule.getResourceNames().contains(c.name()))));
    }

    @SuppressWarnings("unchecked")
    private static List<HasMetadata> load() throws Exception {
        try (InputStream in = Files.newInputStream(Path.of("../deploy/rbac.yaml"))) {
            return (List<HasMetadata>) Serialization.unmarshal(in);
        }
    }
}
