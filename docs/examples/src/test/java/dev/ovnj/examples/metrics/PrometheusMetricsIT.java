package dev.ovnj.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Scrapes the example's Prometheus endpoint after a reconcile against a real ovsdb-server. */
@OvsdbTest
class PrometheusMetricsIT {

    @Test
    void theScrapeShowsTheEngineCountersOfTheReconcile(OvsdbServer server) throws Exception {
        try (OvsdbClient client = OvsdbClient.builder().remotes(server.remote())
                     .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build();
             PrometheusMetrics metrics = PrometheusMetrics.serve(client, engine, new InetSocketAddress("127.0.0.1", 0))) {
            engine.start();
            client.startAndWait(Duration.ofSeconds(20));
            LoadBalancerSpec web = LoadBalancerSpec.builder("web")
                    .tcp("10.0.0.10:80", "10.1.0.1:8080", "10.1.0.2:8080").build();
            ApplyResult result = engine.apply("team-a", List.of(web)).get(20, TimeUnit.SECONDS);
            assertThat(result.allApplied()).as(result.toString()).isTrue();

            HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.address().getPort() + "/metrics"))
                            .timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            String text = scrape.body();
            assertThat(value(text, "ovnj_engine_transactions_total")).isGreaterThanOrEqualTo(1.0);
            assertThat(value(text, "ovnj_engine_operations_total")).isGreaterThanOrEqualTo(1.0);
            assertThat(value(text, "ovnj_engine_plans_total")).isGreaterThanOrEqualTo(1.0);
            assertThat(value(text, "ovnj_engine_transaction_seconds_count{outcome=\"success\"}")).isGreaterThanOrEqualTo(1.0);
            assertThat(value(text, "ovnj_engine_specs{owner=\"team-a\",state=\"applied\"}")).isEqualTo(1.0);
            assertThat(value(text, "ovnj_client_connected{database=\"OVN_Northbound\"}")).isEqualTo(1.0);
            assertThat(text).contains("# HELP ovnj_engine_repairs_total drift repairs committed");
        }
    }

    /** The sample value of one series in Prometheus text, by its name and exact label set. */
    private static double value(String text, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(text);
        assertThat(m.find()).as("series %s in%n%s", series, text).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
