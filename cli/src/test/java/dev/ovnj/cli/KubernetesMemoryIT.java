package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.eip.EipClaim;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memory of {@code ovnj kubernetes} as a process, for the limit in deploy/deployment.yaml:
 * peak and final RSS and the heap after convergence, for n Services of type LoadBalancer (two
 * ready endpoints each) and as many ClusterIP Services with their slices (which the controller
 * does not serve but a cluster has), run with the image's JVM flags under a given memory size.
 * Printed, never asserted; run only when asked:
 * {@code mvn -pl cli -am verify -Dtest=NONE -Dit.test=KubernetesMemoryIT -Dovnj.measure=true [-Dovnj.measure.cases=...] ...}.
 */
@EnableKubernetesMockClient(crud = true)
@EnabledIfSystemProperty(named = "ovnj.measure", matches = "true")
class KubernetesMemoryIT {
    KubernetesClient kube;
    KubernetesMockServer mock;

    /** The cases: {@code -Dovnj.measure.cases=SERVICES:MEMORY:NAMESPACES,...} (default below). */
    static Stream<Arguments> cases() {
        return Arrays.stream(System.getProperty("ovnj.measure.cases", "1000:2g:all,1000:2g:default,10000:2g:all").split(","))
                .map(c -> c.split(":")).map(c -> Arguments.of(Integer.parseInt(c[0]), c[1], c[2]));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void rssOfTheControllerProcess(int n, String memory, String namespaces, @TempDir Path dir) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "gw");
            nbctl.run("lrp-add", "gw", "big-ext", "02:00:00:00:00:02", "10.100.0.1/16");
            nbctl.run("ls-add", "pods");
            Map<String, String> claims = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                String name = "svc" + i;
                String a = (i / 250) % 250 + "." + (i % 250 + 1);
                kube.resource(new ServiceBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                        .withNewSpec().withType("LoadBalancer").addNewPort().withName("http").withProtocol("TCP").withPort(80).endPort()
                        .endSpec().build()).create();
                kube.resource(slice(name, "10.4." + a, "10.5." + a)).create();
                kube.resource(new ServiceBuilder().withNewMetadata().withName("internal" + i).withNamespace("default")
                        .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration", "{\"apiVersion\":\"v1\",\"kind\":\"Service\"}")
                        .endMetadata().withNewSpec().withType("ClusterIP").addNewPort().withName("http").withProtocol("TCP")
                        .withPort(80).endPort().endSpec().build()).create();
                kube.resource(slice("internal" + i, "10.6." + a, "10.7." + a)).create();
                claims.put(EipClaim.key(IpAddresses.parse("10.100." + (2 + i / 250) + "." + (i % 250 + 1))), "default/" + name);
            }
            // The addresses as a previous run left them: allocating is a cost of its own (docs/kubernetes.md).
            try (OvsdbClient seeder = OvsdbClient.builder().remotes(server.remote()).monitor(MonitorRequest.tables("Logical_Router_Port"))
                    .build().startAndWait(Duration.ofSeconds(30))) {
                seeder.transact(seeder.transaction().add(Operations.mutate(LogicalRouterPort.TABLE.name())
                        .where(LogicalRouterPort.NAME.eq("big-ext")).mutation(LogicalRouterPort.EXTERNAL_IDS.insert(claims))).build())
                        .get(60, TimeUnit.SECONDS);
            }
            Path kubeconfig = MockApiServer.kubeconfig(mock, dir);
            long start = System.nanoTime();
            // The image's flags (deploy/Dockerfile), with MaxRAM standing in for the container's memory limit.
            // --namespaces keeps the informers' objects whole (CachedForms applies to all namespaces only): the difference.
            List<String> args = new java.util.ArrayList<>(List.of("kubernetes", "--kubeconfig", kubeconfig.toString(), "--db",
                    server.remote(), "--router", "gw", "--router-namespaces", "*", "--switch", "pods", "--external-port", "big-ext", "--server-side-apply=false",
                    "--metrics-port", "0"));
            if (!namespaces.equals("all")) {
                args.addAll(List.of("--namespaces", namespaces));
            }
            // -Dovnj.measure.nmt=true: also where the memory beside the heap goes (Native Memory Tracking).
            boolean nmt = Boolean.getBoolean("ovnj.measure.nmt");
            List<String> jvm = new java.util.ArrayList<>(List.of("-XX:MaxRAM=" + memory, "-XX:MaxRAMPercentage=75"));
            if (nmt) {
                jvm.add("-XX:NativeMemoryTracking=summary");
            }
            try (OvnjProcess ovnj = OvnjProcess.start(jvm, Map.of(),
                    args.toArray(String[]::new))) {
                Await.until(Duration.ofMinutes(5), "serving", () -> ovnj.stdout().stream().anyMatch(l -> l.startsWith("serving")));
                int port = MockApiServer.endpointsPort(ovnj);
                Await.until(Duration.ofMinutes(30), n + " load balancers", () -> count(nbctl) >= n);
                double seconds = (System.nanoTime() - start) / 1e9;
                // What stays: the heap after a full GC (the RSS figures are the process's own, GC or not).
                Process gc = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(ovnj.pid()), "GC.run").redirectErrorStream(true).start();
                gc.getInputStream().readAllBytes();
                assertThat(gc.waitFor(60, TimeUnit.SECONDS)).isTrue();
                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body();
                double heap = sum(metrics, "jvm_memory_used_bytes", "heap");
                double heapCommitted = sum(metrics, "jvm_memory_committed_bytes", "heap");
                double nonHeap = sum(metrics, "jvm_memory_used_bytes", "nonheap");
                System.out.printf("MEASURE ovnj kubernetes, %d LoadBalancer + %d ClusterIP Services, namespaces %s, -XX:MaxRAM=%s"
                        + " -XX:MaxRAMPercentage=75: all applied in %.0f s; peak RSS %d MB, RSS %d MB, heap after a full GC %.0f MB"
                        + " (committed %.0f MB), non-heap %.0f MB%n", n, n, namespaces, memory, seconds,
                        status(ovnj.pid(), "VmHWM") / 1024, status(ovnj.pid(), "VmRSS") / 1024, heap / 1e6, heapCommitted / 1e6,
                        nonHeap / 1e6);
                if (nmt) {
                    Process summary = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                            Long.toString(ovnj.pid()), "VM.native_memory", "summary", "scale=MB").redirectErrorStream(true).start();
                    String text = new String(summary.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                    assertThat(summary.waitFor(60, TimeUnit.SECONDS)).isTrue();
                    text.lines().filter(l -> l.contains("committed=") && (l.startsWith("Total") || l.startsWith("-")))
                            .forEach(l -> System.out.println("MEASURE NMT " + l.trim()));
                }
                ovnj.terminate();
                assertThat(ovnj.await(Duration.ofSeconds(30)).exit()).isZero();
            }
        }
    }

    /** The sum over the memory pools of one area of a JVM memory gauge in Prometheus text. */
    private static double sum(String metrics, String gauge, String area) {
        double total = 0;
        Matcher m = Pattern.compile("(?m)^" + gauge + "\\{area=\"" + area + "\",id=\"[^\"]+\"} (\\S+)$").matcher(metrics);
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
        }
        return total;
    }

    private static int count(Nbctl nbctl) {
        String out = nbctl.run("--bare", "--columns=name", "find", "Load_Balancer", "vips!={}");
        return (int) out.lines().filter(l -> !l.isBlank()).count();
    }

    private static io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice slice(String service, String... ips) {
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withName(service + "-a").withNamespace("default")
                .addToLabels("kubernetes.io/service-name", service).endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort();
        for (String ip : ips) {
            b.addNewEndpoint().withAddresses(ip).withNodeName("node-1").withNewTargetRef().withKind("Pod").withNamespace("default")
                    .withName(service + "-" + ip).endTargetRef().withNewConditions().withReady(true).withServing(true)
                    .withTerminating(false).endConditions().endEndpoint();
        }
        return b.build();
    }

    /** A field of /proc/PID/status in kB. */
    private static long status(long pid, String field) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream().filter(l -> l.startsWith(field + ":"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElseThrow();
    }
}
