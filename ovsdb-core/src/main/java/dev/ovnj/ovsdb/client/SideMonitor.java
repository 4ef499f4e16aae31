package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.monitor.UpdateBatch;
import java.util.concurrent.CompletableFuture;

/**
 * A monitor besides the one that feeds the cache, opened with {@link OvsdbClient#monitor}: its
 * initial contents and every later change go to its own listener. It lives on the connection it
 * was opened on; {@link #cancel()} ends it with {@code monitor_cancel}, and a disconnect ends it
 * too ({@link #ended()} completes either way).
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
     * Completes when the monitor ended: cancelled, cancelled by the server, or its connection closed.
     *
     * @return the end of the monitor
     */
    CompletableFuture<Void> ended();

    /** Receives a side monitor's updates on the client's callback thread, in order. */
    @FunctionalInterface
    interface Listener {
        /**
         * One batch: the initial contents (rows of kind INITIAL), then one batch per transaction.
         *
         * @param batch the row updates, not applied to any cache
         */
        void onUpdate(UpdateBatch batch);
    }
}
