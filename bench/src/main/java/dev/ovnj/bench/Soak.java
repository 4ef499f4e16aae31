package dev.ovnj.bench;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The {@code soak} scenario: one engine kept busy for {@code soak-seconds} (10 minutes; 25 s with
 * {@code --quick}; {@code --size soak-seconds=3600} for an hour) by a controller-like driver,
 * while the world misbehaves:
 *
 * <ul>
 *   <li>desired churn: every {@value #STEP_MILLIS} ms an upsert with new backends, a remove, or
 *       an upsert of a removed spec back, and every {@value #APPLY_EVERY_STEPS} steps an
 *       {@code apply} of the whole desired set, as an informer's resync would;</li>
 *   <li>foreign deletions: another client deletes two owned load balancers every second;</li>
 *   <li>in the middle of every window ({@code soak-window}, 60 s; 5 s with {@code --quick}) the
 *       {@code ovsdb-server} is stopped and started again on the same port and database file.</li>
 * </ul>
 *
 * <p>At the end of each window the driver stops, waits (bounded) for every future it holds,
 * applies the desired set once more (as a controller's resync does) and waits until the
 * database holds exactly the desired load balancers; it then records, per window (client
 * {@code window-NN}): {@code heap_mb} (used heap after full collections), {@code threads} (live
 * JVM threads but the elastic ones), {@code fds} (open file descriptors of this process), {@code repair_p99_ms} (of the
 * engine's repairs during the window), {@code elastic_threads} (threads of pools that end idle
 * threads, not counted in {@code threads}), {@code lost_specs} (desired specs whose VIP and backends
 * the database still lacks at the bound), {@code stale_rows} (load balancers the database holds
 * that no desired spec has), {@code pending_futures} (futures still incomplete after the bound),
 * {@code failed_futures} and {@code settle_s}. Totals go to client {@code ovnj-engine}.
 */
final class Soak {
    static final String CLIENT = "ovnj-engine";
    static final String WINDOW_PREFIX = "window-";
    private static final long STEP_MILLIS = 50;
    private static final int APPLY_EVERY_STEPS = 100;
    private static final int DELETES_PER_SECOND = 2;
    private static final long SETTLE_SECONDS = 60;

    private final Scenarios s;
    private final Results results;
    private final Random random = new Random(31);
    // The desired set as the driver declares it: name -> spec.
    private final Map<String, LoadBalancerSpec> desired = new LinkedHashMap<>();
    private final Map<Integer, Integer> generation = new HashMap<>();
    private final List<Integer> removed = new ArrayList<>();
    private final List<CompletableFuture<?>> pending = new ArrayList<>();
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final List<Double> repairMs = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    Soak(Scenarios s) {
        this.s = s;
        this.results = s.results();
    }

    void run() throws Exception {
        int seconds = s.sizes().get("soak-seconds");
        int window = s.sizes().get("soak-window");
        int n = s.sizes().get("soak-specs");
        int windows = Math.max(2, seconds / window);
        long foreignDeletes = 0;
        long restarts = 0;
        try (Scenarios.EngineSetup e = new Scenarios.EngineSetup();
             OvsdbClient foreign = Scenarios.client(e.server.remote(),
                     MonitorRequest.of(TableMonitor.all("Load_Balancer").columns("vips")))) {
            e.engine.addListener(new EngineListener() {
                @Override
                public void onRepair(RepairEvent event) {
                    synchronized (repairMs) {
                        repairMs.add(event.latency().toNanos() / 1e6);
                    }
                }
            });
            foreign.startAndWait(Scenarios.WAIT);
            for (int i = 0; i < n; i++) {
                declare(i);
            }
            ApplyResult first = e.engine.apply(Scenarios.OWNER, List.copyOf(desired.values())).get(600, TimeUnit.SECONDS);
            Scenarios.check(first.allApplied(), "soak: first apply " + Scenarios.notApplied(first));
            int next = n;
            for (int w = 1; w <= windows; w++) {
                System.out.println("  soak window " + w + "/" + windows + " (" + java.time.LocalTime.now().withNano(0) + ")");
                synchronized (repairMs) {
                    repairMs.clear();
                }
                // The shared setup keeps every RepairEvent for the scenarios that read them; the soak
                // does not, and must not count the harness's own list as the engine's growth.
                e.repairs.clear();
                long failedBefore = failed.get();
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(window);
                long restartAt = start + TimeUnit.SECONDS.toNanos(window) / 2;
                boolean restarted = false;
                long nextDelete = start;
                int step = 0;
                while (System.nanoTime() < end) {
                    next = churn(e, n, next, ++step);
                    long now = System.nanoTime();
                    if (now >= nextDelete) {
                        foreignDeletes += deleteSome(foreign);
                        nextDelete = now + TimeUnit.SECONDS.toNanos(1);
                    }
                    if (!restarted && now >= restartAt) {
                        // Same port, same database file: what a rolling restart of the NB server does.
                        e.server.restart();
                        restarts++;
                        restarted = true;
                    }
                    Thread.sleep(STEP_MILLIS);
                }
                long settleStart = System.nanoTime();
                long stillPending = awaitPending();
                ApplyResult resync = e.engine.apply(Scenarios.OWNER, List.copyOf(desired.values()))
                        .get(SETTLE_SECONDS, TimeUnit.SECONDS);
                Mismatch m = awaitDatabase(foreign);
                String client = String.format(java.util.Locale.ROOT, "%s%02d", WINDOW_PREFIX, w);
                results.add("soak", client, "settle_s", (System.nanoTime() - settleStart) / 1e9);
                results.add("soak", client, "lost_specs", m.lost);
                results.add("soak", client, "stale_rows", m.stale);
                results.add("soak", client, "not_applied", resync.allApplied() ? 0 : notApplied(resync));
                results.add("soak", client, "pending_futures", stillPending);
                results.add("soak", client, "failed_futures", failed.get() - failedBefore);
                results.add("soak", client, "repair_p99_ms", repairP99());
                results.add("soak", client, "heap_mb", Proc.usedHeapAfterGc() / 1048576.0);
                long all = ManagementFactory.getThreadMXBean().getThreadCount();
                long elastic = elasticThreads();
                results.add("soak", client, "threads", all - elastic);
                results.add("soak", client, "elastic_threads", elastic);
                results.add("soak", client, "fds", openFileDescriptors());
            }
            results.add("soak", CLIENT, "futures", issued.get());
            results.add("soak", CLIENT, "failed_futures", failed.get());
            results.add("soak", CLIENT, "pending_futures", awaitPending());
            results.add("soak", CLIENT, "repairs", e.engine.metrics().repairs());
            results.add("soak", CLIENT, "foreign_deletes", foreignDeletes);
            results.add("soak", CLIENT, "restarts", restarts);
            results.add("soak", CLIENT, "lost_specs_max", maxOverWindows(windows, "lost_specs"));
            results.add("soak", CLIENT, "stale_rows_max", maxOverWindows(windows, "stale_rows"));
            for (String metric : List.of("heap_mb", "threads", "fds")) {
                double second = results.get("soak", windowClient(2), metric).orElseThrow();
                double last = results.get("soak", windowClient(windows), metric).orElseThrow();
                results.add("soak", CLIENT, metric + "_growth_pct", (last - second) / second * 100);
            }
            if (!failures.isEmpty()) {
                results.note("soak: first failed futures (each a call the driver made while the server restarted): " + failures);
            }
            results.note(Proc.fmt("soak: %d s in %d windows of %d s, %d specs of one owner; churn every %d ms (upsert, remove, "
                    + "re-add; apply of the whole set every %d steps), %d foreign deletions a second, one ovsdb-server restart "
                    + "(same port and database file) in the middle of each window", (long) windows * window, windows, window, n,
                    STEP_MILLIS, APPLY_EVERY_STEPS, DELETES_PER_SECOND));
        }
    }

    static String windowClient(int w) {
        return String.format(java.util.Locale.ROOT, "%s%02d", WINDOW_PREFIX, w);
    }

    private double maxOverWindows(int windows, String metric) {
        double max = 0;
        for (int w = 1; w <= windows; w++) {
            max = Math.max(max, results.get("soak", windowClient(w), metric).orElse(0.0));
        }
        return max;
    }

    /** One step of desired churn; returns the next unused spec index. */
    private int churn(Scenarios.EngineSetup e, int n, int next, int step) {
        if (step % APPLY_EVERY_STEPS == 0) {
            track(e.engine.apply(Scenarios.OWNER, List.copyOf(desired.values())));
            return next;
        }
        int dice = random.nextInt(10);
        if (dice < 6 && !desired.isEmpty()) {
            int i = indexOf(randomDesired());
            generation.merge(i, 1, Integer::sum);
            track(e.engine.upsert(Scenarios.OWNER, declare(i)));
        } else if (dice < 8 && desired.size() > n / 2) {
            String name = randomDesired();
            desired.remove(name);
            removed.add(indexOf(name));
            // A spec that comes back starts over at generation 0: the driver keeps nothing per name it dropped.
            generation.remove(indexOf(name));
            track(e.engine.remove(Scenarios.OWNER, name));
        } else {
            // A removed spec back, or (one in four) a new one, so names keep changing too.
            int i;
            if (!removed.isEmpty() && random.nextInt(4) != 0) {
                i = removed.remove(random.nextInt(removed.size()));
            } else {
                i = next++;
            }
            track(e.engine.upsert(Scenarios.OWNER, declare(i)));
        }
        return next;
    }

    private LoadBalancerSpec declare(int i) {
        LoadBalancerSpec spec = Scenarios.spec(i, false, generation.getOrDefault(i, 0));
        desired.put(spec.name(), spec);
        return spec;
    }

    private String randomDesired() {
        int k = random.nextInt(desired.size());
        return desired.keySet().stream().skip(k).findFirst().orElseThrow();
    }

    private static int indexOf(String name) {
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }

    private void track(CompletableFuture<?> f) {
        issued.incrementAndGet();
        f.whenComplete((r, err) -> {
            if (err != null) {
                failed.incrementAndGet();
                synchronized (failures) {
                    if (failures.size() < 3) {
                        failures.add(String.valueOf(err.getCause() != null ? err.getCause() : err));
                    }
                }
            }
        });
        pending.add(f);
        pending.removeIf(CompletableFuture::isDone);
    }

    /** Waits up to {@link #SETTLE_SECONDS} for the futures the driver holds; returns how many are still incomplete. */
    private long awaitPending() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS);
        while (pending.stream().anyMatch(f -> !f.isDone()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        pending.removeIf(CompletableFuture::isDone);
        return pending.size();
    }

    /** Deletes two owned load balancers from another connection; returns how many it deleted. */
    private long deleteSome(OvsdbClient foreign) {
        List<Row> rows = foreign.cache().table("Load_Balancer").rows();
        if (rows.isEmpty() || !foreign.isSynced()) {
            return 0;
        }
        var tx = foreign.transaction();
        for (int k = 0; k < DELETES_PER_SECOND; k++) {
            tx.add(Operations.delete("Load_Balancer").where(Condition.eq("_uuid", rows.get(random.nextInt(rows.size())).uuid())));
        }
        try {
            return foreign.transact(tx.build()).get(10, TimeUnit.SECONDS).results().size();
        } catch (Exception restartOrRace) {
            // The server restarting, or the engine's repair racing the delete: the next second tries again.
            return 0;
        }
    }

    /** Lost specs and stale rows when the database holds the desired set, or at the bound. */
    private record Mismatch(int lost, int stale) {
    }

    private Mismatch awaitDatabase(OvsdbClient foreign) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS);
        Mismatch m = compare(foreign);
        while ((m.lost > 0 || m.stale > 0) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            m = compare(foreign);
        }
        return m;
    }

    /** The desired VIPs with their backends against what the database holds, as the foreign client sees it. */
    private Mismatch compare(OvsdbClient foreign) {
        Map<String, String> want = new HashMap<>();
        for (LoadBalancerSpec spec : desired.values()) {
            int i = indexOf(spec.name());
            want.put(Scenarios.vip(i, 20), Scenarios.backends(i, 3, generation.getOrDefault(i, 0)));
        }
        Map<String, String> have = new HashMap<>();
        int stale = 0;
        for (Row row : foreign.cache().table("Load_Balancer").rows()) {
            if (row.get("vips") instanceof Map<?, ?> vips) {
                for (Map.Entry<?, ?> v : vips.entrySet()) {
                    if (want.containsKey(String.valueOf(v.getKey()))) {
                        have.put(String.valueOf(v.getKey()), String.valueOf(v.getValue()));
                    } else {
                        stale++;
                    }
                }
            }
        }
        int lost = 0;
        for (Map.Entry<String, String> w : want.entrySet()) {
            if (!w.getValue().equals(have.get(w.getKey()))) {
                lost++;
            }
        }
        return new Mismatch(lost, stale);
    }

    private double repairP99() {
        double[] sorted;
        synchronized (repairMs) {
            sorted = repairMs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        }
        return sorted.length == 0 ? 0 : Scenarios.percentile(sorted, 99);
    }

    private static long notApplied(ApplyResult result) {
        return result.statuses().values().stream().filter(st -> st.state() != dev.ovnj.lb.SpecStatus.State.APPLIED).count();
    }

    /**
     * Live threads of the pools that grow with load and end their threads when idle: the JDK's
     * process reapers (one per child process the harness waits for, kept 60 s idle) and the
     * engine's answer pool (kept 10 s idle). Counted apart so that a thread still alive from the
     * last burst does not read as growth.
     */
    private static long elasticThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("process reaper") || t.getName().startsWith("ovnj-engine-answers")).count();
    }

    private static long openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
