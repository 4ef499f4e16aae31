package dev.ovnj.kubernetes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints an operator and the kubelet look at, served with the JDK's own HTTP server:
 * {@code /metrics} (the Prometheus text of the registry's meters), {@code /healthz} (the
 * controller's {@link OvnjKubernetesController#liveness() liveness}) and {@code /readyz} (its
 * {@link OvnjKubernetesController#readiness() readiness}). A probe answers 200 or 503 with its
 * reason as a one-line body. Start it before {@link OvnjKubernetesController#start()}, which
 * blocks until the informers have synced, so that the liveness probe answers meanwhile.
 */
public final class ControllerEndpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerEndpoints.class);

    private final HttpServer server;
    private final ExecutorService handlers;

    private ControllerEndpoints(HttpServer server, ExecutorService handlers) {
        this.server = server;
        this.handlers = handlers;
    }

    /**
     * Starts serving.
     *
     * @param address where to listen; port 0 picks a free one
     * @param registry the meters to expose
     * @param controller the controller whose probes answer
     * @return the running endpoints
     * @throws IOException when the address cannot be bound
     */
    public static ControllerEndpoints start(InetSocketAddress address, PrometheusMeterRegistry registry,
                                            OvnjKubernetesController controller) throws IOException {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(controller, "controller");
        HttpServer server = HttpServer.create(address, 0);
        // One daemon thread: a scrape or a probe is quick, and a stuck one must not keep the JVM up.
        ExecutorService handlers = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ovnj-endpoints");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(handlers);
        server.createContext("/metrics", exchange -> answer(exchange, 200, "text/plain; version=0.0.4; charset=utf-8",
                () -> {
                    controller.refreshGauges();
                    return registry.scrape();
                }));
        server.createContext("/healthz", exchange -> probe(exchange, controller::liveness));
        server.createContext("/readyz", exchange -> probe(exchange, controller::readiness));
        server.start();
        LOG.info("serving /metrics, /healthz and /readyz on port {}", server.getAddress().getPort());
        return new ControllerEndpoints(server, handlers);
    }

    /**
     * Where the endpoints listen.
     *
     * @return the bound address (its port is the one picked when 0 was asked)
     */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private static void probe(HttpExchange exchange, Supplier<ProbeResult> check) throws IOException {
        ProbeResult p;
        try {
            p = check.get();
        } catch (RuntimeException e) {
            p = new ProbeResult(false, "probe failed: " + e);
        }
        String body = (p.ok() ? "ok: " : "not ok: ") + p.detail() + "\n";
        answer(exchange, p.ok() ? 200 : 503, "text/plain; charset=utf-8", () -> body);
    }

    private static void answer(HttpExchange exchange, int status, String type, Supplier<String> body) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }
}
