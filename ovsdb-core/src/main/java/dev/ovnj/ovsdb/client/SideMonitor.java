package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.monitor.UpdateBatch;
import java.util.concurrent.CompletableFuture;

/**
 * A monitor besides the one that feeds the cache, opened with {@link OvsdbClient#monitor}: its
 * initial contents and every later change go to its own listener. It survives reconnects: the
 * client opens it again on every new connection, resuming from the last transaction it saw
 * ({@code monitor_cond_since}). {@link #cancel()} ends it with {@code monitor_cancel}; closing the
 * client ends it too, and a new server that refuses it ends it with that refusal.
 */
public interface SideMonitor {

    /**
     * The monitor id used on the wire.
     *
     * @return the id
     */
    String id();

    /**
     * Cancels the monitor on the server ({@code monitor_cancel}); no update reaches the listener
     * after the returned future completes.
     *
     * @return completes when the server confirmed the cancellation
     */
    CompletableFuture<Void> cancel();

    /**
     * Completes when the monitor ended: cancelled or the client closed (normally), or refused by
     * the server of a new connection (exceptionally, with the server's error).
     *
     * @return the end of the monitor
     */
    CompletableFuture<Void> ended();

    /** Receives a side monitor's updates on the client's callback thread, in order. */
    @FunctionalInterface
    interface Listener {
        /**
         * One batch: the initial contents (rows of kind INITIAL), then one batch per transaction.
         * After a reconnect that could not resume, the full contents arrive again as INITIAL rows
         * and replace everything received before.
         *
         * @param batch the row updates, not applied to any cache
         */
        void onUpdate(UpdateBatch batch);
    }
}
