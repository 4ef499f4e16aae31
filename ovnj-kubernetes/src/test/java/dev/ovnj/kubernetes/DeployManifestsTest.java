package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifests under deploy/ are Kubernetes objects granting what the controller does, with two replicas behind a Lease. */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("../deploy");

    @Test
    void rbacGrantsWhatTheControllerCallsAndTheLease() throws Exception {
        List<HasMetadata> objects = load("rbac.yaml");
        ClusterRole role = one(objects, ClusterRole.class);
        assertThat(verbs(role.getRules(), "", "services")).contains("get", "list", "watch", "patch", "update");
        assertThat(verbs(role.getRules(), "", "services/status")).contains("patch", "update");
        assertThat(verbs(role.getRules(), "discovery.k8s.io", "endpointslices")).contains("get", "list", "watch");
        assertThat(verbs(role.getRules(), "", "events")).contains("create");
        Role lease = one(objects, Role.class);
        // JOSDK checks exactly these three before it competes for the Lease.
        assertThat(verbs(lease.getRules(), "coordination.k8s.io", "leases")).contains("get", "create", "update");
    }

    @Test
    void twoReplicasRunOvnjKubernetesWithTheLeaseInTheirNamespace() throws Exception {
        Deployment d = one(load("deployment.yaml"), Deployment.class);
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        var container = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getArgs()).containsExactly("kubernetes");
        assertThat(container.getEnv()).extracting(EnvVar::getName).contains("OVNJ_LEASE_NAMESPACE", "OVNJ_LEASE_NAME");
        assertThat(d.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo("ovnj-kubernetes");
    }

    private static List<String> verbs(List<PolicyRule> rules, String group, String resource) {
        return rules.stream().filter(r -> r.getApiGroups().contains(group) && r.getResources().contains(resource))
                .flatMap(r -> r.getVerbs().stream()).toList();
    }

    private static <T> T one(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static List<HasMetadata> load(String file) throws Exception {
        try (InputStream in = Files.newInputStream(DEPLOY.resolve(file))) {
            Object parsed = Serialization.unmarshal(in);
            return parsed instanceof List<?> list ? (List<HasMetadata>) list : List.of((HasMetadata) parsed);
        }
    }
}
