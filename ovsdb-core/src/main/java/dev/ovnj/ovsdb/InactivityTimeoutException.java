package dev.ovnj.ovsdb;

/**
 * The peer sent nothing for two probe intervals, not even a reply to an echo, so the connection
 * was presumed dead and closed.
 */
public final class InactivityTimeoutException extends OvsdbRpcException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param remote       the silent peer
     * @param silentMillis how long nothing was read
     * @param probeMillis  the probe interval
     */
    public InactivityTimeoutException(Object remote, long silentMillis, long probeMillis) {
        super("no data from " + remote + " for " + silentMillis + " ms (inactivity probe "
                + probeMillis + " ms)", null);
    }

    @Override
    public boolean retriable() {
        return true;
    }
}
