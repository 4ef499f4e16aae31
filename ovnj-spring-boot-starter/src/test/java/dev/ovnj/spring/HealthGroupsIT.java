package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample application as a web application, its health groups asked over HTTP as Kubernetes'
 * probes ask them, started while its Northbound database is down, which then comes up and goes
 * down again (a real ovsdb-server on a fixed port): the application starts regardless,
 * {@code /actuator/health/liveness} answers 200 UP throughout, {@code /actuator/health/readiness}
 * follows the database (503 DOWN, 200 UP, 503 DOWN), and the load balancer declared at start while
 * the database was down is written once it is up.
 */
class HealthGroupsIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One answer of the health endpoint. */
    record Answer(int code, JsonNode body) {
        String status() {
            return body.path("status").asText();
        }

        List<String> components() {
            List<String> names = new ArrayList<>();
            body.path("components").fieldNames().forEachRemaining(names::add);
            return names;
        }
    }

    @Test
    void livenessStaysUpWhileReadinessFollowsTheDatabaseDownUpDown() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(SampleApplication.class).web(WebApplicationType.SERVLET)
                .properties("server.port=0", "server.address=127.0.0.1", "management.endpoint.health.show-components=always",
                        "ovnj.northbound.remotes=tcp:127.0.0.1:" + port, "ovnj.engine.owner=sample", "ovnj.engine.request-timeout=2s",
                        "sample.router=r0", "sample.vip=10.0.0.100:80")
                .run()) {
            URI base = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) ctx).getWebServer().getPort() + "/actuator/health/");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            // Down at boot: the application started (run() returned and serves), alive, not ready.
            Answer liveness = get(http, base.resolve("liveness"));
            assertThat(liveness.code()).isEqualTo(200);
            assertThat(liveness.status()).isEqualTo("UP");
            assertThat(liveness.components()).containsExactly("livenessState");
            Answer readiness = get(http, base.resolve("readiness"));
            assertThat(readiness.code()).isEqualTo(503);
            assertThat(readiness.status()).isEqualTo("DOWN");
            assertThat(readiness.components()).containsExactlyInAnyOrder("ovnj", "readinessState");
            assertThat(readiness.body().path("components").path("ovnj").path("status").asText()).isEqualTo("DOWN");

            try (OvsdbServer server = OvsdbServer.builder().port(port).start()) {
                Nbctl.of(server).run("lr-add", "r0");
                Await.until(WAIT, "readiness 200 UP with the database", () -> get(http, base.resolve("readiness")).code() == 200);
                assertThat(get(http, base.resolve("readiness")).status()).isEqualTo("UP");
                assertThat(get(http, base.resolve("liveness"))).extracting(Answer::code, Answer::status).containsExactly(200, "UP");
                Await.until(WAIT, "the load balancer declared while the database was down is written",
                        () -> Nbctl.of(server).run("lr-lb-list", "r0").contains("10.0.0.100:80"));

                server.kill();
                Await.until(WAIT, "readiness 503 DOWN without the database", () -> get(http, base.resolve("readiness")).code() == 503);
                assertThat(get(http, base.resolve("readiness")).status()).isEqualTo("DOWN");
                assertThat(get(http, base.resolve("liveness"))).extracting(Answer::code, Answer::status).containsExactly(200, "UP");
            }
        }
    }

    private static Answer get(HttpClient http, URI uri) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), JSON.readTree(r.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
