package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbException;

/** The TLS key, certificate or CA file cannot be used; the message names the file. */
public final class TlsConfigException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    TlsConfigException(String message) {
        super(message, null);
    }

    TlsConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
