package dev.ovnj.ovsdb.client;

/**
 * Counters of a client's connection history, for tests, metrics and benchmarks.
 *
 * @param connects connections that reached SYNCED
 * @param fullSyncs syncs that downloaded the whole monitored contents
 * @param resumedSyncs syncs resumed with {@code monitor_cond_since} ({@code found=true}), transferring only changes
 * @param lastSyncBytes bytes received for the most recent monitor reply: the whole contents, or when resumed only the changes
 * @param transactions transactions committed
 * @param inconsistencies updates that did not fit the cache and forced a resync
 * @param cacheAudits cache audits that compared the cache with the server
 * @param cacheDivergences audits that found the cache different from the server (confirmed by a
 *     second audit), each healed by a resync
 */
public record ClientStats(long connects, long fullSyncs, long resumedSyncs, long lastSyncBytes,
                          long transactions, long inconsistencies, long cacheAudits, long cacheDivergences) {
}
