package dev.ovnj.bench;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * fabric8's CRUD mock Kubernetes API server in a JVM of its own, so that its CPU time
 * ({@code /proc/PID/stat}) is told apart from the controller's and the harness's. The fork
 * ({@link #main}) prints {@code url=...}, then answers {@code stats} on standard input with the
 * requests it has served by HTTP method, and exits when standard input closes. The harness side
 * ({@link #start}) is a handle on that process.
 */
final class MockApiServer implements AutoCloseable {
    private static final long START_SECONDS = 120;
    /** Held so that its level sticks: the server logs every request it answers at INFO. */
    private static final java.util.logging.Logger SERVER_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    private final String url;

    private MockApiServer(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String line = readLine(START_SECONDS);
        if (line == null || !line.startsWith("url=")) {
            process.destroyForcibly();
            throw new IllegalStateException("the mock API server did not start: " + line);
        }
        this.url = line.substring(4).replaceAll("/$", "");
    }

    /**
     * Starts the mock API server in a JVM like the harness's (same classpath, its own heap).
     *
     * @return the running server
     * @throws IOException if it cannot be started
     */
    static MockApiServer start() throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx4g", "-XX:+UseG1GC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), MockApiServer.class.getName()));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new MockApiServer(p);
    }

    /** The server's URL, e.g. {@code http://127.0.0.1:PORT}. */
    String url() {
        return url;
    }

    /** utime + stime of the server's JVM so far. */
    double cpuSeconds() {
        return Proc.cpuSeconds(process.pid());
    }

    /** The requests served so far, by HTTP method ({@code GET}, {@code POST}, ...), and {@code total}. */
    synchronized Map<String, Long> requests() {
        in.println("stats");
        String line = readLine(30);
        if (line == null || !line.startsWith("stats")) {
            throw new IllegalStateException("the mock API server answered " + line + " to stats");
        }
        Map<String, Long> counts = new TreeMap<>();
        for (String kv : line.substring("stats".length()).trim().split(" ")) {
            if (!kv.isEmpty()) {
                String[] p = kv.split("=", 2);
                counts.put(p[0], Long.parseLong(p[1]));
            }
        }
        return counts;
    }

    /**
     * Writes a kubeconfig naming this server (token auth, TLS unchecked), for an
     * {@code ovnj kubernetes} process.
     *
     * @param dir where
     * @return the file
     * @throws IOException if it cannot be written
     */
    Path kubeconfig(Path dir) throws IOException {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: mock, user: {token: bench}}]
                contexts: [{name: mock, context: {cluster: mock, user: mock, namespace: default}}]
                current-context: mock
                """.formatted(url));
        return file;
    }

    /** A line of the fork's output, or null if it ended or printed none within the bound. */
    private String readLine(long seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (System.nanoTime() < deadline) {
                if (out.ready()) {
                    return out.readLine();
                }
                if (!process.isAlive()) {
                    return out.ready() ? out.readLine() : null;
                }
                Thread.sleep(20);
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        in.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * The fork: serves until standard input closes.
     *
     * @param args none
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(List.of()), true);
        server.init(InetAddress.getLoopbackAddress(), 0);
        Map<String, LongAdder> byMethod = new ConcurrentHashMap<>();
        // The server keeps every request it served (for takeRequest) until taken: without this
        // drain, 10,000 Services' worth of request bodies would pile up in this JVM's heap.
        Thread drain = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    RecordedRequest r = server.takeRequest(1, TimeUnit.SECONDS);
                    if (r != null) {
                        byMethod.computeIfAbsent(r.getMethod(), m -> new LongAdder()).increment();
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "request-drain");
        drain.setDaemon(true);
        drain.start();
        System.out.println("url=" + server.url("/"));
        System.out.flush();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
            if (line.equals("stats")) {
                // Requests served but not yet drained are counted under total.
                StringBuilder sb = new StringBuilder("stats total=").append(server.getRequestCount());
                new TreeMap<>(byMethod).forEach((m, n) -> sb.append(' ').append(m).append('=').append(n.sum()));
                System.out.println(sb);
                System.out.flush();
            }
        }
        drain.interrupt();
        server.destroy();
        System.exit(0);
    }
}
