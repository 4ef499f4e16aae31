package dev.ovnj.ovsdb;

/** A call was refused because the connection already has its maximum of unanswered requests. */
public final class TooManyPendingRequestsException extends OvsdbRpcException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param maxPendingRequests the limit that was reached
     */
    public TooManyPendingRequestsException(int maxPendingRequests) {
        super("too many pending OVSDB requests (maxPendingRequests=" + maxPendingRequests + ")", null);
    }

    @Override
    public boolean retriable() {
        return false;
    }
}
