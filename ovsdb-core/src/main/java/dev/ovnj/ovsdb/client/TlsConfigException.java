package dev.ovnj.ovsdb.client;

/** The TLS key, certificate or CA file cannot be used; the message names the file. */
public final class TlsConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TlsConfigException(String message) {
        super(message);
    }

    TlsConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
