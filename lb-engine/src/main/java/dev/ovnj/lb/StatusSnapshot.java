package dev.ovnj.lb;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One owner's published statuses: an immutable map that the next publication shares all but the
 * changed part of. The names are spread over buckets by hash (about eight names a bucket, at
 * least 1,024 buckets), the buckets grouped in chunks of 128; publishing copies the
 * short array of chunks, the chunks a step touched and the buckets it touched, so a step that
 * changed one status of an owner with 100,000 specs costs one bucket (a handful of entries) and
 * two arrays of about a hundred references, not the whole map, and a step that verified one
 * transaction's few hundred specs costs a few thousand entries; an {@link ApplyResult} holds it as
 * it is. Iteration order is unspecified.
 *
 * <p>Why chunks: with one flat array of buckets, every publication cloned all of them (16,384
 * references, 64 KiB, at 100,000 specs) and several publications follow each upsert; at 100,000
 * specs that was two thirds of what the JVM allocated per upsert (about 100 KB), 3.5 times the
 * allocation per upsert at 1,000 specs, and young collections came as much more often.
 */
final class StatusSnapshot extends AbstractMap<String, SpecStatus> {
    private static final int MIN_BUCKETS = 1024;
    private static final int MAX_BUCKETS = 1 << 20;
    /** Names per bucket that {@link #of} aims at; {@link #with} rebuckets at twice that. */
    private static final int PER_BUCKET = 8;
    private static final int CHUNK_BITS = 7;
    /** Buckets per chunk: the unit a publication copies besides the array of chunks. */
    private static final int CHUNK = 1 << CHUNK_BITS;
    static final StatusSnapshot EMPTY = new StatusSnapshot(new Object[MIN_BUCKETS >>> CHUNK_BITS][][], MIN_BUCKETS, 0);

    /**
     * Never modified once this snapshot is built; a null chunk or bucket is an empty one. Bucket
     * {@code i} is {@code chunks[i >>> CHUNK_BITS][i & (CHUNK - 1)]}: an array of its names and
     * statuses, alternating, of exactly their size. An array, not a hash map: a bucket holds about
     * eight names, and copying it costs one array instead of a map with a node per name.
     */
    private final Object[][][] chunks;
    private final int bucketCount;
    private final int size;

    private StatusSnapshot(Object[][][] chunks, int bucketCount, int size) {
        this.chunks = chunks;
        this.bucketCount = bucketCount;
        this.size = size;
    }

    /** A power of two giving about {@link #PER_BUCKET} names a bucket. */
    private static int bucketsFor(int size) {
        int n = MIN_BUCKETS;
        while (n < MAX_BUCKETS && (long) n * PER_BUCKET < size) {
            n <<= 1;
        }
        return n;
    }

    /** The bucket of a name: the top bits of its hash times the golden ratio, spread over all buckets. */
    private static int bucket(Object name, int count) {
        return (name.hashCode() * 0x9E3779B9) >>> (Integer.numberOfLeadingZeros(count) + 1);
    }

    /** Where {@code name} is in a bucket (the index of the name; its status follows), or -1. */
    private static int indexIn(Object[] b, Object name) {
        if (b != null) {
            int h = name.hashCode();
            for (int k = 0; k < b.length; k += 2) {
                if (b[k].hashCode() == h && b[k].equals(name)) {
                    return k;
                }
            }
        }
        return -1;
    }

    /** A snapshot of every entry of {@code statuses}. */
    static StatusSnapshot of(Map<String, SpecStatus> statuses) {
        int count = bucketsFor(statuses.size());
        // Counted first, so each bucket is made once at its size.
        int[] sizes = new int[count];
        for (String name : statuses.keySet()) {
            sizes[bucket(name, count)] += 2;
        }
        Object[][][] c = new Object[count >>> CHUNK_BITS][][];
        for (Map.Entry<String, SpecStatus> e : statuses.entrySet()) {
            int i = bucket(e.getKey(), count);
            Object[][] chunk = c[i >>> CHUNK_BITS];
            if (chunk == null) {
                chunk = new Object[CHUNK][];
                c[i >>> CHUNK_BITS] = chunk;
            }
            Object[] b = chunk[i & (CHUNK - 1)];
            if (b == null) {
                b = new Object[sizes[i]];
                chunk[i & (CHUNK - 1)] = b;
            }
            // sizes[i] now counts down to where this entry goes.
            sizes[i] -= 2;
            b[sizes[i]] = e.getKey();
            b[sizes[i] + 1] = e.getValue();
        }
        return new StatusSnapshot(c, count, statuses.size());
    }

    /**
     * This snapshot with the given names set to their value in {@code current} (or dropped where
     * it has none); copies only the array of chunks and the chunks and buckets the names fall in.
     * A name may be given more than once.
     */
    StatusSnapshot with(Collection<String> changed, Map<String, SpecStatus> current) {
        if (changed.size() > bucketCount || changed.size() * 8 > size
                || (current.size() > bucketCount * 2 * PER_BUCKET && bucketCount < MAX_BUCKETS)) {
            // Most buckets would be copied anyway, or they have grown too full to copy cheaply.
            return of(current);
        }
        Object[][][] next = chunks.clone();
        int n = size;
        for (String name : changed) {
            int i = bucket(name, bucketCount);
            int c = i >>> CHUNK_BITS;
            int j = i & (CHUNK - 1);
            Object[][] old = chunks[c];
            if (next[c] == old) {
                // First name in this chunk: the chunk is still shared with this snapshot.
                next[c] = old == null ? new Object[CHUNK][] : old.clone();
            }
            Object[] b = next[c][j];
            boolean shared = old != null && b == old[j];
            int k = indexIn(b, name);
            SpecStatus now = current.get(name);
            if (k >= 0 && now != null) {
                // Replaced in place, in a copy of the bucket if it is still this snapshot's.
                if (shared) {
                    b = b.clone();
                    next[c][j] = b;
                }
                b[k + 1] = now;
            } else if (k >= 0) {
                Object[] less = new Object[b.length - 2];
                System.arraycopy(b, 0, less, 0, k);
                System.arraycopy(b, k + 2, less, k, b.length - k - 2);
                next[c][j] = less.length == 0 ? null : less;
                n--;
            } else if (now != null) {
                Object[] more = b == null ? new Object[2] : java.util.Arrays.copyOf(b, b.length + 2);
                more[more.length - 2] = name;
                more[more.length - 1] = now;
                next[c][j] = more;
                n++;
            }
        }
        return new StatusSnapshot(next, bucketCount, n);
    }

    @Override
    public SpecStatus get(Object key) {
        if (key == null) {
            return null;
        }
        int i = bucket(key, bucketCount);
        Object[][] chunk = chunks[i >>> CHUNK_BITS];
        Object[] b = chunk == null ? null : chunk[i & (CHUNK - 1)];
        int k = indexIn(b, key);
        return k < 0 ? null : (SpecStatus) b[k + 1];
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
        private Object[] current;
        private int at;

        @Override
        public boolean hasNext() {
            while ((current == null || at == current.length) && next < bucketCount) {
                Object[][] chunk = chunks[next >>> CHUNK_BITS];
                if (chunk == null) {
                    next = (next | (CHUNK - 1)) + 1;
                    continue;
                }
                current = chunk[next++ & (CHUNK - 1)];
                at = 0;
            }
            return current != null && at < current.length;
        }

        @Override
        public Map.Entry<String, SpecStatus> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Map.Entry<String, SpecStatus> e = new AbstractMap.SimpleImmutableEntry<>((String) current[at], (SpecStatus) current[at + 1]);
            at += 2;
            return e;
        }
    }
}
