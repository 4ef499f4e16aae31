package dev.ovnj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The end-to-end benchmark: every scenario of {@link #ALL} against ovnj and the peers (OVS Python
 * IDL, ovn-nbctl daemon, OpenDaylight's OVSDB library in its own JVM), on {@code ovsdb-server}
 * processes started through the testkit, with the {@link Targets} checked at the end. Run by
 * {@code bench/run.sh}; writes {@code latest.json}, {@code latest.md} and the SVG plots. Each
 * scenario is a class of its own ({@link BulkCreate}, {@link SyncScenario}, {@link EngineScenario},
 * {@link ScaleScenario}, {@link GcStorm}, {@link FailoverScenario}, {@link DoctorScenario}, ...);
 * this class holds the run, its sizes and what the scenarios share.
 *
 * <p>Arguments: {@code [--quick] [--size name=N]... [--out DIR] [--peers DIR] [--only s1,s2] [--command TEXT] [--list]}.
 */
public final class Scenarios {
    static final String ROUTER = "bench-router";
    static final String SWITCH = "bench-switch";
    static final String GROUP = "bench-lbs";
    static final String OWNER = "bench";
    static final Duration WAIT = Duration.ofSeconds(120);
    /**
     * The ovn-nbctl arguments that seed every database: the router (with a port whose network
     * holds every VIP the harness uses, as a router serving those VIPs has) and the switch.
     */
    static final String[] SEED = {"lr-add", ROUTER, "--", "lrp-add", ROUTER, "bench-lrp", "00:00:00:00:ff:01", "172.0.0.1/8",
        "--", "ls-add", SWITCH};
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every scenario, in the order a run executes them; {@code --only} takes these names. */
    static final List<String> ALL = java.util.stream.Stream.of(List.of("bulk-create", "bulk-create-monitor", "bulk-create-cluster", "sync", "engine",
            "scale", "gc-storm", "failover", "doctor"),
            // issue 33: whole commands and a controller's restart, each scenario a class of its own
            List.of(CliStatusScenario.NAME, RestartApplyScenario.NAME, CliStartupScenario.NAME))
            .flatMap(List::stream).toList();

    /**
     * Scenarios the full run leaves out: {@code soak} runs for minutes by design
     * ({@code soak-seconds}) and measures endurance, not speed. They run when {@code --only} names
     * them, and in a {@code --quick} run, whose soak is 25 s.
     */
    static final List<String> ON_REQUEST = List.of("soak");

    /**
     * Scenarios that run only when {@code --only} names them, never in the full run nor in
     * {@code --quick} (which CI runs): {@code controller} drives whole processes for tens of
     * minutes at its full sizes (issue 42).
     */
    static final List<String> BY_NAME = List.of(KubernetesControllerScenario.NAME, NbctlBatchScenario.NAME);

    /**
     * Sizes of one run: named counts ({@code bulk}, {@code monitor}, {@code cluster}, {@code sync},
     * {@code engine}, {@code incremental}, {@code drift}, {@code failover}, {@code window},
     * {@code gc}, {@code scale-changes}, {@code warm-changes}) and the spec counts of the scale curve.
     */
    record Sizes(Map<String, Integer> counts, List<Integer> scale) {
        /** Each named count at its full size and at its {@code --quick} size, side by side. */
        private record Count(String name, int full, int quick) {
        }

        private static final List<Count> COUNTS = List.of(
                new Count("bulk", 10_000, 500),
                new Count("bulk-passes", 3, 1),
                new Count("monitor", 1_000, 100),
                new Count("cluster", 10_000, 300),
                new Count("sync", 50_000, 2_500),
                new Count("engine", 10_000, 500),
                new Count("incremental", 1_000, 100),
                new Count("scale-changes", 3_000, 100),
                new Count("scale-forks", 3, 1),
                new Count("warm-changes", 15_000, 200),
                new Count("drift", 1_000, 20),
                new Count("failover", 10_000, 500),
                new Count("window", 128, 128),
                new Count("gc", 10_000, 500),
                new Count("soak-seconds", 600, 25),
                new Count("soak-window", 60, 5),
                new Count("soak-specs", 500, 50),
                new Count("controller-small", 1_000, 100),
                new Count("controller-large", 10_000, 1_000));

        static Sizes full() {
            return new Sizes(COUNTS.stream().collect(Collectors.toUnmodifiableMap(Count::name, Count::full)),
                    List.of(1_000, 10_000, 100_000));
        }

        static Sizes quick() {
            return new Sizes(COUNTS.stream().collect(Collectors.toUnmodifiableMap(Count::name, Count::quick)),
                    List.of(250, 1_000, 4_000));
        }

        int get(String name) {
            Integer v = counts.get(name);
            if (v == null) {
                throw new IllegalArgumentException("unknown size " + name);
            }
            return v;
        }

        /** Overrides one size, e.g. {@code engine=2000} or {@code scale=1000,10000}. */
        Sizes with(String assignment) {
            String[] kv = assignment.split("=", 2);
            if (kv[0].equals("scale")) {
                return new Sizes(counts, Arrays.stream(kv[1].split(",")).map(Integer::valueOf).toList());
            }
            get(kv[0]);
            Map<String, Integer> m = new java.util.TreeMap<>(counts);
            m.put(kv[0], Integer.parseInt(kv[1]));
            return new Sizes(Map.copyOf(m), scale);
        }

        @Override
        public String toString() {
            return new java.util.TreeMap<>(counts) + ", scale=" + scale;
        }
    }

    private final Sizes sizes;
    private final Results results;
    private final Path peers;
    private final Path work;
    private final Path schema;

    Scenarios(Sizes sizes, Results results, Path peers) throws IOException {
        this.sizes = sizes;
        this.results = results;
        this.peers = peers;
        this.work = Files.createTempDirectory("ovnj-bench");
        this.schema = Schemas.ovnNorthbound(work);
    }

    /**
     * Runs the scenarios and writes the results.
     *
     * @param args {@code --quick}, size overrides and output options, as bench/run.sh passes them
     * @throws Exception when a scenario cannot run
     */
    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path out = Path.of("bench/results");
        Path peers = Path.of("bench/peers");
        Set<String> only = Set.of();
        String command = "bench/run.sh";
        List<String> overrides = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--peers" -> peers = Path.of(args[++i]);
                case "--only" -> only = Set.of(args[++i].split(","));
                case "--list" -> {
                    ALL.forEach(System.out::println);
                    ON_REQUEST.forEach(System.out::println);
                    BY_NAME.forEach(System.out::println);
                    return;
                }
                case "--command" -> command = args[++i];
                case "--size" -> overrides.add(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Results results = new Results(machine()).echo();
        Sizes sizes = quick ? Sizes.quick() : Sizes.full();
        for (String o : overrides) {
            sizes = sizes.with(o);
        }
        for (String o : only) {
            if (!ALL.contains(o) && !ON_REQUEST.contains(o) && !BY_NAME.contains(o)) {
                throw new IllegalArgumentException("unknown scenario " + o + "; scenarios: " + ALL + ", on request: " + ON_REQUEST
                        + ", by name only: " + BY_NAME);
            }
        }
        Scenarios s = new Scenarios(sizes, results, peers);
        System.out.println("sizes: " + s.sizes + "; machine: " + results.machine());
        long t0 = System.nanoTime();
        List<String> failed = new ArrayList<>();
        for (String name : java.util.stream.Stream.of(ALL, ON_REQUEST, BY_NAME).flatMap(List::stream).toList()) {
            if (only.isEmpty() ? BY_NAME.contains(name) || ON_REQUEST.contains(name) && !quick : !only.contains(name)) {
                continue;
            }
            // The time lets a profile (bench/profile.sh) be split by scenario.
            System.out.println("== " + name + " (" + java.time.LocalTime.now().withNano(0) + ")");
            long ts = System.nanoTime();
            try {
                switch (name) {
                    case "bulk-create" -> new BulkCreate(s).standalone();
                    case "bulk-create-monitor" -> new BulkCreate(s).withMonitor();
                    case "bulk-create-cluster" -> new BulkCreate(s).cluster();
                    case "sync" -> new SyncScenario(s).run();
                    case "engine" -> new EngineScenario(s).run();
                    case "scale" -> new ScaleScenario(s).run();
                    case "gc-storm" -> new GcStorm(s).run();
                    case "failover" -> new FailoverScenario(s).run();
                    // A tenth of the engine size: ovn-northd 23.03 needs minutes here to translate 10,000 load
                    // balancers; DiagnosisBench measures the diagnosis of 10,000 on its own.
                    case "doctor" -> DoctorScenario.run(s.sizes.get("engine") / 10, results);
                    case "soak" -> new Soak(s).run();
                    // issue 33, at the engine size (10,000 in a full run)
                    case CliStatusScenario.NAME -> CliStatusScenario.run(s.sizes.get("engine"), results);
                    case RestartApplyScenario.NAME -> RestartApplyScenario.run(s.sizes.get("engine"), results);
                    case CliStartupScenario.NAME -> CliStartupScenario.run(results);
                    // issue 42: the Kubernetes controller as a process, at two sizes
                    case KubernetesControllerScenario.NAME -> KubernetesControllerScenario.run(s.sizes.get("controller-small"),
                            s.sizes.get("controller-large"), results);
                    // issue 53: a project's Northbound batch through ovnj, ovn-nbctl (per command, daemon) and the Python IDL
                    case NbctlBatchScenario.NAME -> NbctlBatchScenario.run(quick ? 5 : 30, results);
                    default -> throw new IllegalStateException(name);
                }
            } catch (Throwable e) {
                failed.add(name);
                results.note("scenario " + name + " FAILED: " + e);
                e.printStackTrace();
            }
            System.out.printf(Locale.ROOT, "   (%s took %.1f s)%n", name, (System.nanoTime() - ts) / 1e9);
        }
        new Targets(results, s.sizes).note();
        results.note(Proc.fmt("whole run took %.0f s", (System.nanoTime() - t0) / 1e9));
        results.write(out, command);
        List<Path> plots = Plots.write(results, out);
        System.out.println("wrote " + out.resolve("latest.json") + ", " + out.resolve("latest.md") + " and " + plots.size() + " plots");
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    static Results.Machine machine() {
        double memGb = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memGb = Math.round(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0 * 10) / 10.0;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String os = "unknown";
        try {
            os = Files.readAllLines(Path.of("/etc/os-release")).stream().filter(l -> l.startsWith("PRETTY_NAME="))
                    .map(l -> l.substring(12).replace("\"", "")).findFirst().orElse("unknown");
        } catch (IOException ignored) {
            // keep unknown
        }
        os = os + ", Linux " + System.getProperty("os.version");
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String ovs = Proc.firstLine("ovsdb-server", "--version").replaceAll(".*\\) ", "");
        String ovn = Proc.firstLine("ovn-nbctl", "--version").replaceAll(".* ", "");
        return new Results.Machine(Runtime.getRuntime().availableProcessors(), memGb, jdk, ovs, ovn, os);
    }

    // ------------------------------------------------------------------ helpers

    Results results() {
        return results;
    }

    Sizes sizes() {
        return sizes;
    }

    Path peers() {
        return peers;
    }

    Path schema() {
        return schema;
    }

    /** A JVM like this one (same classpath, its own heap) for the Java peer's driver. */
    static List<String> javaCommand() {
        // The peer is warmed as ovnj's clients are (JitWarmth's cap, when --quick set one).
        String warmPasses = "-Dovnj.bench.warmPasses=" + Integer.getInteger("ovnj.bench.warmPasses", JitWarmth.MAX_PASSES);
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms1g", "-Xmx6g", "-XX:+UseG1GC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", warmPasses, "-cp", System.getProperty("java.class.path"));
    }

    static OvsdbClient client(String remotes, MonitorRequest monitor) {
        // No cache audit: a full-sync-sized reply every few minutes would land in some measured
        // windows and not in others (CacheAuditIT covers the audit).
        return OvsdbClient.builder().remotes(remotes).monitor(monitor)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(500)).cacheAudit(Duration.ZERO).build();
    }

    static OvsdbServer seededServer() {
        OvsdbServer server = OvsdbServer.start();
        Nbctl.of(server).run(SEED);
        return server;
    }

    /** A distinct valid VIP for item {@code i} (up to 250,000 items) in network 172.{@code net}. */
    static String vip(int i, int net) {
        int block = i % 62_500;
        return "172." + (net + 20 * (i / 62_500)) + "." + (block / 250) + "." + (block % 250 + 1) + ":80";
    }

    static String backends(int i, int count, int generation) {
        StringBuilder sb = new StringBuilder();
        for (int b = 1; b <= count; b++) {
            if (b > 1) {
                sb.append(',');
            }
            sb.append(10 + i / 62_500).append('.').append(i % 62_500 / 250).append('.').append(i % 250).append('.')
                    .append(b + generation).append(":8080");
        }
        return sb.toString();
    }

    /** The bulk-create transaction: insert with uuid-name, attach to the router and the switch. */
    static Transaction bulkTx(OvsdbClient c, String prefix, int i) {
        Insert lb = Operations.insert("Load_Balancer").uuidName("lb")
                .value("name", prefix + i)
                .value("vips", Map.of(vip(i, 16), backends(i, 3, 0)))
                .value("protocol", Set.of("tcp"));
        return c.transaction()
                .add(lb)
                .add(Operations.mutate("Logical_Router").where(Condition.eq("name", ROUTER))
                        .mutation(Mutation.insert("load_balancer", Set.of(lb.reference()))))
                .add(Operations.mutate("Logical_Switch").where(Condition.eq("name", SWITCH))
                        .mutation(Mutation.insert("load_balancer", Set.of(lb.reference()))))
                .build();
    }

    /** Runs {@code n} transactions with at most {@code window} in flight; returns the failures. */
    static int pipelined(OvsdbClient c, int n, int window, java.util.function.IntFunction<Transaction> tx) throws InterruptedException {
        Semaphore permits = new Semaphore(window);
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<Throwable> first = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            permits.acquire();
            c.transact(tx.apply(i)).whenComplete((r, e) -> {
                if (e != null) {
                    failures.incrementAndGet();
                    first.compareAndSet(null, e);
                }
                permits.release();
            });
        }
        permits.acquire(window);
        if (first.get() != null) {
            System.err.println("first failure: " + first.get());
        }
        return failures.get();
    }

    JsonNode peer(List<String> command) {
        String out = Proc.run(command, 3600);
        String last = out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("peer printed no JSON: " + command + "\n" + out));
        try {
            return JSON.readTree(last);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    void latencies(String scenario, String client, List<Double> millis, boolean max) {
        double[] a = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        results.samples(scenario, client, a);
        results.add(scenario, client, "p50_ms", percentile(a, 50));
        results.add(scenario, client, "p99_ms", percentile(a, 99));
        if (max) {
            results.add(scenario, client, "max_ms", a.length == 0 ? Double.NaN : a[a.length - 1]);
        }
    }

    // ------------------------------------------------------------------ shared by the engine scenarios

    static List<LoadBalancerSpec> specs(int n, boolean group) {
        List<LoadBalancerSpec> specs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            specs.add(spec(i, group, 0));
        }
        return specs;
    }

    static LoadBalancerSpec spec(int i, boolean group, int generation) {
        LoadBalancerSpec.Builder b = LoadBalancerSpec.builder("svc-" + i).routers(ROUTER).switches(SWITCH)
                .tcp(vip(i, 20), backends(i, 3, generation).split(","));
        if (group) {
            b.group(GROUP);
        }
        return b.build();
    }

    /** A server with an engine, and the engine's transaction counter. */
    static final class EngineSetup implements AutoCloseable {
        final OvsdbServer server;
        final OvsdbClient client;
        final LoadBalancerEngine engine;
        // Not copy-on-write: a gc-storm records 10,000 repairs per round on the engine's thread.
        final List<RepairEvent> repairs = java.util.Collections.synchronizedList(new ArrayList<>());

        EngineSetup() {
            server = seededServer();
            client = client(server.remote(), LoadBalancerEngine.monitorRequest());
            // One apply of 100,000 specs is one request; the harness measures how long it takes,
            // so the default 30 s bound (near that converge's time on a loaded 2-core machine)
            // must not turn a slow figure into a failure.
            engine = LoadBalancerEngine.builder(client).requestTimeout(java.time.Duration.ofMinutes(5)).build();
            engine.addListener(new EngineListener() {
                @Override
                public void onRepair(RepairEvent event) {
                    repairs.add(event);
                }
            });
            engine.start();
            client.startAndWait(WAIT);
        }

        @Override
        public void close() {
            engine.close();
            client.close();
            server.close();
        }
    }

    /** Label of a spec count in client names: 1000 -> 1k, 250 -> 250. */
    static String label(int n) {
        return n % 1000 == 0 ? n / 1000 + "k" : String.valueOf(n);
    }

    /** The first few specs an apply did not apply, with their state, for a failure message. */
    static String notApplied(dev.ovnj.lb.ApplyResult result) {
        return result.statuses().entrySet().stream().filter(en -> en.getValue().state() != dev.ovnj.lb.SpecStatus.State.APPLIED)
                .limit(3).map(en -> en.getKey() + "=" + en.getValue()).toList().toString();
    }

    static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    static String join(String... parts) {
        return String.join(" ", Arrays.asList(parts));
    }
}
