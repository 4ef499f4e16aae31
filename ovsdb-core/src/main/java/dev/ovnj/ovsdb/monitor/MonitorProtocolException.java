package dev.ovnj.ovsdb.monitor;

import dev.ovnj.ovsdb.OvsdbException;

/** A monitor reply or notification does not have the shape RFC 7047 or ovsdb-server(7) gives it. */
public final class MonitorProtocolException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the table and row
     */
    public MonitorProtocolException(String message) {
        super(message, null);
    }
}
