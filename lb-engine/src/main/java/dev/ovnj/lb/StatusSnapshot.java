package dev.ovnj.lb;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One owner's published statuses: an immutable map that the next publication shares all but the
 * changed part of. The names are spread over buckets by hash (about eight names a bucket, at
 * least 1,024 buckets), and publishing copies only the buckets a step touched, so
 * a step that changed one status of an owner with 100,000 specs costs a bucket (a handful of
 * entries), not the whole map, and a step that verified one transaction's few hundred specs costs
 * a few thousand entries; an {@link ApplyResult} holds it as it is. Iteration order is unspecified.
 */
final class StatusSnapshot extends AbstractMap<String, SpecStatus> {
    private static final int MIN_BUCKETS = 1024;
    private static final int MAX_BUCKETS = 1 << 20;
    /** Names per bucket that {@link #of} aims at; {@link #with} rebuckets at twice that. */
    private static final int PER_BUCKET = 8;
    static final StatusSnapshot EMPTY = new StatusSnapshot(newBuckets(MIN_BUCKETS), 0);

    /** Never modified once this snapshot is built; null for an empty bucket. */
    private final Map<String, SpecStatus>[] buckets;
    private final int size;

    private StatusSnapshot(Map<String, SpecStatus>[] buckets, int size) {
        this.buckets = buckets;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, SpecStatus>[] newBuckets(int count) {
        return (Map<String, SpecStatus>[]) new Map<?, ?>[count];
    }

    /** A power of two giving about {@link #PER_BUCKET} names a bucket. */
    private static int bucketsFor(int size) {
        int n = MIN_BUCKETS;
        while (n < MAX_BUCKETS && (long) n * PER_BUCKET < size) {
            n <<= 1;
        }
        return n;
    }

    private static int bucket(Object name, int count) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (count - 1);
    }

    /** A snapshot of every entry of {@code statuses}. */
    static StatusSnapshot of(Map<String, SpecStatus> statuses) {
        Map<String, SpecStatus>[] b = newBuckets(bucketsFor(statuses.size()));
        for (Map.Entry<String, SpecStatus> e : statuses.entrySet()) {
            int i = bucket(e.getKey(), b.length);
            if (b[i] == null) {
                b[i] = new HashMap<>();
            }
            b[i].put(e.getKey(), e.getValue());
        }
        return new StatusSnapshot(b, statuses.size());
    }

    /**
     * This snapshot with the given names set to their value in {@code current} (or dropped where
     * it has none); copies only their buckets. A name may be given more than once.
     */
    StatusSnapshot with(Collection<String> changed, Map<String, SpecStatus> current) {
        if (changed.size() > buckets.length || changed.size() * 8 > size
                || (current.size() > buckets.length * 2 * PER_BUCKET && buckets.length < MAX_BUCKETS)) {
            // Most buckets would be copied anyway, or they have grown too full to copy cheaply.
            return of(current);
        }
        Map<String, SpecStatus>[] next = buckets.clone();
        boolean[] copied = new boolean[buckets.length];
        int n = size;
        for (String name : changed) {
            int i = bucket(name, next.length);
            if (!copied[i]) {
                next[i] = next[i] == null ? new HashMap<>() : new HashMap<>(next[i]);
                copied[i] = true;
            }
            SpecStatus now = current.get(name);
            SpecStatus old = now == null ? next[i].remove(name) : next[i].put(name, now);
            if (old == null && now != null) {
                n++;
            } else if (old != null && now == null) {
                n--;
            }
        }
        return new StatusSnapshot(next, n);
    }

    @Override
    public SpecStatus get(Object key) {
        if (key == null) {
            return null;
        }
        Map<String, SpecStatus> b = buckets[bucket(key, buckets.length)];
        return b == null ? null : b.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<Map.Entry<String, SpecStatus>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, SpecStatus>> iterator() {
                return new Entries();
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** Read-only entries, bucket by bucket. */
    private final class Entries implements Iterator<Map.Entry<String, SpecStatus>> {
        private int next;
        private Iterator<Map.Entry<String, SpecStatus>> current = Collections.emptyIterator();

        @Override
        public boolean hasNext() {
            while (!current.hasNext() && next < buckets.length) {
                Map<String, SpecStatus> b = buckets[next++];
                if (b != null) {
                    current = b.entrySet().iterator();
                }
            }
            return current.hasNext();
        }

        @Override
        public Map.Entry<String, SpecStatus> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Map.Entry<String, SpecStatus> e = current.next();
            return new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue());
        }
    }
}
