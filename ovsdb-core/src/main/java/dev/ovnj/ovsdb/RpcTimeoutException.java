package dev.ovnj.ovsdb;

import java.time.Duration;

/**
 * No response arrived within the call's timeout. The server may still have executed the call.
 */
public final class RpcTimeoutException extends OvsdbRpcException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param method  the method that was called
     * @param timeout the timeout that elapsed
     */
    public RpcTimeoutException(String method, Duration timeout) {
        super("OVSDB call \"" + method + "\" got no response within " + timeout.toMillis() + " ms", null);
    }

    @Override
    public boolean retriable() {
        return true;
    }
}
