package dev.ovnj.bench;

import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The {@code controller} scenario (issue 42): the Kubernetes Service controller as it is deployed,
 * an {@code ovnj kubernetes} process ({@link ControllerProcess}), against fabric8's CRUD mock API
 * server in a JVM of its own ({@link MockApiServer}) and a real {@code ovsdb-server}, at two sizes
 * ({@code controller-small}, {@code controller-large}: 1,000 and 10,000 Services; 100 and 1,000
 * with {@code --quick}). Each size on fresh processes, in this order:
 * <ol>
 *   <li>a controller serving no Service: its live heap, the baseline of the heap per Service;</li>
 *   <li>the mock API server alone: N Services of type LoadBalancer and N EndpointSlices of 2 ready
 *       endpoints created (4 at a time), then listed, with no controller running: its wall and CPU
 *       per request;</li>
 *   <li>a controller started on them: time until every Service has its
 *       {@code status.loadBalancer.ingress} (an {@link IngressWatch}), then until it is idle; the
 *       CPU of every process in that window (controller, mock API server, ovsdb-server, harness)
 *       and the controller's share; its Northbound transactions; its live heap;</li>
 *   <li>that controller stopped (SIGTERM) and a new one started on the same database and API
 *       server until idle: its time, CPU, Northbound transactions (target: none) and the writes
 *       it made to the API (Service changes the watch saw, non-GET requests the server served).</li>
 * </ol>
 * Addresses are allocated by the controller (no claims are seeded) from the command-line external
 * port's /16, as a first deployment does; no {@code EipPool} exists. Targets, as ratios of the two
 * sizes in the one run (issue 42, item 5): per-Service time at the large size within 1.5x of the
 * small's; the restart sends no transaction; heap per Service no more than the small's.
 *
 * <p>Not in the full run, nor in {@code --quick} (CI runs that): only {@code --only controller}.
 */
final class KubernetesControllerScenario {
    static final String NAME = "controller";
    private static final String NAMESPACE = "default";
    private static final String ROUTER = "gw";
    private static final String EXTERNAL_PORT = "gw-ext";
    private static final String SWITCH = "pods";
    private static final int CREATORS = 4;
    private static final long QUIET_MILLIS = 3000;
    private static final long STALL_SECONDS = 600;

    private final Results results;
    private final Path jar;

    private KubernetesControllerScenario(Results results, Path jar) {
        this.results = results;
        this.jar = jar;
    }

    static void run(int small, int large, Results results) throws Exception {
        // Builds cli/target/ovnj.jar when it is missing or older than a source; not measured.
        CliStartupScenario.check(WholeProcess.run(List.of(CliStartupScenario.launcher(), "version")), "ovnj version", 1);
        KubernetesControllerScenario s = new KubernetesControllerScenario(results, CliStatusScenario.root().resolve("cli/target/ovnj.jar"));
        for (int n : small == large ? List.of(small) : List.of(small, large)) {
            s.size(n);
        }
        results.note(Proc.fmt("%s: `ovnj kubernetes` as a process (%s), fabric8's CRUD mock API server in a JVM of its own, a real"
                + " ovsdb-server; N Services of type LoadBalancer with one EndpointSlice of 2 ready endpoints each, addresses"
                + " allocated from the external port's /16 (no EipPool); each size on fresh processes", NAME,
                String.join(" ", ControllerProcess.JVM_FLAGS)));
    }

