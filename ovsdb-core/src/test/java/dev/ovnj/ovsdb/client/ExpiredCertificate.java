package dev.ovnj.ovsdb.client;

import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.tls.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Signs a server certificate whose validity ended in 2021 with a {@link TestCertificates} CA.
 * {@code openssl x509 -req -days} cannot produce a past end date, so this uses {@code openssl ca}
 * with explicit {@code -startdate}/{@code -enddate} and a throw-away CA database.
 */
final class ExpiredCertificate {
    private ExpiredCertificate() {
    }

    /**
     * Writes an expired key and certificate for 127.0.0.1.
     *
     * @param certs the CA to sign with (its key is {@code ca-privkey.pem} next to the CA certificate)
     * @param dir where to write
     * @return the key and the certificate
     */
    static Path[] issue(TestCertificates certs, Path dir) {
        try {
            Files.createDirectories(dir);
            Path key = dir.resolve("expired-privkey.pem");
            Path csr = dir.resolve("expired.csr");
            Path cert = dir.resolve("expired-cert.pem");
            Files.writeString(dir.resolve("index.txt"), "");
            Files.writeString(dir.resolve("serial"), "1000\n");
            Path conf = dir.resolve("ca.cnf");
            Files.writeString(conf, String.join("\n",
                    "[ca]", "default_ca = test", "[test]",
                    "database = " + dir.resolve("index.txt"), "serial = " + dir.resolve("serial"),
                    "new_certs_dir = " + dir, "default_md = sha256", "policy = any", "unique_subject = no",
                    "copy_extensions = none", "[any]", "commonName = supplied", ""));
            Command.of("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(),
                    "-subj", "/CN=127.0.0.1").check();
            Command.of("openssl", "ca", "-batch", "-config", conf.toString(), "-cert", certs.caCert().toString(),
                    "-keyfile", certs.caCert().resolveSibling("ca-privkey.pem").toString(), "-in", csr.toString(),
                    "-out", cert.toString(), "-startdate", "20200101000000Z", "-enddate", "20210101000000Z", "-notext").check();
            return new Path[] {key, cert};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
