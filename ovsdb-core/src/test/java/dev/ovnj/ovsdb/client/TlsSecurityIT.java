package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.scripted.ScriptedOvsdbServer;
import dev.ovnj.testkit.tls.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/** TLS refusals and certificate rotation against ovsdb-server's pssl: remote. */
class TlsSecurityIT {

    private static OvsdbClient client(String remote, TlsConfig tls, Clients.EventLog log) {
        OvsdbClient c = OvsdbClient.builder().remotes(remote).tls(tls).backoff(Duration.ofMillis(50), Duration.ofMillis(500)).build();
        c.addConnectionListener(log);
        return c;
    }

    private static String firstRefusal(Clients.EventLog log) {
        Await.until(WAIT, "refusal", () -> log.count(ConnectionEvent.Kind.DISCONNECTED) > 0);
        return log.events.stream().filter(e -> e.kind() == ConnectionEvent.Kind.DISCONNECTED)
                .findFirst().orElseThrow().cause().orElseThrow().getMessage();
    }

    @Test
    void expiredServerCertificateIsRefusedAsExpired() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            Path[] expired = ExpiredCertificate.issue(certs, server.directory().resolve("expired"));
            server.stop();
            replace(expired[0], certs.serverKey());
            replace(expired[1], certs.serverCert());
            server.restart();
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(server.sslRemote().orElseThrow(),
                    new TlsConfig(certs.clientKey(), certs.clientCert(), certs.caCert()), log)) {
                c.start();
                assertThat(firstRefusal(log)).contains("TLS handshake with " + server.sslRemote().orElseThrow())
                        .contains("a certificate has expired");
                assertThat(c.isSynced()).isFalse();
            }
        }
    }

    @Test
    void clientCertificateFromAnotherCaIsRefusedByTheServer() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            TestCertificates stranger = TestCertificates.generate(server.directory().resolve("stranger"));
            Clients.EventLog log = new Clients.EventLog();
            // Trusts the server, but presents a certificate the server's CA did not sign.
            try (OvsdbClient c = client(server.sslRemote().orElseThrow(),
                    new TlsConfig(stranger.clientKey(), stranger.clientCert(), certs.caCert()), log)) {
                c.start();
                String refusal = firstRefusal(log);
                assertThat(refusal).contains("TLS handshake with " + server.sslRemote().orElseThrow())
                        .contains("the server rejected our certificate " + stranger.clientCert());
                Await.until(WAIT, "more attempts", () -> log.count(ConnectionEvent.Kind.DISCONNECTED) >= 2);
                assertThat(c.isSynced()).isFalse();
                assertThat(c.stats().connects()).isZero();
            }
        }
    }

    /**
     * ovnj always presents a certificate (TlsConfig requires one), so a certificate-less client is
     * played by the JDK: the server must not serve it.
     */
    @Test
    void clientWithoutCertificateGetsNoDatabaseAccess() throws Exception {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(certs.caCert())) {
                trust.setCertificateEntry("ca", (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            int port = Integer.parseInt(server.sslRemote().orElseThrow().replaceAll(".*:", ""));
            try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
                s.setSoTimeout(5000);
                assertThatThrownBy(() -> {
                    s.startHandshake();
                    s.getOutputStream().write("{\"id\":1,\"method\":\"list_dbs\",\"params\":[]}".getBytes());
                    s.getOutputStream().flush();
                    int b = s.getInputStream().read();
                    if (b < 0) {
                        throw new IOException("closed by the server");
                    }
                }).isInstanceOf(IOException.class);
            }
        }
    }

    @Test
    void sslRemoteNeverFallsBackToPlaintext() {
        // A plain-TCP fake server records every JSON message it gets: there must be none.
        try (ScriptedOvsdbServer plain = ScriptedOvsdbServer.start((c, m) -> c.error(m, "unexpected"));
             OvsdbServer real = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = real.certificates().orElseThrow();
            String remote = plain.remote().replace("tcp:", "ssl:");
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(remote, new TlsConfig(certs.clientKey(), certs.clientCert(), certs.caCert()), log)) {
                c.start();
                assertThat(firstRefusal(log)).contains("TLS handshake with " + remote);
                Await.until(WAIT, "retries", () -> log.count(ConnectionEvent.Kind.DISCONNECTED) >= 3);
                assertThat(plain.received()).as("plaintext JSON-RPC sent to an ssl: remote").isEmpty();
                assertThat(c.isSynced()).isFalse();
            }
        }
    }

    /**
     * Rotation without restarting the client: both sides move to a new CA while connected. A client
     * that cached its TLS context would be refused by the new server; ovnj re-reads the three files
     * on every connection attempt.
     */
    @Test
    void rotatedCertificateFilesAreUsedOnTheNextReconnect() throws IOException {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates old = server.certificates().orElseThrow();
            Path mine = Files.createDirectories(server.directory().resolve("client-files"));
            TlsConfig tls = new TlsConfig(mine.resolve("key.pem"), mine.resolve("cert.pem"), mine.resolve("ca.pem"));
            install(old, tls);
            Clients.EventLog log = new Clients.EventLog();
            try (OvsdbClient c = client(server.sslRemote().orElseThrow(), tls, log)) {
                c.startAndWait(WAIT);
                TestCertificates next = TestCertificates.generate(server.directory().resolve("next-ca"));
                server.stop();
                replace(next.serverKey(), old.serverKey());
                replace(next.serverCert(), old.serverCert());
                replace(next.caCert(), old.caCert());
                install(next, tls);
                server.restart();
                Await.until(WAIT, "reconnected with the new certificates", () -> c.stats().connects() == 2 && c.isSynced());
                c.transactAndWait(c.transaction().add(Operations.insert("Logical_Switch").value("name", "after-rotation")).build(), WAIT);
                Clients.awaitRow(c, "Logical_Switch", "after-rotation");
            }
        }
    }

    private static void install(TestCertificates from, TlsConfig to) throws IOException {
        replace(from.clientKey(), to.privateKey());
        replace(from.clientCert(), to.certificate());
        replace(from.caCert(), to.caCert());
    }

    private static void replace(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
