package dev.ovnj.lb;

import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.ovsdb.cache.HashedUuids;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Every Load_Balancer row of the database by the VIPs it serves, owned or
 * not: the candidates for a VIP conflict, found without scanning every load balancer of a router.
 * Written by the engine thread from cache events, read by admission on any thread; a candidate is
 * always re-read from the cache and its VIPs checked, so a slightly stale entry costs a lookup,
 * never a wrong verdict.
 *
 * <p>It holds an entry per VIP of every cached load balancer, so it keeps only the hash of each
 * VIP key with the rows having it ({@link HashedUuids}): no key objects, no node per entry. Two
 * VIPs with equal hashes share an entry, which the re-check above sorts out.
 */
final class VipIndex {
    private final HashedUuids rows = new HashedUuids();

    /** Rebuilds from the cache (at start and after every resync). */
    void rebuild(RowCache cache) {
        synchronized (this) {
            rows.clear();
        }
        if (cache.findTable("Load_Balancer").isEmpty()) {
            return;
        }
        cache.read(() -> {
            cache.table("Load_Balancer").rows().forEach(r -> update(null, r));
            return null;
        });
    }

    /** Moves a row from its old VIPs to its new ones (either may be null). */
    synchronized void update(Row before, Row after) {
        if (before != null) {
            move(before, false);
        }
        if (after != null) {
            move(after, true);
        }
    }

    /** Adds or removes one row under each of its VIPs' hashes (adding or removing twice is harmless). */
    private void move(Row row, boolean add) {
        forEachKey(row, k -> {
            if (add) {
                rows.add(HashedUuids.hash(k), row.uuid());
            } else {
                rows.remove(HashedUuids.hash(k), row.uuid());
            }
        });
    }

    /**
     * The rows that may serve a VIP (candidates to re-check): an immutable collection without
     * duplicates. Admission asks this for every VIP of every spec it admits, nearly always of a
     * VIP one row or none serves, so those two answers allocate nothing beyond the index's own.
     */
    synchronized Collection<UUID> rows(VipKey vipKey) {
        Collection<UUID> found = rows.get(HashedUuids.hash(vipKey));
        // HashedUuids answers one row with an immutable list, several with its live set.
        return found.size() <= 1 && found instanceof List<UUID> one ? one : List.copyOf(found);
    }

    /**
     * Gives each VIP key of a row to {@code action} (a key may come twice if two VIPs normalize
     * alike); a row without protocol is TCP, as in OVN. The row's map is read in place: every row
     * event and admission check asks this, and a set of keys per row was only garbage.
     */
    static void forEachKey(Row row, Consumer<VipKey> action) {
        Protocol protocol = protocol(row);
        if (protocol == null || !(row.get("vips") instanceof Map<?, ?> vips)) {
            return;
        }
        // Not keySet(): an immutable map caches the key set view it returns, one more object per
        // cached row for as long as the row lives.
        for (Map.Entry<?, ?> vip : vips.entrySet()) {
            action.accept(VipKey.of(protocol, String.valueOf(vip.getKey())));
        }
    }

    /** Whether a row serves a VIP. */
    static boolean serves(Row row, VipKey key) {
        Protocol protocol = protocol(row);
        if (protocol != key.protocol() || !(row.get("vips") instanceof Map<?, ?> vips)) {
            return false;
        }
        for (Map.Entry<?, ?> vip : vips.entrySet()) {
            if (VipKey.of(protocol, String.valueOf(vip.getKey())).equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** Protocol.values() clones its array on every call; this is read for every row event. */
    private static final Protocol[] PROTOCOLS = Protocol.values();

    /**
     * A row's protocol: its {@code protocol} set's element, TCP when empty (or not a set), null
     * when OVN knows no such protocol. Tested in place: the set is not decoded.
     */
    static Protocol protocol(Row row) {
        int column = row.table().columnIndex("protocol");
        if (!row.table().columns().get(column).type().isSet() || row.columnEquals(column, Set.of())) {
            return Protocol.TCP;
        }
        for (Protocol candidate : PROTOCOLS) {
            if (row.columnContains(column, candidate.wireValue())) {
                return candidate;
            }
        }
        return null;
    }
}
