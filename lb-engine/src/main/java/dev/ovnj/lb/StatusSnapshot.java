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
    static final StatusSnapshot EMPTY = new StatusSnapshot(newChunks(MIN_BUCKETS), MIN_BUCKETS, 0);

    /**
     * Never modified once this snapshot is built; a null chunk or bucket is an empty one. Bucket
     * {@code i} is {@code chunks[i >>> CHUNK_BITS][i & (CHUNK - 1)]}.
     */
    private final Map<String, SpecStatus>[][] chunks;
    private final int bucketCount;
    private final int size;

    private StatusSnapshot(Map<String, SpecStatus>[][] chunks, int bucketCount, int size) {
        this.chunks = chunks;
        this.bucketCount = bucketCount;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, SpecStatus>[][] newChunks(int bucketCount) {
        return (Map<String, SpecStatus>[][]) new Map<?, ?>[bucketCount >>> CHUNK_BITS][];
    }

    @SuppressWarnings("unchecked")
    private static Map<String, SpecStatus>[] newChunk() {
        return (Map<String, SpecStatus>[]) new Map<?, ?>[CHUNK];
    }

    /** A power of two giving about {@link #PER_BUCKET} names a bucket. */
    private static int bucketsFor(int size) {
        int n = MIN_BUCKETS;
        while (n < MAX_BUCKETS && (long) n * PER_BUCKET < size) {
            n <<= 1;
        }
        return n;
    }

    /**
     * The bucket of a name: the top bits of its hash times the golden ratio. Not its low bits: a
     * bucket's {@link HashMap} indexes by the low bits, so names that shared them all fell into one
     * bin of their bucket's map, which then grew to 64 bins and turned that bin into a tree (half
     * of what a converge allocated to publish statuses, and a tree search per status read).
     */
    private static int bucket(Object name, int count) {
        return (name.hashCode() * 0x9E3779B9) >>> (Integer.numberOfLeadingZeros(count) + 1);
    }

    /** A snapshot of every entry of {@code statuses}. */
    static StatusSnapshot of(Map<String, SpecStatus> statuses) {
        int count = bucketsFor(statuses.size());
        Map<String, SpecStatus>[][] c = newChunks(count);
        for (Map.Entry<String, SpecStatus> e : statuses.entrySet()) {
            int i = bucket(e.getKey(), count);
            Map<String, SpecStatus>[] chunk = c[i >>> CHUNK_BITS];
            if (chunk == null) {
                chunk = newChunk();
                c[i >>> CHUNK_BITS] = chunk;
            }
            Map<String, SpecStatus> b = chunk[i & (CHUNK - 1)];
            if (b == null) {
                b = new HashMap<>();
                chunk[i & (CHUNK - 1)] = b;
            }
            b.put(e.getKey(), e.getValue());
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
        Map<String, SpecStatus>[][] next = chunks.clone();
        int n = size;
        for (String name : changed) {
            int i = bucket(name, bucketCount);
            int c = i >>> CHUNK_BITS;
            int j = i & (CHUNK - 1);
            Map<String, SpecStatus>[] old = chunks[c];
            if (next[c] == old) {
                // First name in this chunk: the chunk is still shared with this snapshot.
                next[c] = old == null ? newChunk() : old.clone();
            }
            Map<String, SpecStatus> b = next[c][j];
            if (b == null || old != null && b == old[j]) {
                // Still this snapshot's bucket (or none): copy before writing.
                b = b == null ? new HashMap<>() : new HashMap<>(b);
                next[c][j] = b;
            }
            SpecStatus now = current.get(name);
            SpecStatus was = now == null ? b.remove(name) : b.put(name, now);
            if (was == null && now != null) {
                n++;
            } else if (was != null && now == null) {
                n--;
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
        Map<String, SpecStatus>[] chunk = chunks[i >>> CHUNK_BITS];
        Map<String, SpecStatus> b = chunk == null ? null : chunk[i & (CHUNK - 1)];
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
            while (!current.hasNext() && next < bucketCount) {
                Map<String, SpecStatus>[] chunk = chunks[next >>> CHUNK_BITS];
                if (chunk == null) {
                    next = (next | (CHUNK - 1)) + 1;
                    continue;
                }
                Map<String, SpecStatus> b = chunk[next++ & (CHUNK - 1)];
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
