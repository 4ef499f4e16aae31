package dev.ovnj.lb;

import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every Load_Balancer row of the database by the VIPs it serves, owned or
 * not: the candidates for a VIP conflict, found without scanning every load balancer of a router.
 * Written by the engine thread from cache events, read by admission on any thread; a candidate is
 * always re-read from the cache, so a slightly stale entry costs a lookup, never a wrong verdict.
 *
 * <p>It holds one entry per VIP of every cached load balancer, so it is laid out for size: one map
 * per protocol keyed by the normalized VIP string (no key object per entry, and the string is the
 * row's own when the row already spells the VIP in normal form); a VIP that one row serves, the
 * usual case, maps to that row's UUID itself, and only a VIP shared by several rows gets a set.
 */
final class VipIndex {
    private final Map<Protocol, Map<String, Object>> rows = new EnumMap<>(Protocol.class);

    VipIndex() {
        for (Protocol p : Protocol.values()) {
            rows.put(p, new ConcurrentHashMap<>());
        }
    }

    /** Rebuilds from the cache (at start and after every resync). */
    void rebuild(RowCache cache) {
        rows.values().forEach(Map::clear);
        if (cache.findTable("Load_Balancer").isEmpty()) {
            return;
        }
        cache.read(() -> {
            cache.table("Load_Balancer").rows().forEach(r -> add(r));
            return null;
        });
    }

    void update(Row before, Row after) {
        if (before != null) {
            remove(before);
        }
        if (after != null) {
            add(after);
        }
    }

    /** The rows serving a VIP: an immutable set, never a live view. */
    @SuppressWarnings("unchecked")
    Set<UUID> rows(VipKey vipKey) {
        Object v = rows.get(vipKey.protocol()).get(vipKey.vip());
        if (v == null) {
            return Set.of();
        }
        return v instanceof UUID u ? Set.of(u) : (Set<UUID>) v;
    }

    private void add(Row row) {
        UUID uuid = row.uuid();
        for (VipKey k : keys(row)) {
            rows.get(k.protocol()).merge(k.vip(), uuid, (old, x) -> with(old, uuid));
        }
    }

    private void remove(Row row) {
        UUID uuid = row.uuid();
        for (VipKey k : keys(row)) {
            rows.get(k.protocol()).computeIfPresent(k.vip(), (vip, old) -> without(old, uuid));
        }
    }

    @SuppressWarnings("unchecked")
    private static Object with(Object old, UUID uuid) {
        if (old.equals(uuid)) {
            return old;
        }
        Set<UUID> out = new HashSet<>(old instanceof UUID u ? Set.of(u) : (Set<UUID>) old);
        out.add(uuid);
        return Set.copyOf(out);
    }

    /** The entry without {@code uuid}; null removes it. */
    @SuppressWarnings("unchecked")
    private static Object without(Object old, UUID uuid) {
        if (old instanceof UUID u) {
            return u.equals(uuid) ? null : u;
        }
        Set<UUID> out = new HashSet<>((Set<UUID>) old);
        out.remove(uuid);
        return out.size() == 1 ? out.iterator().next() : Set.copyOf(out);
    }

    /** The VIP keys of a row; a row without protocol is TCP, as in OVN. */
    static Set<VipKey> keys(Row row) {
        Protocol protocol = protocol(row);
        if (protocol == null || !(row.get("vips") instanceof Map<?, ?> vips)) {
            return Set.of();
        }
        Set<VipKey> out = new HashSet<>();
        // Not keySet(): an immutable map caches the key set view it returns, one more object per
        // cached row for as long as the row lives.
        for (Map.Entry<?, ?> vip : vips.entrySet()) {
            out.add(VipKey.of(protocol, String.valueOf(vip.getKey())));
        }
        return out;
    }

    static Protocol protocol(Row row) {
        Object p = row.get("protocol");
        String wire = p instanceof Set<?> s && !s.isEmpty() ? String.valueOf(s.iterator().next()) : "tcp";
        for (Protocol candidate : Protocol.values()) {
            if (candidate.wireValue().equals(wire)) {
                return candidate;
            }
        }
        return null;
    }
}
