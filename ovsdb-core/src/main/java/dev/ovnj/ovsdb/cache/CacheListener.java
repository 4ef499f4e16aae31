package dev.ovnj.ovsdb.cache;

import java.util.List;

/**
 * Receives the events of each applied update batch, in order, on the client's notification
 * thread (never a Netty event loop). The cache already holds the batch when this runs.
 */
@FunctionalInterface
public interface CacheListener {
    /**
     * Called once per applied batch (a committed transaction, an initial sync or a resync).
     *
     * @param events the batch's events; never empty
     */
    void onEvents(List<CacheEvent> events);
}
