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
 * changed part of. The names are spread over a fixed number of buckets by hash, and publishing
 * copies only the buckets a step touched, so a step that changed one status of an owner with
 * 100,000 specs costs a bucket (a hundred entries or so), not the whole map; an
 * {@link ApplyResult} holds it as it is. Iteration order is unspecified.
 */
final class StatusSnapshot extends AbstractMap<String, SpecStatus> {
    private static final int BUCKETS = 1024;
    static final StatusSnapshot EMPTY = new StatusSnapshot(newBuckets(), 0);

    /** Never modified once this snapshot is built; null for an empty bucket. */
    private final Map<String, SpecStatus>[] buckets;
    private final int size;

    private StatusSnapshot(Map<String, SpecStatus>[] buckets, int size) {
        this.buckets = buckets;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, SpecStatus>[] newBuckets() {
        return (Map<String, SpecStatus>[]) new Map<?, ?>[BUCKETS];
    }

    private static int bucket(Object name) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (BUCKETS - 1);
    }

    /** A snapshot of every entry of {@code statuses}. */
    static StatusSnapshot of(Map<String, SpecStatus> statuses) {
        Map<String, SpecStatus>[] b = newBuckets();
        for (Map.Entry<String, SpecStatus> e : statuses.entrySet()) {
            int i = bucket(e.getKey());
            if (b[i] == null) {
                b[i] = new HashMap<>();
            }
            b[i].put(e.getKey(), e.getValue());
        }
        return new StatusSnapshot(b, statuses.size());
    }

    /**
     * This snapshot with the given names set to their value in {@code current} (or dropped where
     * it has none); copies only their buckets.
     */
    StatusSnapshot with(Collection<String> changed, Map<String, SpecStatus> current) {
        if (changed.size() > BUCKETS || changed.size() * 8 > size) {
            // Most buckets would be copied anyway.
            return of(current);
        }
        Map<String, SpecStatus>[] next = buckets.clone();
        boolean[] copied = new boolean[BUCKETS];
        int n = size;
        for (String name : changed) {
            int i = bucket(name);
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
        Map<String, SpecStatus> b = buckets[bucket(key)];
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
            while (!current.hasNext() && next < BUCKETS) {
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
