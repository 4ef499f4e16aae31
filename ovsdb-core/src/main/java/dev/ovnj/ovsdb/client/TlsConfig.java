package dev.ovnj.ovsdb.client;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * TLS material for {@code ssl:} remotes, in the same three PEM files that ovsdb-server and
 * ovn-nbctl take: {@code --private-key}, {@code --certificate} and {@code --ca-cert}. As in OVS,
 * the server is authenticated by the CA alone (no host-name check), and the client always
 * presents its certificate, so mutual authentication works against {@code pssl:} remotes.
 *
 * @param privateKey the client's private key (PKCS#8 PEM)
 * @param certificate the client's certificate (PEM)
 * @param caCert the CA certificate the server's certificate must chain to (PEM)
 */
public record TlsConfig(Path privateKey, Path certificate, Path caCert) {

    /**
     * Checks the three paths are given.
     *
     * @param caCert the CA certificate the server's certificate must chain to (PEM)
     * @param certificate the client's certificate (PEM)
     * @param privateKey the client's private key (PKCS#8 PEM)
     */
    public TlsConfig {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(caCert, "caCert");
    }

    /**
     * Builds a fresh Netty client context from the files. Reading the files anew each time is
     * what lets a long-running client pick up rotated certificates on its next reconnect.
     *
     * @return the context
     * @throws TlsConfigException naming the file that is missing or unreadable
     */
    public SslContext newContext() {
        for (Path p : new Path[] {privateKey, certificate, caCert}) {
            if (!Files.isReadable(p)) {
                throw new TlsConfigException("TLS file " + p + " does not exist or is not readable");
            }
        }
        try {
            return SslContextBuilder.forClient()
                    .keyManager(certificate.toFile(), privateKey.toFile())
                    .trustManager(caCert.toFile())
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new TlsConfigException("cannot load TLS material (key " + privateKey + ", certificate "
                    + certificate + ", CA " + caCert + "): " + e.getMessage(), e);
        }
    }
}
