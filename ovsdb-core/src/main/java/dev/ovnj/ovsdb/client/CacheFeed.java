package dev.ovnj.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.monitor.MonitorMethod;
import dev.ovnj.ovsdb.monitor.MonitorProtocolException;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds the main monitor into the {@link RowCache}: the initial reply resumes the cache
 * ({@code monitor_cond_since} found the last transaction) or replaces it, later updates are
 * applied in order, and the last transaction id is remembered for the next resume. Runs on the
 * callback thread only.
 */
final class CacheFeed {
    static final String ZERO_TXN = "00000000-0000-0000-0000-000000000000";

    private final RowCache cache;
    private final AtomicLong fullSyncs = new AtomicLong();
    private final AtomicLong resumedSyncs = new AtomicLong();
    private final AtomicLong lastSyncBytes = new AtomicLong();
    private final AtomicLong inconsistencies = new AtomicLong();
    // Written on the callback thread, read by the monitor registry when a new session starts.
    private volatile String lastTxnId;

    CacheFeed(RowCache cache) {
        this.cache = cache;
    }

    RowCache cache() {
        return cache;
    }

    /**
     * The transaction to resume from, if the cache is known to be current as of one.
     *
     * @return its id
     */
    Optional<String> lastTxnId() {
        return Optional.ofNullable(lastTxnId);
    }

    /** Forgets the last transaction id, so the next connection replaces the cache. */
    void forget() {
        lastTxnId = null;
    }

    /**
     * Applies the initial reply of the main monitor.
     *
     * @param s the session
     * @param method the method that was answered
     * @param reply its result
     * @param bytesBefore bytes received on the session before the request
     * @return whether the cache was resumed rather than replaced
     */
    boolean applyInitial(Session s, MonitorMethod method, JsonNode reply, long bytesBefore) {
        boolean resumed = false;
        UpdateBatch batch;
        switch (method) {
            case MONITOR_COND_SINCE -> {
                if (!reply.isArray() || reply.size() != 3) {
                    throw new MonitorProtocolException("monitor_cond_since reply is not [found, last-txn-id, updates]: " + abbreviate(reply));
                }
                resumed = reply.get(0).asBoolean();
                batch = UpdateBatch.fromUpdates2(reply.get(2), Optional.of(reply.get(1).asText()));
            }
            case MONITOR_COND -> batch = UpdateBatch.fromUpdates2(reply, Optional.empty());
            default -> batch = UpdateBatch.fromUpdates(reply, true);
        }
        boolean sameSchema = s.schema.equals(cache.schema());
        if (resumed && sameSchema) {
            cache.apply(batch);
            resumedSyncs.incrementAndGet();
        } else {
            cache.replace(s.schema, s.monitoredTables, batch);
            fullSyncs.incrementAndGet();
            resumed = false;
        }
        lastTxnId = batch.lastTxnId().filter(t -> !ZERO_TXN.equals(t)).orElse(null);
        lastSyncBytes.set(s.bytesReceived() - bytesBefore);
        return resumed;
    }

    /**
     * Applies one update of the main monitor.
     *
     * @param batch the decoded update
     * @param txnId the transaction id an {@code update3} carries, else null
     */
    void apply(UpdateBatch batch, String txnId) {
        cache.apply(batch);
        if (txnId != null) {
            lastTxnId = txnId;
        }
    }

    /** Counts an update that did not fit the cache and forgets the resume point. */
    void inconsistent() {
        inconsistencies.incrementAndGet();
        forget();
    }

    long fullSyncs() {
        return fullSyncs.get();
    }

    long resumedSyncs() {
        return resumedSyncs.get();
    }

    long lastSyncBytes() {
        return lastSyncBytes.get();
    }

    long inconsistencies() {
        return inconsistencies.get();
    }

    static String abbreviate(JsonNode n) {
        String s = String.valueOf(n);
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
