package dev.ovnj.ovsdb.rpc;

/** Receives the notifications a server sends, in the order it sent them. */
@FunctionalInterface
public interface NotificationListener {

    /**
     * Handles one notification. Called on the executor given to {@link RpcConnection}, never on
     * a network thread, and never concurrently with itself.
     *
     * @param notification the notification
     */
    void onNotification(RpcNotification notification);
}
