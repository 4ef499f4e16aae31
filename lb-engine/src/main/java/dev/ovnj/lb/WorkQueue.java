package dev.ovnj.lb;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The keys that need work, in the manner of client-go's workqueue: a key is queued once however
 * often it is marked, is never processed twice at once (marked while processing, it comes back
 * when done), and has its own exponential backoff with jitter after retriable failures, so one
 * troubled spec never slows the others. Engine thread only.
 */
final class WorkQueue {
    private final long minRetryNanos;
    private final long maxRetryNanos;
    /** Ready keys, with when each was first marked (the start of a repair's latency). */
    private final LinkedHashMap<SpecKey, Long> ready = new LinkedHashMap<>();
    private final Map<SpecKey, Long> delayed = new HashMap<>();
    /** The delayed keys by due time; an entry whose time no longer matches {@link #delayed} is stale and skipped. */
    private final PriorityQueue<Due> due = new PriorityQueue<>(Comparator.comparingLong(Due::at));
    private final Map<SpecKey, Long> processing = new HashMap<>();
    private final Map<SpecKey, Long> markedWhileProcessing = new HashMap<>();
    private final Map<SpecKey, Integer> failures = new HashMap<>();
    private final Set<SpecKey> solo = new HashSet<>();

    WorkQueue(Duration minRetry, Duration maxRetry) {
        this.minRetryNanos = Math.max(1, minRetry.toNanos());
        this.maxRetryNanos = Math.max(minRetryNanos, maxRetry.toNanos());
    }

    /** Marks a key as needing work; a key waiting out its backoff keeps waiting unless {@code urgent}. */
    void add(SpecKey key, long now, boolean urgent) {
        if (processing.containsKey(key)) {
            markedWhileProcessing.putIfAbsent(key, now);
            return;
        }
        if (delayed.containsKey(key)) {
            if (!urgent) {
                return;
            }
            delayed.remove(key);
        }
        ready.putIfAbsent(key, now);
    }

    /** Takes every ready key (at most {@code max}) for one pass; they count as processing. */
    Map<SpecKey, Long> take(int max) {
        Map<SpecKey, Long> out = new LinkedHashMap<>();
        Iterator<Map.Entry<SpecKey, Long>> it = ready.entrySet().iterator();
        while (it.hasNext() && out.size() < max) {
            Map.Entry<SpecKey, Long> e = it.next();
            it.remove();
            out.put(e.getKey(), e.getValue());
            processing.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** A processed key is done; marked meanwhile, it is ready again. */
    void done(SpecKey key) {
        processing.remove(key);
        Long again = markedWhileProcessing.remove(key);
        if (again != null) {
            add(key, again, false);
        }
    }

    /** Done, and to be looked at again at once (e.g. to verify what was just written). */
    void requeue(SpecKey key, long now) {
        processing.remove(key);
        Long again = markedWhileProcessing.remove(key);
        ready.putIfAbsent(key, again != null ? again : now);
    }

    /**
     * Forgets that a key being processed was marked meanwhile (its work is about to read a state
     * that includes whatever marked it).
     *
     * @return when it was first marked meanwhile, or null
     */
    Long unmark(SpecKey key) {
        return markedWhileProcessing.remove(key);
    }

    /** Done after a retriable failure: ready again after this key's own backoff. */
    Duration retryLater(SpecKey key, long now) {
        processing.remove(key);
        markedWhileProcessing.remove(key);
        int n = failures.merge(key, 1, Integer::sum);
        long base = minRetryNanos << Math.min(n - 1, 30);
        long delay = Math.min(maxRetryNanos, base <= 0 ? maxRetryNanos : base);
        // Full jitter on the upper half, so replicas and keys do not retry in lockstep.
        delay = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
        ready.remove(key);
        delayed.put(key, now + delay);
        due.add(new Due(now + delay, key));
        return Duration.ofNanos(delay);
    }

    /** Done, and not to be looked at again for {@code delay} unless marked urgently (a declaration). */
    void retryAfter(SpecKey key, long now, Duration delay) {
        processing.remove(key);
        markedWhileProcessing.remove(key);
        ready.remove(key);
        delayed.put(key, now + delay.toNanos());
        due.add(new Due(now + delay.toNanos(), key));
    }

    /** Success or a verdict: the key's backoff starts over. */
    void forget(SpecKey key) {
        failures.remove(key);
        solo.remove(key);
    }

    /** The key goes alone in its next transaction (to tell which spec a rejection belongs to). */
    void markSolo(SpecKey key) {
        solo.add(key);
    }

    boolean isSolo(SpecKey key) {
        return solo.contains(key);
    }

    /** Moves keys whose backoff ran out to ready; returns when the next one does. O(log n) per key moved. */
    OptionalLong promoteDue(long now) {
        while (!due.isEmpty()) {
            Due d = due.peek();
            Long at = delayed.get(d.key());
            if (at == null || at != d.at()) {
                due.poll();
            } else if (d.at() <= now) {
                due.poll();
                delayed.remove(d.key());
                ready.putIfAbsent(d.key(), now);
            } else {
                return OptionalLong.of(d.at());
            }
        }
        return OptionalLong.empty();
    }

    /** A key's backoff ends at {@code at}. */
    private record Due(long at, SpecKey key) {
    }

    /** After a step failed midway: whatever it had taken is ready again. */
    void reclaim(long now) {
        for (SpecKey k : List.copyOf(processing.keySet())) {
            requeue(k, now);
        }
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** Drops every trace of a key. */
    void remove(SpecKey key) {
        ready.remove(key);
        delayed.remove(key);
        failures.remove(key);
        solo.remove(key);
    }

    int size() {
        return ready.size() + delayed.size() + processing.size();
    }
}
