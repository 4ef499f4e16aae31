package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.StderrCapture;
import dev.ovnj.testkit.tls.TestCertificates;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * At INFO (the tests' level, see simplelogger.properties) the client and engine log connections,
 * availability and repairs, but never key material or row contents such as VIPs and backends.
 */
class LogHygieneIT {
    static final String VIP = "203.0.113.77:4433";
    static final String BACKEND = "10.77.77.77:8443";

    @Test
    void tlsConnectTransactionsRepairsAndReconnectLogNoKeysAndNoRowContents() throws Exception {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start(); StderrCapture log = StderrCapture.start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            Nbctl nbctl = Nbctl.of(server);
            EngineFixture.seed(nbctl);
            OvsdbClient client = OvsdbClient.builder().remotes(server.sslRemote().orElseThrow())
                    .tls(new TlsConfig(certs.clientKey(), certs.clientCert(), certs.caCert()))
                    .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).build();
            try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                List<LoadBalancerSpec> specs = List.of(LoadBalancerSpec.builder("secret-svc").routers("shalb-dev")
                        .switches("shalb-dev-default").tcp(VIP, BACKEND).build());
                engine.apply("kube-dc", specs).get(20, TimeUnit.SECONDS);
                nbctl.run("lb-del", "secret-svc-tcp");
                Await.until(WAIT, "repaired", () -> nbctl.run("lb-list").contains("203.0.113.77"));
                // ovn-nbctl sees the row a moment before the engine's transaction completes and logs.
                Await.until(WAIT, "repair recorded", () -> engine.metrics().repairs() > 0);
                long connects = client.stats().connects();
                server.restart();
                Await.until(WAIT, "reconnected", () -> client.stats().connects() > connects);
            }
            String text = log.text();
            assertThat(text).as("the capture works").contains("engine available").contains("repaired secret-svc-tcp")
                    .contains("connected to " + server.sslRemote().orElseThrow());
            assertThat(text).doesNotContain("PRIVATE KEY").doesNotContain("BEGIN CERTIFICATE")
                    .doesNotContain(firstKeyLine(certs)).doesNotContain("203.0.113.77").doesNotContain("10.77.77.77");
        }
    }

    private static String firstKeyLine(TestCertificates certs) throws java.io.IOException {
        return Files.readAllLines(certs.clientKey()).get(1);
    }
}
