package dev.ovnj.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ovnj kubernetes} process as it is deployed: {@code cli/target/ovnj.jar} with the
 * image's JVM flags (deploy/Dockerfile, {@code -XX:MaxRAM} standing in for the container's 2Gi
 * limit), its {@code /metrics} on a free port. The harness reads its CPU from
 * {@code /proc/PID/stat}, its Northbound transactions and reconciliations from {@code /metrics},
 * and its live heap after a full collection ({@code jcmd GC.run}).
 */
final class ControllerProcess implements AutoCloseable {
    /** The image's flags (deploy/Dockerfile) with the deployment's 2Gi limit. */
    static final List<String> JVM_FLAGS = List.of("-XX:MaxRAM=2g", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError");
    /** Transactions its Northbound client committed (its engine's and its address claims'). */
    static final String TRANSACTIONS = "ovnj_client_transactions_total";
    /** Service reconciliations it finished. */
    static final String RECONCILIATIONS = "ovnj_kubernetes_reconcile_seconds_count";
    /** Conditions it set on Services, by {@code reason}. */
    static final String CONDITIONS = "ovnj_kubernetes_conditions_total";
    private static final Pattern PORT = Pattern.compile("metrics and probes on port (\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final Process process;
    private final Path log;
    private final int port;
    private final long startNanos;
    private final double servingSeconds;

    private ControllerProcess(Process process, Path log, long startNanos, long boundSeconds) throws IOException {
        this.process = process;
        this.log = log;
        this.startNanos = startNanos;
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // The serving line is the only line the command prints to standard output; a reader
        // thread keeps reading it (and anything after) so that a full pipe never blocks it.
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try {
                for (String l = out.readLine(); l != null; l = out.readLine()) {
                    lines.add(l);
                }
            } catch (IOException ended) {
                // the process ended
            }
        }, "ovnj-kubernetes-stdout");
        reader.setDaemon(true);
        reader.start();
        long deadline = startNanos + TimeUnit.SECONDS.toNanos(boundSeconds);
        Integer found = null;
        while (found == null) {
            synchronized (lines) {
                for (String l : lines) {
                    Matcher m = PORT.matcher(l);
                    if (m.find()) {
                        found = Integer.parseInt(m.group(1));
                    }
                }
            }
            if (found == null) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("ovnj kubernetes did not start serving within " + boundSeconds + " s (exit "
                            + (process.isAlive() ? "none" : process.exitValue()) + "); its log: " + tail());
                }
                sleep(50);
            }
        }
        this.port = found;
        this.servingSeconds = Scenarios.secondsSince(startNanos);
    }

    /**
     * Starts {@code ovnj kubernetes} on the command-line router and external port (no EipPool) and
     * waits until it prints its serving line.
     *
     * @param jar cli/target/ovnj.jar
     * @param kubeconfig the mock API server's kubeconfig
     * @param db the Northbound remote
     * @param router the router
     * @param externalPort the port the addresses come from
     * @param logicalSwitch the switch
     * @param log where its standard error (its log) goes
     * @return the running process
     * @throws IOException if it cannot be started
     */
    static ControllerProcess start(Path jar, Path kubeconfig, String db, String router, String externalPort, String logicalSwitch,
            Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.addAll(List.of("-jar", jar.toString(), "kubernetes", "--kubeconfig", kubeconfig.toString(), "--db", db,
                "--router", router, "--router-namespaces", "*", "--external-port", externalPort, "--switch", logicalSwitch,
                // fabric8's mock server has no server-side apply.
                "--server-side-apply=false", "--metrics-port", "0"));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        p.getOutputStream().close();
        return new ControllerProcess(p, log, t0, 300);
    }

    /** Seconds from the process's start to its serving line (JVM start, Northbound sync, informers started). */
    double servingSeconds() {
        return servingSeconds;
    }

    /** When the process was started ({@link System#nanoTime()}). */
    long startNanos() {
        return startNanos;
    }

    /** Whether the process is still running. */
    boolean alive() {
        return process.isAlive();
    }

    /** utime + stime of the process so far. */
    double cpuSeconds() {
        return Proc.cpuSeconds(process.pid());
    }

    /** Its {@code /metrics} now. */
    PrometheusText metrics() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            Scenarios.check(r.statusCode() == 200, "/metrics answered " + r.statusCode());
            return new PrometheusText(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Northbound transactions its client has committed (its engine's and its address claims'). */
    long transactions() {
        return Math.round(metrics().sum(TRANSACTIONS, ""));
    }

    /** Used heap after two full collections ({@code jcmd PID GC.run}), in bytes. */
    double liveHeapBytes() {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        for (int i = 0; i < 2; i++) {
            Proc.run(List.of(jcmd, Long.toString(process.pid()), "GC.run"), 120);
        }
        return metrics().sum("jvm_memory_used_bytes", "area=\"heap\"");
    }

    /**
     * Waits until it has finished at least {@code reconciliations} reconciliations and then neither
     * reconciled nor committed a transaction for {@code quietMillis}; fails after the bound.
     *
     * @return seconds from the process's start to its last reconciliation or transaction before the quiet
     */
    double awaitIdle(long reconciliations, long quietMillis, long boundSeconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(boundSeconds);
        List<Long> last = List.of();
        long changedAt = System.nanoTime();
        while (true) {
            PrometheusText m = metrics();
            long done = Math.round(m.sum(RECONCILIATIONS, ""));
            List<Long> now = List.of(done, Math.round(m.sum(TRANSACTIONS, "")));
            long t = System.nanoTime();
            if (!now.equals(last)) {
                last = now;
                changedAt = t;
            } else if (done >= reconciliations && t - changedAt >= TimeUnit.MILLISECONDS.toNanos(quietMillis)) {
                return (changedAt - startNanos) / 1e9;
            }
            if (t > deadline || !process.isAlive()) {
                throw new IllegalStateException("ovnj kubernetes not idle within " + boundSeconds + " s: " + done + " of "
                        + reconciliations + " reconciliations; its log: " + tail());
            }
            sleep(250);
        }
    }

    /**
     * Stops it as Kubernetes does (SIGTERM) and waits for its exit.
     *
     * @return its exit code
     */
    int stop() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("ovnj kubernetes did not exit within 60 s of SIGTERM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return process.exitValue();
    }

    /** The last lines of its log, for a failure message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
