package dev.ovnj.ovsdb.client;

/** Observes a client's connection; called on the client's callback thread, in order. */
@FunctionalInterface
public interface ConnectionListener {
    /**
     * Called for each connection event.
     *
     * @param event what happened
     */
    void onEvent(ConnectionEvent event);
}
