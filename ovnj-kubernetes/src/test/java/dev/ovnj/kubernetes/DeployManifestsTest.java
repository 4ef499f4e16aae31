package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The manifests under deploy/ are Kubernetes objects granting what the controller does, with two
 * replicas behind a Lease, and what a security review asks of them: least-privilege RBAC, Pod
 * Security "restricted", Guaranteed QoS, a NetworkPolicy, ssl: remotes, an image pinned by the
 * kustomization.
 */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("../deploy");
    /**
     * Live heap of the process at 10,000 LoadBalancer (+ 10,000 ClusterIP) Services, extrapolated
     * from 1,000 and 2,000 (docs/kubernetes.md, "Measurements"), rounded up.
     */
    private static final long LIVE_HEAP_10K_SERVICES = 760L << 20;
    /** Room beside the heap: about 90 MB measured (docs/kubernetes.md, "Measurements"), more than doubled. */
    private static final long NON_HEAP = 256L << 20;

    /**
     * Least privilege: what the controller calls (RbacCallsIT records the calls of a running one)
     * and nothing else; "update" (a PUT of the whole object) only on its own Lease.
     */
    @Test
    void rbacGrantsWhatTheControllerCallsAndNoMore() throws Exception {
        List<HasMetadata> objects = load("rbac.yaml");
        ClusterRole role = one(objects, ClusterRole.class);
        assertThat(verbs(role.getRules(), "", "services")).containsExactlyInAnyOrder("get", "list", "watch", "patch");
        assertThat(verbs(role.getRules(), "", "services/status")).containsExactly("patch");
        assertThat(verbs(role.getRules(), "discovery.k8s.io", "endpointslices")).containsExactlyInAnyOrder("list", "watch");
        assertThat(verbs(role.getRules(), "", "events")).containsExactly("create");
        assertThat(verbs(role.getRules(), "", "namespaces")).containsExactly("get");
        assertThat(verbs(role.getRules(), EipPool.GROUP, "eippools")).containsExactlyInAnyOrder("get", "list", "watch");
        assertThat(verbs(role.getRules(), EipPool.GROUP, "eippools/status")).containsExactly("patch");
        assertThat(role.getRules()).allSatisfy(r -> {
            assertThat(r.getVerbs()).doesNotContain("update", "delete", "deletecollection", "*");
            assertThat(r.getResources()).doesNotContain("*", "secrets", "configmaps", "pods");
            assertThat(r.getApiGroups()).doesNotContain("*");
        });
        Role lease = one(objects, Role.class);
        assertThat(lease.getMetadata().getNamespace()).isEqualTo(one(load("namespace.yaml"), Namespace.class).getMetadata().getName());
        // JOSDK checks get, create and update before it competes for the Lease; fabric8's lock patches it.
        // All but create only on its own Lease.
        assertThat(verbs(lease.getRules(), "coordination.k8s.io", "leases")).containsExactlyInAnyOrder("get", "create", "update", "patch");
        String leaseName = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)
                .getEnv().stream().filter(e -> e.getName().equals("OVNJ_LEASE_NAME")).findFirst().orElseThrow().getValue();
        assertThat(lease.getRules()).filteredOn(r -> !r.getVerbs().equals(List.of("create")))
                .allSatisfy(r -> assertThat(r.getResourceNames()).containsExactly(leaseName));
    }

    /**
     * RBAC cannot narrow "patch services" to the finalizer: the admission policy does, for the
     * controller's service account, and leaves status (a subresource) to RBAC.
     */
    @Test
    void anAdmissionPolicyLetsTheControllerChangeOnlyItsFinalizerOnAService() throws Exception {
        List<HasMetadata> objects = load("service-patch-policy.yaml");
        ValidatingAdmissionPolicy policy = one(objects, ValidatingAdmissionPolicy.class);
        ValidatingAdmissionPolicyBinding binding = one(objects, ValidatingAdmissionPolicyBinding.class);
        assertThat(binding.getSpec().getPolicyName()).isEqualTo(policy.getMetadata().getName());
        assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
        var rule = policy.getSpec().getMatchConstraints().getResourceRules().get(0);
        assertThat(rule.getResources()).containsExactly("services");
        assertThat(rule.getOperations()).containsExactly("UPDATE");
        ServiceAccount sa = one(load("rbac.yaml"), ServiceAccount.class);
        assertThat(policy.getSpec().getMatchConditions()).singleElement().satisfies(c -> assertThat(c.getExpression())
                .contains("'system:serviceaccount:" + sa.getMetadata().getNamespace() + ":" + sa.getMetadata().getName() + "'"));
        assertThat(policy.getSpec().getValidations()).extracting(v -> v.getExpression().replaceAll("\\s+", " "))
                .anySatisfy(e -> assertThat(e).isEqualTo("object.spec == oldObject.spec"))
                .anySatisfy(e -> assertThat(e).contains("object.metadata.labels"))
                .anySatisfy(e -> assertThat(e).contains("object.metadata.annotations"))
                .anySatisfy(e -> assertThat(e).contains("f != '" + ControllerSettings.FINALIZER + "'"));
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
        // The schema's fields are the record's (the JSON names), so neither side gains a field alone.
        assertThat(spec.getProperties().keySet()).containsExactlyInAnyOrderElementsOf(jsonNames(EipPool.Spec.class));
        assertThat(spec.getRequired()).containsExactlyInAnyOrder("router", "externalPort");
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("status").getProperties().keySet())
                .containsExactlyInAnyOrderElementsOf(jsonNames(EipPool.Status.class));
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

    /**
     * ssl: with a client certificate by default: OVSDB has no per-table authorisation, so whoever
     * opens a session on the Northbound database controls every project's network. tcp: is an
     * opt-in that the ConfigMap documents as such.
     */
    @Test
    void theNorthboundIsReachedOverSslWithAClientCertificateFromTheMountedSecret() throws Exception {
        PodSpec pod = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec();
        Map<String, String> config = one(load("deployment.yaml"), ConfigMap.class).getData();
        assertThat(remotes(config.get("OVNJ_DB"))).isNotEmpty().allSatisfy(r -> assertThat(r).startsWith("ssl:"));
        Volume tls = pod.getVolumes().stream().filter(v -> v.getSecret() != null).findFirst().orElseThrow();
        assertThat(tls.getSecret().getSecretName()).isEqualTo("ovnj-kubernetes-tls");
        VolumeMount mount = pod.getContainers().get(0).getVolumeMounts().stream().filter(m -> m.getName().equals(tls.getName()))
                .findFirst().orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        // The TLS variables (the options -p, -c, -C) name files of that Secret in that mount.
        Map<String, String> files = new LinkedHashMap<>();
        for (String key : List.of("OVNJ_PRIVATE_KEY", "OVNJ_CERTIFICATE", "OVNJ_CA_CERT")) {
            files.put(key, config.get(key));
        }
        assertThat(files.values()).allSatisfy(path -> assertThat(path).startsWith(mount.getMountPath() + "/"))
                .extracting(path -> path.substring(path.lastIndexOf('/') + 1)).containsExactlyInAnyOrder("tls.key", "tls.crt", "ca.crt");
        // The tcp: opt-in is spelled out with what it gives away.
        String text = Files.readString(DEPLOY.resolve("deployment.yaml"));
        assertThat(text).contains("\"tcp:HOST:6641\"").contains("controls every project's network");
    }

    /** Pod Security admission enforces "restricted" on the namespace the controller runs in. */
    @Test
    void theNamespaceEnforcesTheRestrictedPodSecurityStandard() throws Exception {
        Namespace ns = one(load("namespace.yaml"), Namespace.class);
        assertThat(ns.getMetadata().getName()).isEqualTo(one(load("deployment.yaml"), Deployment.class).getMetadata().getNamespace());
        assertThat(ns.getMetadata().getLabels()).containsEntry("pod-security.kubernetes.io/enforce", "restricted")
                .containsEntry("pod-security.kubernetes.io/audit", "restricted")
                .containsEntry("pod-security.kubernetes.io/warn", "restricted");
    }

    /** Guaranteed QoS: every container's requests equal its limits, CPU and memory; and a priority class of its own. */
    @Test
    void thePodIsGuaranteedAndHasItsOwnPriorityClass() throws Exception {
        PodSpec pod = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec();
        for (Container c : pod.getContainers()) {
            Map<String, Quantity> requests = c.getResources().getRequests();
            Map<String, Quantity> limits = c.getResources().getLimits();
            assertThat(limits).containsOnlyKeys("cpu", "memory");
            assertThat(requests).containsOnlyKeys("cpu", "memory");
            for (String r : List.of("cpu", "memory")) {
                assertThat(Quantity.getAmountInBytes(requests.get(r))).as(r).isEqualTo(Quantity.getAmountInBytes(limits.get(r)));
            }
        }
        PriorityClass priority = one(load("priorityclass.yaml"), PriorityClass.class);
        assertThat(pod.getPriorityClassName()).isEqualTo(priority.getMetadata().getName());
        assertThat(priority.getGlobalDefault()).isFalse();
        assertThat(priority.getValue()).isPositive().isLessThan(1_000_000_000);   // above is reserved to system-* classes
    }

    /**
     * Ingress to the metrics port only; egress to the API server and to each Northbound remote of
     * the ConfigMap (address and port), nothing else, DNS included.
     */
    @Test
    void theNetworkPolicyLetsInOnlyScrapesAndOutOnlyTheApiServerAndTheNorthbound() throws Exception {
        NetworkPolicy policy = one(load("networkpolicy.yaml"), NetworkPolicy.class);
        Deployment d = one(load("deployment.yaml"), Deployment.class);
        assertThat(policy.getMetadata().getNamespace()).isEqualTo(d.getMetadata().getNamespace());
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(policy.getSpec().getIngress()).singleElement().satisfies(in -> assertThat(in.getPorts())
                .singleElement().satisfies(p -> assertThat(p.getPort().getIntVal()).isEqualTo(8080)));
        List<String> allowed = policy.getSpec().getEgress().stream().flatMap(e -> e.getTo().stream().flatMap(to -> e.getPorts().stream()
                .map(p -> to.getIpBlock().getCidr() + " " + p.getProtocol() + "/" + p.getPort().getIntVal()))).toList();
        assertThat(policy.getSpec().getEgress()).allSatisfy(e -> {
            assertThat(e.getTo()).isNotEmpty().allSatisfy(to -> {
                assertThat(to.getIpBlock()).as("egress to addresses only, never to every pod of a namespace").isNotNull();
                assertThat(to.getIpBlock().getCidr()).endsWith("/32");
            });
            assertThat(e.getPorts()).isNotEmpty();
        });
        Map<String, String> config = one(load("deployment.yaml"), ConfigMap.class).getData();
        List<String> northbound = remotes(config.get("OVNJ_DB")).stream().map(r -> {
            String[] parts = r.split(":");
            return parts[1] + "/32 TCP/" + parts[2];
        }).toList();
        assertThat(allowed).containsAll(northbound).hasSize(northbound.size() + 1)
                .anySatisfy(a -> assertThat(a).endsWith("TCP/6443"));
    }

    /**
     * The metrics Service selects the controller's pods and their metrics port; the optional
     * monitoring directory's ServiceMonitor selects that Service and port, and its PrometheusRule
     * holds the four alerts (their expressions: ControllerMetricsIT, through promtool).
     */
    @Test
    void aMetricsServiceAndAnOptionalServiceMonitorAndAlertsScrapeBothReplicas() throws Exception {
        Deployment d = one(load("deployment.yaml"), Deployment.class);
        io.fabric8.kubernetes.api.model.Service metrics = one(load("metrics-service.yaml"), io.fabric8.kubernetes.api.model.Service.class);
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(metrics.getSpec().getSelector());
        assertThat(metrics.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("metrics");
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("metrics");
        });
        assertThat(kustomizationResources()).contains("metrics-service.yaml").doesNotContain("monitoring/servicemonitor.yaml");
        Path monitoring = DEPLOY.resolve("monitoring");
        @SuppressWarnings("unchecked")
        Map<String, Object> monitor = Serialization.unmarshal(Files.readString(monitoring.resolve("servicemonitor.yaml")), Map.class);
        assertThat(monitor.get("kind")).isEqualTo("ServiceMonitor");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
        @SuppressWarnings("unchecked")
        Map<String, String> selects = (Map<String, String>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        assertThat(metrics.getMetadata().getLabels()).containsAllEntriesOf(selects);
        assertThat((List<?>) spec.get("endpoints")).singleElement().satisfies(e -> assertThat(((Map<?, ?>) e).get("port")).isEqualTo("metrics"));
        String rules = Files.readString(monitoring.resolve("prometheusrule.yaml"));
        assertThat(rules).contains("kind: PrometheusRule").contains("alert: OvnjEipPoolNearlyExhausted").contains("alert: OvnjServicesNotReady")
                .contains("alert: OvnjNoLeader").contains("alert: OvnjBackendsUnhealthy");
        assertThat(Files.readString(monitoring.resolve("kustomization.yaml"))).contains("- servicemonitor.yaml").contains("- prometheusrule.yaml");
    }

    /** The image is kustomize's "images" field, which a release sets to a digest; the Deployment names only the image. */
    @Test
    void theImageIsAKustomizeImageFieldThatAReleasePinsByDigest() throws Exception {
        Container c = one(load("deployment.yaml"), Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, Object> kustomization = kustomization();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> images = (List<Map<String, Object>>) kustomization.get("images");
        assertThat(images).singleElement().satisfies(i -> {
            assertThat(i.get("name")).isEqualTo(c.getImage());
            assertThat(i).containsKey("newTag");
        });
        assertThat(c.getImage()).doesNotContain(":").doesNotContain("@");
        assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(Files.readString(DEPLOY.resolve("kustomization.yaml")))
                .contains("kustomize edit set image ovnj/kubernetes=REGISTRY/ovnj/kubernetes@sha256:DIGEST");
    }

    /** kubectl apply -k deploy/ applies every manifest of the directory (the monitoring ones are deploy/monitoring/). */
    @Test
    void theKustomizationListsEveryManifest() throws Exception {
        @SuppressWarnings("unchecked")
        List<String> resources = (List<String>) kustomization().get("resources");
        try (var files = Files.list(DEPLOY)) {
            assertThat(resources).containsExactlyInAnyOrderElementsOf(files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".yaml") && !f.equals("kustomization.yaml")).toList());
        }
    }

    /**
     * Schema validation. kubeconform cannot be installed here (no Go toolchain, and it is in no
     * Debian, npm or Maven package), so every object is read into fabric8's typed model, which is
     * generated from Kubernetes' OpenAPI schemas: a kind the model lacks, a field it does not
     * know (kept aside by the model as an "additional property") or a value of the wrong type
     * fails here.
     */
    @Test
    void everyObjectMatchesItsKubernetesSchema() throws Exception {
        for (String file : kustomizationResources()) {
            for (HasMetadata o : load(file)) {
                assertThat(o).as(file + ": a kind of the Kubernetes API").isNotInstanceOf(GenericKubernetesResource.class);
                assertThat(unknownFields(o, o.getKind())).as(file + ": fields the schema of " + o.getKind() + " does not have").isEmpty();
            }
        }
    }

    /** When kubectl is installed, its kustomize builds deploy/ and sets the image. */
    @Test
    void kubectlKustomizeBuildsTheDirectory() throws Exception {
        Assumptions.assumeTrue(onPath("kubectl"), "kubectl is not installed: deploy/ not built with kustomize");
        Process p = new ProcessBuilder("kubectl", "kustomize", DEPLOY.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        @SuppressWarnings("unchecked")
        List<HasMetadata> built = (List<HasMetadata>) Serialization.unmarshal(out);
        Deployment d = one(built, Deployment.class);
        assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("ovnj/kubernetes:dev");
        int objects = 0;
        for (String file : kustomizationResources()) {
            objects += load(file).size();
        }
        assertThat(built).hasSize(objects);
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
        assertThat(request).as("Guaranteed QoS: the heap sized from the limit is memory the node reserved").isEqualTo(limit);
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertThat(dockerfile).contains("-XX:+ExitOnOutOfMemoryError");
        Matcher percent = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(dockerfile);
        assertThat(percent.find()).isTrue();
        long heap = limit * Long.parseLong(percent.group(1)) / 100;
        assertThat(heap).as("heap share of the limit").isGreaterThanOrEqualTo(2 * LIVE_HEAP_10K_SERVICES);
        assertThat(limit - heap).as("the rest: metaspace, code, threads, direct buffers").isGreaterThanOrEqualTo(NON_HEAP);
    }

    private static List<String> jsonNames(Class<? extends Record> type) {
        return java.util.Arrays.stream(type.getRecordComponents()).map(c -> {
            com.fasterxml.jackson.annotation.JsonProperty p = c.getAccessor().getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            return p == null || p.value().isEmpty() ? c.getName() : p.value();
        }).toList();
    }

    private static List<String> remotes(String db) {
        return List.of(db.split(","));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> kustomization() throws Exception {
        return Serialization.unmarshal(Files.readString(DEPLOY.resolve("kustomization.yaml")), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static List<String> kustomizationResources() throws Exception {
        return (List<String>) kustomization().get("resources");
    }

    private static boolean onPath(String command) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }

    /** The paths of fields fabric8's typed model did not know, anywhere under {@code o}. */
    private static List<String> unknownFields(Object o, String path) throws Exception {
        List<String> unknown = new java.util.ArrayList<>();
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>) {
            return unknown;
        }
        if (o instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                unknown.addAll(unknownFields(list.get(i), path + "[" + i + "]"));
            }
            return unknown;
        }
        if (o instanceof Map<?, ?> map) {
            for (var e : map.entrySet()) {
                unknown.addAll(unknownFields(e.getValue(), path + "." + e.getKey()));
            }
            return unknown;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return unknown;
        }
        for (java.lang.reflect.Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || !m.getName().startsWith("get") || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value = m.invoke(o);
            if (m.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(k -> unknown.add(path + "." + k));
                }
            } else if (!(o instanceof Quantity) && !(o instanceof IntOrString)) {
                unknown.addAll(unknownFields(value, path + "." + m.getName().substring(3)));
            }
        }
        return unknown;
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
