package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.tls.TestCertificates;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TlsIT {

    @Test
    void mutualTlsWithTheServersCertificates() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            TlsConfig tls = new TlsConfig(certs.clientKey(), certs.clientCert(), certs.caCert());
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.sslRemote().orElseThrow()).tls(tls).build()) {
                client.startAndWait(WAIT);
                client.transactAndWait(client.transaction()
                        .add(dev.ovnj.ovsdb.tx.Operations.insert("Logical_Switch").value("name", "over-tls")).build(), WAIT);
                assertThat(Nbctl.of(server).run("ls-list")).contains("over-tls");
            }
        }
    }

    @Test
    void untrustedServerCertificateIsRefusedWithAClearMessage() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates stranger = TestCertificates.generate(server.directory().resolve("stranger"));
            TlsConfig tls = new TlsConfig(stranger.clientKey(), stranger.clientCert(), stranger.caCert());
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient client = OvsdbClient.builder().remotes(server.sslRemote().orElseThrow()).tls(tls)
                    .backoff(Duration.ofMillis(100), Duration.ofSeconds(1)).build()) {
                client.addConnectionListener(log);
                client.start();
                Await.until(WAIT, "refusal", () -> log.count(ConnectionEvent.Kind.DISCONNECTED) > 0);
                String message = log.events.stream().filter(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED)
                        .findFirst().orElseThrow().cause().orElseThrow().getMessage();
                assertThat(message).contains("TLS handshake with " + server.sslRemote().orElseThrow())
                        .contains("not signed by the CA in " + stranger.caCert());
                assertThat(client.isSynced()).isFalse();
            }
        }
    }

    @Test
    void missingKeyFileIsNamed() {
        TlsConfig tls = new TlsConfig(java.nio.file.Path.of("/nonexistent/key.pem"), java.nio.file.Path.of("/nonexistent/cert.pem"),
                java.nio.file.Path.of("/nonexistent/ca.pem"));
        org.assertj.core.api.Assertions.assertThatThrownBy(tls::newContext)
                .isInstanceOf(TlsConfigException.class).hasMessageContaining("/nonexistent/key.pem");
    }
}
