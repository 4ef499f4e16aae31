package dev.ovnj.examples.metrics;

import com.sun.net.httpserver.HttpServer;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.micrometer.LoadBalancerEngineMetrics;
import dev.ovnj.micrometer.OvsdbClientMetrics;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Exposes an ovnj client's and engine's metrics in Prometheus text format on
 * {@code http://HOST:PORT/metrics}, the way a controller would: bind the two ovnj binders to a
 * {@link PrometheusMeterRegistry} and serve its {@code scrape()}.
 */
public final class PrometheusMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final HttpServer server;

    private PrometheusMetrics(PrometheusMeterRegistry registry, HttpServer server) {
        this.registry = registry;
        this.server = server;
    }

    /**
     * Binds the client's and the engine's meters and starts serving them.
     *
     * @param client the client, tagged {@code database=OVN_Northbound}
     * @param engine the engine
     * @param address where to listen, e.g. {@code 127.0.0.1:9464}; port 0 picks a free one
     * @return the running endpoint
     * @throws IOException when the address cannot be bound
     */
    public static PrometheusMetrics serve(OvsdbClient client, LoadBalancerEngine engine, InetSocketAddress address)
            throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new OvsdbClientMetrics(client, Tags.of("database", "OVN_Northbound")).bindTo(registry);
        new LoadBalancerEngineMetrics(engine).bindTo(registry);

        HttpServer server = HttpServer.create(address, 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return new PrometheusMetrics(registry, server);
    }

    /**
     * Where the metrics are served.
     *
     * @return the address the endpoint listens on
     */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * The registry, for an application that adds meters of its own.
     *
     * @return the registry
     */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Stops serving and closes the registry; the client and the engine stay as they are. */
    @Override
    public void close() {
        server.stop(0);
        registry.close();
    }
}
