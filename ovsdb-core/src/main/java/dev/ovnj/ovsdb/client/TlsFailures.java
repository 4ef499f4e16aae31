package dev.ovnj.ovsdb.client;

import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;

/** Turns JSSE's handshake exceptions into a sentence that names the likely fix. */
final class TlsFailures {
    private TlsFailures() {
    }

    static String describe(Throwable cause, TlsConfig tls) {
        String all = chain(cause);
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return "a certificate has expired (" + t.getMessage() + ")";
            }
            if (t instanceof CertificateNotYetValidException) {
                return "a certificate is not yet valid (" + t.getMessage() + ")";
            }
        }
        if (all.contains("PKIX path") || all.contains("unable to find valid certification path")) {
            return "the server's certificate is not signed by the CA in " + tls.caCert();
        }
        if (all.contains("certificate_expired")) {
            return "the server rejected our certificate " + tls.certificate() + " as expired";
        }
        if (all.contains("bad_certificate") || all.contains("unknown_ca") || all.contains("certificate_required")) {
            return "the server rejected our certificate " + tls.certificate() + " (" + cause.getMessage() + ")";
        }
        return String.valueOf(cause.getMessage());
    }

    private static String chain(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (; t != null; t = t.getCause()) {
            sb.append(t).append(" | ");
        }
        return sb.toString();
    }
}
