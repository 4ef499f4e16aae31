package dev.ovnj.ovsdb;

/**
 * The connection closed before the call completed, or was already closed. The cause, if any,
 * is what closed it.
 */
public final class ConnectionClosedException extends OvsdbRpcException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param cause why the connection closed, or {@code null} for an orderly close
     */
    public ConnectionClosedException(Throwable cause) {
        super(cause == null ? "OVSDB connection closed" : "OVSDB connection closed: " + cause.getMessage(), cause);
    }

    @Override
    public boolean retriable() {
        return true;
    }
}
