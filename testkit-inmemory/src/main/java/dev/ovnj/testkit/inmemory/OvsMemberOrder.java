package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.ToIntFunction;

/**
 * The order in which ovsdb-server walks its hash maps (OVS's hmap): the members of a JSON object
 * (keyed by the murmur hash of the name) and the rows a transaction touched (keyed by the first
 * 32 bits of the UUID). When a request has several faults, the one ovsdb-server reports first
 * depends on this order, so the in-memory server walks them the same way.
 */
final class OvsMemberOrder {
    private OvsMemberOrder() {
    }

    /** The member names of {@code object} in ovsdb-server's iteration order. */
    static List<String> of(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return replay(names, OvsMemberOrder::hash);
    }

    /** Names (of databases, say) kept in an OVS shash, inserted in this order, in walk order. */
    static List<String> names(Collection<String> inserted) {
        return replay(inserted, OvsMemberOrder::hash);
    }

    /** Row UUIDs, inserted in this order into a transaction's rows, in ovsdb-server's walk order. */
    static List<UUID> rows(Collection<UUID> inserted) {
        return replay(inserted, u -> (int) (u.getMostSignificantBits() >>> 32));
    }

    /**
     * Replays inserts into an hmap and returns its walk order: each key goes to the head of its
     * bucket, and the table grows (re-inserting bucket by bucket) when n / 2 > mask.
     */
    private static <T> List<T> replay(Collection<T> keys, ToIntFunction<T> hashOf) {
        if (keys.size() < 2) {
            return new ArrayList<>(keys);
        }
        int mask = 0;
        List<List<T>> buckets = newBuckets(1);
        int n = 0;
        for (T key : keys) {
            buckets.get(hashOf.applyAsInt(key) & mask).add(0, key);
            n++;
            if (n / 2 > mask) {
                int newMask = calcMask(n);
                if (newMask > mask) {
                    List<List<T>> grown = newBuckets(newMask + 1);
                    for (List<T> bucket : buckets) {
                        for (T moved : bucket) {
                            grown.get(hashOf.applyAsInt(moved) & newMask).add(0, moved);
                        }
                    }
                    buckets = grown;
                    mask = newMask;
                }
            }
        }
        List<T> ordered = new ArrayList<>(keys.size());
        buckets.forEach(ordered::addAll);
        return ordered;
    }

    private static <T> List<List<T>> newBuckets(int count) {
        List<List<T>> buckets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            buckets.add(new ArrayList<>(2));
        }
        return buckets;
    }

    private static int calcMask(int capacity) {
        int mask = capacity / 2;
        mask |= mask >>> 1;
        mask |= mask >>> 2;
        mask |= mask >>> 4;
        mask |= mask >>> 8;
        mask |= mask >>> 16;
        mask |= (mask & 1) << 1;
        return mask;
    }

    /** OVS hash_string(name, 0): murmur3 steps over little-endian 32-bit words. */
    static int hash(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        int hash = 0;
        int i = 0;
        for (; i + 4 <= b.length; i += 4) {
            hash = add(hash, (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24);
        }
        if (i < b.length) {
            int tail = 0;
            for (int k = 0; i + k < b.length; k++) {
                tail |= (b[i + k] & 0xff) << (8 * k);
            }
            hash = add(hash, tail);
        }
        return finish(hash ^ b.length);
    }

    private static int add(int hash, int data) {
        if (data != 0) {
            data *= 0xcc9e2d51;
            data = Integer.rotateLeft(data, 15);
            data *= 0x1b873593;
            hash ^= data;
        }
        hash = Integer.rotateLeft(hash, 13);
        return hash * 5 + 0xe6546b64;
    }

    private static int finish(int hash) {
        hash ^= hash >>> 16;
        hash *= 0x85ebca6b;
        hash ^= hash >>> 13;
        hash *= 0xc2b2ae35;
        hash ^= hash >>> 16;
        return hash;
    }
}
