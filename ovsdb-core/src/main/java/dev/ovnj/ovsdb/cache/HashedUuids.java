package dev.ovnj.ovsdb.cache;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A compact multimap from 32-bit key hashes to row UUIDs, for indexes that hold an entry for
 * nearly every cached row and can re-check a candidate against the row itself: it stores neither
 * the keys nor a node per entry, only an open-addressing table of (hash, rows) pairs, two array
 * slots per hash. A hash that one row has, the usual case, holds that row's {@link UUID} itself;
 * only a hash several rows share holds a set, in the order they joined. Distinct keys with equal
 * hashes share an entry, so a lookup returns candidates: the caller keeps those whose own value
 * has the key.
 *
 * <p>Not thread-safe: callers guard it (the cache's lock, or their own).
 */
public final class HashedUuids {
    private static final Object REMOVED = new Object();
    private static final int MIN_CAPACITY = 16;

    // rowsAt[i]: null (never used), REMOVED, a UUID or a LinkedHashSet<UUID> of two or more;
    // hashes[i]: the hash they are under.
    private Object[] rowsAt = new Object[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private int live;
    private int used;

    /** Creates an empty multimap. */
    public HashedUuids() {
    }

    /**
     * The hash under which a key is kept: its {@code hashCode()} with the high bits spread down, as
     * {@link java.util.HashMap} does.
     *
     * @param key the key
     * @return its hash
     */
    public static int hash(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    /**
     * The rows under a hash: a live view, valid until the next change.
     *
     * @param hash a hash from {@link #hash(Object)}
     * @return the rows, possibly none
     */
    @SuppressWarnings("unchecked")
    public Collection<UUID> get(int hash) {
        int i = slotOf(hash);
        if (i < 0) {
            return List.of();
        }
        Object v = rowsAt[i];
        return v instanceof UUID u ? List.of(u) : (Set<UUID>) v;
    }

    /**
     * The rows under a hash as kept, for a caller in this package that looks up on every read and
     * wants no list around the usual single row: null, one {@link UUID}, or a live set of several.
     */
    Object rowsUnder(int hash) {
        int i = slotOf(hash);
        return i < 0 ? null : rowsAt[i];
    }

    /**
     * Adds a row under a hash; nothing if it is there already.
     *
     * @param hash a hash from {@link #hash(Object)}
     * @param uuid the row
     */
    @SuppressWarnings("unchecked")
    public void add(int hash, UUID uuid) {
        int i = slotOf(hash);
        if (i >= 0) {
            Object v = rowsAt[i];
            if (v instanceof UUID u) {
                if (!u.equals(uuid)) {
                    Set<UUID> set = new LinkedHashSet<>(4);
                    set.add(u);
                    set.add(uuid);
                    rowsAt[i] = set;
                }
            } else {
                ((Set<UUID>) v).add(uuid);
            }
            return;
        }
        if ((used + 1) * 4 > rowsAt.length * 3) {
            rehash(live + 1);
        }
        int n = rowsAt.length;
        i = firstSlot(hash, n);
        while (rowsAt[i] != null && rowsAt[i] != REMOVED) {
            i = i + 1 == n ? 0 : i + 1;
        }
        if (rowsAt[i] == null) {
            used++;
        }
        rowsAt[i] = uuid;
        hashes[i] = hash;
        live++;
    }

    /**
     * Removes a row from under a hash; nothing if it is not there.
     *
     * @param hash a hash from {@link #hash(Object)}
     * @param uuid the row
     */
    @SuppressWarnings("unchecked")
    public void remove(int hash, UUID uuid) {
        int i = slotOf(hash);
        if (i < 0) {
            return;
        }
        Object v = rowsAt[i];
        if (v instanceof UUID u) {
            if (u.equals(uuid)) {
                rowsAt[i] = REMOVED;
                live--;
                if (live * 8 < rowsAt.length && rowsAt.length > MIN_CAPACITY) {
                    rehash(live);
                }
            }
            return;
        }
        Set<UUID> set = (Set<UUID>) v;
        set.remove(uuid);
        if (set.size() == 1) {
            rowsAt[i] = set.iterator().next();
        }
    }

    /** Removes every entry. */
    public void clear() {
        rowsAt = new Object[MIN_CAPACITY];
        hashes = new int[MIN_CAPACITY];
        live = 0;
        used = 0;
    }

    /** The slot holding {@code hash}, or -1. */
    private int slotOf(int hash) {
        int n = rowsAt.length;
        for (int i = firstSlot(hash, n); rowsAt[i] != null; i = i + 1 == n ? 0 : i + 1) {
            if (hashes[i] == hash && rowsAt[i] != REMOVED) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Rebuilds the table for {@code entries} hashes half full, dropping removed slots. The size is
     * exactly twice the entries, not the next power of two, so a table is always half to three
     * quarters full (a power of two left 50,000 entries in 131,072 slots).
     */
    private void rehash(int entries) {
        int capacity = Math.max(MIN_CAPACITY, entries * 2);
        Object[] oldRows = rowsAt;
        int[] oldHashes = hashes;
        rowsAt = new Object[capacity];
        hashes = new int[capacity];
        used = 0;
        for (int j = 0; j < oldRows.length; j++) {
            if (oldRows[j] != null && oldRows[j] != REMOVED) {
                int i = firstSlot(oldHashes[j], capacity);
                while (rowsAt[i] != null) {
                    i = i + 1 == capacity ? 0 : i + 1;
                }
                rowsAt[i] = oldRows[j];
                hashes[i] = oldHashes[j];
                used++;
            }
        }
    }

    /**
     * The first slot for a hash in a table of {@code n} slots: the hash multiplied to spread its
     * low bits upward, then scaled to {@code n}, which need not be a power of two.
     */
    private static int firstSlot(int hash, int n) {
        return (int) (((hash * 0x9E3779B9) & 0xFFFF_FFFFL) * n >>> 32);
    }
}
