package dev.ovnj.testkit.tls;

import dev.ovnj.testkit.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A private CA with a server and a client certificate, made with {@code openssl} for one test run.
 * The files are PEM, the same three-file form ({@code --private-key}, {@code --certificate},
 * {@code --ca-cert}) that ovsdb-server, ovn-nbctl and ovnj take. The server certificate is valid
 * for 127.0.0.1, ::1 and localhost.
 *
 * @param caCert the CA certificate both sides trust
 * @param serverKey the server's private key (PKCS#8)
 * @param serverCert the server's certificate, signed by the CA
 * @param clientKey the client's private key (PKCS#8)
 * @param clientCert the client's certificate, signed by the CA
 */
public record TestCertificates(Path caCert, Path serverKey, Path serverCert, Path clientKey, Path clientCert) {

    /**
     * Generates a fresh CA and certificates into {@code dir}.
     *
     * @param dir directory to write into (created if missing)
     * @return the generated files
     */
    public static TestCertificates generate(Path dir) {
        try {
            Files.createDirectories(dir);
            Path caKey = dir.resolve("ca-privkey.pem");
            Path ca = dir.resolve("cacert.pem");
            openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca,
                    "-days", "3650", "-subj", "/CN=ovnj test CA " + dir.getFileName());
            Path ext = dir.resolve("san.ext");
            Files.writeString(ext, "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n");
            Path sKey = dir.resolve("server-privkey.pem");
            Path sCert = dir.resolve("server-cert.pem");
            sign(dir, caKey, ca, sKey, sCert, "/CN=127.0.0.1", ext);
            Path cKey = dir.resolve("client-privkey.pem");
            Path cCert = dir.resolve("client-cert.pem");
            sign(dir, caKey, ca, cKey, cCert, "/CN=ovnj-client", null);
            return new TestCertificates(ca, sKey, sCert, cKey, cCert);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sign(Path dir, Path caKey, Path ca, Path key, Path cert, String subject, Path ext) {
        Path csr = dir.resolve(cert.getFileName() + ".csr");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", subject);
        if (ext == null) {
            openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-CAcreateserial",
                    "-out", cert, "-days", "3650");
        } else {
            openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-CAcreateserial",
                    "-out", cert, "-days", "3650", "-extfile", ext);
        }
    }

    private static void openssl(Object... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "openssl";
        for (int i = 0; i < args.length; i++) {
            argv[i + 1] = args[i].toString();
        }
        Command.of(argv).check();
    }
}