    private void size(int n) throws Exception {
        String label = Scenarios.label(n);
        String controller = "controller-" + label;
        String mockApi = "mock-api-" + label;
        System.out.println("   " + java.time.LocalTime.now().withNano(0) + " controller scenario at " + n + " Services");
        Path dir = Files.createTempDirectory("ovnj-bench-controller");
        try (OvsdbServer server = OvsdbServer.start(); MockApiServer mock = MockApiServer.start();
             KubernetesClient kube = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(mock.url())
                     .withTrustCerts(true).withNamespace(NAMESPACE).withRequestTimeout(120_000).build()).build()) {
            Nbctl.of(server).run("lr-add", ROUTER, "--", "lrp-add", ROUTER, EXTERNAL_PORT, "02:00:00:00:00:02", "10.64.0.1/16",
                    "--", "ls-add", SWITCH);
            Path kubeconfig = mock.kubeconfig(dir);
            Path log = dir.resolve("ovnj-kubernetes.log");

            // 1. The baseline: the same process serving nothing.
            ControllerRun.Baseline baseline;
            try (ControllerProcess idle = start(kubeconfig, server, log)) {
                idle.awaitIdle(0, QUIET_MILLIS, 300);
                baseline = new ControllerRun.Baseline(idle.servingSeconds(), idle.cpuSeconds(), idle.liveHeapBytes());
                Scenarios.check(idle.stop() == 0, "the baseline controller did not exit 0 on SIGTERM: " + idle.tail());
            }
            results.add(NAME, controller, "baseline_serving_s", baseline.servingSeconds());
            results.add(NAME, controller, "baseline_cpu_s", baseline.cpu());
            results.add(NAME, controller, "baseline_heap_mb", baseline.liveHeapBytes() / 1e6);

            // 2. The mock API server alone.
            double cpu0 = mock.cpuSeconds();
            long requests0 = mock.requests().get("total");
            long t0 = System.nanoTime();
            create(kube, n);
            double createSeconds = Scenarios.secondsSince(t0);
            double createCpu = mock.cpuSeconds() - cpu0;
            long createRequests = mock.requests().get("total") - requests0;
            results.add(NAME, mockApi, "create_s", createSeconds);
            results.add(NAME, mockApi, "create_cpu_s", createCpu);
            results.add(NAME, mockApi, "create_cpu_per_request_ms", createCpu * 1000 / createRequests);
            cpu0 = mock.cpuSeconds();
            t0 = System.nanoTime();
            int listed = kube.services().inNamespace(NAMESPACE).list().getItems().size()
                    + kube.discovery().v1().endpointSlices().inNamespace(NAMESPACE).list().getItems().size();
            Scenarios.check(listed == 2 * n, "listed " + listed + " objects, created " + 2 * n);
            results.add(NAME, mockApi, "list_s", Scenarios.secondsSince(t0));
            results.add(NAME, mockApi, "list_cpu_s", mock.cpuSeconds() - cpu0);

            try (IngressWatch watch = new IngressWatch(kube, NAMESPACE)) {
                Scenarios.check(watch.withIngress() == 0, watch.withIngress() + " Services have an address before any controller ran");
                // 3. The controller serves them.
                double mockCpu0 = mock.cpuSeconds();
                double ovsdbCpu0 = Proc.cpuSeconds(server.pid());
                double harnessCpu0 = Proc.jvmCpuSeconds();
                Map<String, Long> requestsBefore = mock.requests();
                // Current main needed 15 minutes for half of 1,000 on the loaded machine: the bound
                // is 10 minutes without progress, and 2 s per Service in all.
                long bound = 600 + 2L * n;
                try (ControllerProcess first = start(kubeconfig, server, log)) {
                    long done = watch.awaitIngress(n, STALL_SECONDS, bound, first::alive);
                    double ingressSeconds = (done - first.startNanos()) / 1e9;
                    double idleSeconds = first.awaitIdle(n, QUIET_MILLIS, bound);
                    double controllerCpu = first.cpuSeconds();
                    double mockCpu = mock.cpuSeconds() - mockCpu0;
                    double ovsdbCpu = Proc.cpuSeconds(server.pid()) - ovsdbCpu0;
                    double harnessCpu = Proc.jvmCpuSeconds() - harnessCpu0;
                    Map<String, Long> requestsAfter = mock.requests();
                    PrometheusText metrics = first.metrics();
                    long txns = Math.round(metrics.sum(ControllerProcess.TRANSACTIONS, ""));
                    long reconciliations = Math.round(metrics.sum(ControllerProcess.RECONCILIATIONS, ""));
                    // Issue 42, item 4: claims that raced with each other and were retried later.
                    long addressFailed = Math.round(metrics.sum(ControllerProcess.CONDITIONS, "reason=\"AddressFailed\""));
                    // Last: the collections jcmd asks for are not the controller's own work.
                    ControllerRun run = new ControllerRun(n, ingressSeconds, controllerCpu, mockCpu, ovsdbCpu, harnessCpu, first.liveHeapBytes(),
                            baseline);
                    results.add(NAME, controller, "serving_s", first.servingSeconds());
                    results.add(NAME, controller, "ingress_s", run.ingressSeconds());
                    results.add(NAME, controller, "per_service_ms", run.perServiceMillis());
                    results.add(NAME, controller, "idle_s", idleSeconds);
                    results.add(NAME, controller, "cpu_s", run.controllerCpu());
                    results.add(NAME, controller, "cpu_per_service_ms", run.cpuPerServiceMillis());
                    results.add(NAME, controller, "heap_mb", run.liveHeapBytes() / 1e6);
                    results.add(NAME, controller, "heap_per_service_kb", run.heapPerServiceKb());
                    results.add(NAME, controller, "nb_txns", txns);
                    results.add(NAME, controller, "reconciliations", reconciliations);
                    results.add(NAME, controller, "address_failed_conditions", addressFailed);
                    results.add(NAME, controller, "cpu_share", run.controllerShare());
                    results.add(NAME, mockApi, "converge_cpu_s", run.mockCpu());
                    results.add(NAME, mockApi, "cpu_share", run.mockShare());
                    long served = requestsAfter.get("total") - requestsBefore.get("total");
                    results.add(NAME, mockApi, "converge_requests", served);
                    results.add(NAME, mockApi, "converge_cpu_per_request_ms", run.mockCpu() * 1000 / served);
                    results.add(NAME, mockApi, "converge_writes", writes(requestsAfter) - writes(requestsBefore));
                    results.add(NAME, "ovsdb-server-" + label, "converge_cpu_s", run.ovsdbCpu());
                    results.add(NAME, "harness-" + label, "converge_cpu_s", run.harnessCpu());
                    results.note(Proc.fmt("%s %s: %.0f s of CPU in the window (controller %.0f %%, mock API server %.0f %%, ovsdb-server"
                            + " %.0f %%, harness %.0f %%) over %.0f s until idle on %d cores; the mock served %d requests (%s)", NAME, label,
                            run.totalCpu(), 100 * run.controllerShare(), 100 * run.mockShare(), 100 * run.ovsdbCpu() / run.totalCpu(),
                            100 * run.harnessCpu() / run.totalCpu(), idleSeconds, Runtime.getRuntime().availableProcessors(), served,
                            difference(requestsAfter, requestsBefore)));
                    Scenarios.check(first.stop() == 0, "the controller did not exit 0 on SIGTERM: " + first.tail());
                }

                // 4. A restart on the same database and API server.
                long updates0 = watch.updates();
                Map<String, Long> requestsBefore2 = mock.requests();
                // The server's own count of what it was sent: the client counts only what
                // committed, and a transaction the server refused is sent all the same.
                server.appctl("vlog/set", "jsonrpc:file:dbg");
                long sent0 = transactRequests(server.log());
                try (ControllerProcess second = start(kubeconfig, server, log)) {
                    double idleSeconds = second.awaitIdle(n, QUIET_MILLIS, bound);
                    results.add(NAME, controller, "restart_idle_s", idleSeconds);
                    results.add(NAME, controller, "restart_cpu_s", second.cpuSeconds());
                    results.add(NAME, controller, "restart_sent_txns", transactRequests(server.log()) - sent0);
                    server.appctl("vlog/set", "jsonrpc:file:info");
                    results.add(NAME, controller, "restart_txns", second.transactions());
                    results.add(NAME, controller, "restart_service_changes", watch.updates() - updates0);
                    results.add(NAME, controller, "restart_api_writes", writes(mock.requests()) - writes(requestsBefore2));
                    Scenarios.check(watch.withIngress() == n, "after the restart " + watch.withIngress() + " of " + n
                            + " Services have an ingress address");
                    Scenarios.check(second.stop() == 0, "the restarted controller did not exit 0 on SIGTERM: " + second.tail());
                }
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    private ControllerProcess start(Path kubeconfig, OvsdbServer server, Path log) throws java.io.IOException {
        return ControllerProcess.start(jar, kubeconfig, server.remote(), ROUTER, EXTERNAL_PORT, SWITCH, log);
    }

    /** N Services and their slices, {@value #CREATORS} requests in flight, as a deployment tool would. */
    private static void create(KubernetesClient kube, int n) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CREATORS);
        try {
            List<Future<?>> created = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int k = i;
                created.add(pool.submit(() -> {
                    kube.resource(service(k)).create();
                    kube.resource(slice(k)).create();
                }));
            }
            for (Future<?> f : created) {
                f.get(600, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static Service service(int i) {
        return new ServiceBuilder().withNewMetadata().withName("svc-" + i).withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().withType("LoadBalancer").addNewPort().withName("http").withProtocol("TCP").withPort(80).endPort()
                .endSpec().build();
    }

    /** Service i's slice: two ready endpoints, 10.4.x.y and 10.5.x.y (distinct up to 62,500 Services). */
    static EndpointSlice slice(int i) {
        String service = "svc-" + i;
        String a = (i / 250) % 250 + "." + (i % 250 + 1);
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withName(service + "-a").withNamespace(NAMESPACE)
                .addToLabels("kubernetes.io/service-name", service).endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort();
        for (String ip : List.of("10.4." + a, "10.5." + a)) {
            b.addNewEndpoint().withAddresses(ip).withNodeName("node-1").withNewTargetRef().withKind("Pod").withNamespace(NAMESPACE)
                    .withName(service + "-" + ip).endTargetRef().withNewConditions().withReady(true).withServing(true)
                    .withTerminating(false).endConditions().endEndpoint();
        }
        return b.build();
    }

    /** The {@code transact} requests in an ovsdb-server log written with {@code jsonrpc:file:dbg}. */
    static long transactRequests(String serverLog) {
        return serverLog.lines().filter(l -> l.contains("|jsonrpc|DBG|") && l.contains("received request, method=\"transact\"")).count();
    }

    /** Requests that may write: everything but GET. */
    private static long writes(Map<String, Long> byMethod) {
        return byMethod.entrySet().stream().filter(e -> !e.getKey().equals("total") && !e.getKey().equals("GET"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static String difference(Map<String, Long> after, Map<String, Long> before) {
        StringBuilder sb = new StringBuilder();
        after.forEach((k, v) -> {
            if (!k.equals("total")) {
                sb.append(sb.isEmpty() ? "" : ", ").append(k).append(' ').append(v - before.getOrDefault(k, 0L));
            }
        });
        return sb.toString();
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
