package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The manifests under deploy/ are Kubernetes objects granting what the controller does, with two replicas behind a Lease. */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("../deploy");
    /**
     * Live heap of the process at 10,000 LoadBalancer (+ 10,000 ClusterIP) Services, extrapolated
     * from 1,000 and 2,000 (docs/kubernetes.md, "Measurements"), rounded up.
     */
    private static final long LIVE_HEAP_10K_SERVICES = 760L << 20;
    /** Room beside the heap: about 90 MB measured (docs/kubernetes.md, "Measurements"), more than doubled. */
    private static final long NON_HEAP = 256L << 20;

    @Test
    void rbacGrantsWhatTheControllerCallsAndTheLease() throws Exception {
        List<HasMetadata> objects = load("rbac.yaml");
        ClusterRole role = one(objects, ClusterRole.class);
        assertThat(verbs(role.getRules(), "", "services")).contains("get", "list", "watch", "patch", "update");
        assertThat(verbs(role.getRules(), "", "services/status")).contains("patch", "update");
        assertThat(verbs(role.getRules(), "discovery.k8s.io", "endpointslices")).contains("get", "list", "watch");
        assertThat(verbs(role.getRules(), "", "events")).contains("create");
        assertThat(verbs(role.getRules(), EipPool.GROUP, "eippools")).contains("get", "list", "watch");
        assertThat(verbs(role.getRules(), EipPool.GROUP, "eippools/status")).contains("patch", "update");
        Role lease = one(objects, Role.class);
        // JOSDK checks exactly these three before it competes for the Lease.
        assertThat(verbs(lease.getRules(), "coordination.k8s.io", "leases")).contains("get", "create", "update");
    }

    @Test
    void theEipPoolCrdIsTheResourceTheControllerReadsAndIsApplied() throws Exception {
        CustomResourceDefinition crd = one(load("eippool-crd.yaml"), CustomResourceDefinition.class);
        assertThat(crd.getMetadata().getName()).isEqualTo(HasMetadata.getFullResourceName(EipPool.class));
        assertThat(crd.getSpec().getGroup()).isEqualTo(HasMetadata.getGroup(EipPool.class));
        assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(crd.getSpec().getNames().getKind()).isEqualTo(HasMetadata.getKind(EipPool.class));
        var version = crd.getSpec().getVersions().get(0);
        assertThat(version.getName()).isEqualTo(HasMetadata.getVersion(EipPool.class));
        assertThat(version.getSubresources().getStatus()).isNotNull();
        var spec = version.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        assertThat(spec.getProperties()).containsOnlyKeys("router", "externalPort", "switch", "group", "addresses", "namespaces",
                "autoAssign", "excludeAddresses", "priority", "serviceSelector", "allowedAttachments", "namespaceSelector");
        assertThat(spec.getRequired()).containsExactlyInAnyOrder("router", "externalPort");
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("status").getProperties())
                .containsOnlyKeys("allocated", "free", "reserved", "waiting", "conditions");
        assertThat(Files.readString(DEPLOY.resolve("kustomization.yaml"))).contains("- eippool-crd.yaml");
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

    @Test
    void probesAskTheControllersEndpointsOnTheMetricsPort() throws Exception {
        Deployment d = one(load("deployment.yaml"), Deployment.class);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getEnv()).filteredOn(e -> e.getName().equals("OVNJ_METRICS_PORT")).extracting(EnvVar::getValue).containsExactly("8080");
        assertThat(c.getPorts()).filteredOn(p -> "metrics".equals(p.getName())).extracting(ContainerPort::getContainerPort)
                .containsExactly(8080);
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        for (Probe p : List.of(c.getLivenessProbe(), c.getReadinessProbe(), c.getStartupProbe())) {
            assertThat(p.getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
        }
        // A rollout brings a warm standby up before it stops a replica.
        assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal()).isZero();
    }

    @Test
    void aDisruptionBudgetAndAntiAffinityKeepOneReplicaUpAndApart() throws Exception {
        List<HasMetadata> objects = load("deployment.yaml");
        Deployment d = one(objects, Deployment.class);
        Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
        PodDisruptionBudget pdb = one(objects, PodDisruptionBudget.class);
        assertThat(podLabels).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
        assertThat(pdb.getMetadata().getNamespace()).isEqualTo(d.getMetadata().getNamespace());
        assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1).isLessThan(d.getSpec().getReplicas());
        var terms = d.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution();
        assertThat(terms).anySatisfy(t -> {
            assertThat(t.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(podLabels).containsAllEntriesOf(t.getPodAffinityTerm().getLabelSelector().getMatchLabels());
        });
    }

    /** What the Pod Security Standard "restricted" requires of a pod and its containers. */
    @Test
    void thePodMeetsTheRestrictedPodSecurityStandard() throws Exception {
        PodSpec pod = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getVolumes()).allSatisfy(v -> assertThat(v.getHostPath()).isNull());
        for (Container c : pod.getContainers()) {
            SecurityContext sc = c.getSecurityContext();
            assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
            assertThat(sc.getPrivileged()).isNotEqualTo(Boolean.TRUE);
            assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(sc.getCapabilities().getAdd()).isNullOrEmpty();
            assertThat(sc.getReadOnlyRootFilesystem()).isTrue();
            assertThat(sc.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(sc.getRunAsUser()).isNotEqualTo(Long.valueOf(0));
        }
        assertThat(pod.getSecurityContext().getRunAsUser()).isNotNull().isNotZero();
        // The only writable place, for the JVM's temporary files.
        assertThat(pod.getContainers().get(0).getVolumeMounts()).filteredOn(m -> !Boolean.TRUE.equals(m.getReadOnly()))
                .extracting(VolumeMount::getMountPath).containsExactly("/tmp");
    }

    @Test
    void theTlsSecretIsMountedWhereTheTlsVariablesPoint() throws Exception {
        PodSpec pod = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec();
        Volume tls = pod.getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow();
        assertThat(tls.getSecret().getSecretName()).isEqualTo("ovnj-kubernetes-tls");
        assertThat(tls.getSecret().getOptional()).as("tcp: remotes need no Secret").isTrue();
        VolumeMount mount = pod.getContainers().get(0).getVolumeMounts().stream().filter(m -> m.getName().equals(tls.getName()))
                .findFirst().orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        // The ConfigMap's commented TLS variables (the options -p, -c, -C) name files of that Secret in that mount.
        Map<String, String> commented = new LinkedHashMap<>();
        Matcher m = Pattern.compile("#\\s*(OVNJ_(?:PRIVATE_KEY|CERTIFICATE|CA_CERT)):\\s*\"([^\"]+)\"")
                .matcher(Files.readString(DEPLOY.resolve("deployment.yaml")));
        while (m.find()) {
            commented.put(m.group(1), m.group(2));
        }
        assertThat(commented).containsOnlyKeys("OVNJ_PRIVATE_KEY", "OVNJ_CERTIFICATE", "OVNJ_CA_CERT");
        assertThat(commented.values()).allSatisfy(path -> assertThat(path).startsWith(mount.getMountPath() + "/"))
                .extracting(path -> path.substring(path.lastIndexOf('/') + 1)).containsExactlyInAnyOrder("tls.key", "tls.crt", "ca.crt");
    }

    /**
     * The memory limit leaves the heap (its share set in the Dockerfile) twice the live heap of
     * 10,000 Services and the rest of the process room (docs/kubernetes.md, "Measurements").
     */
    @Test
    void theMemoryLimitHoldsTenThousandServicesWithHeadroom() throws Exception {
        Container c = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        long limit = Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact();
        long request = Quantity.getAmountInBytes(c.getResources().getRequests().get("memory")).longValueExact();
        assertThat(request).isLessThanOrEqualTo(limit);
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertThat(dockerfile).contains("-XX:+ExitOnOutOfMemoryError");
        Matcher percent = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(dockerfile);
        assertThat(percent.find()).isTrue();
        long heap = limit * Long.parseLong(percent.group(1)) / 100;
        assertThat(heap).as("heap share of the limit").isGreaterThanOrEqualTo(2 * LIVE_HEAP_10K_SERVICES);
        assertThat(limit - heap).as("the rest: metaspace, code, threads, direct buffers").isGreaterThanOrEqualTo(NON_HEAP);
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
