package dev.ovnj.lb;

import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every Load_Balancer row of the database by the VIPs it serves, owned or
 * not: the candidates for a VIP conflict, found without scanning every load balancer of a router.
 * Written by the engine thread from cache events, read by admission on any thread; a candidate is
 * always re-read from the cache, so a slightly stale entry costs a lookup, never a wrong verdict.
 */
final class VipIndex {
    private final Map<VipKey, Set<UUID>> rows = new ConcurrentHashMap<>();

    /** Rebuilds from the cache (at start and after every resync). */
    void rebuild(RowCache cache) {
        rows.clear();
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

    Set<UUID> rows(VipKey vipKey) {
        Set<UUID> s = rows.get(vipKey);
        return s == null ? Set.of() : Set.copyOf(s);
    }

    private void add(Row row) {
        for (VipKey k : keys(row)) {
            rows.computeIfAbsent(k, x -> ConcurrentHashMap.newKeySet()).add(row.uuid());
        }
    }

    private void remove(Row row) {
        for (VipKey k : keys(row)) {
            Set<UUID> s = rows.get(k);
            if (s != null) {
                s.remove(row.uuid());
                if (s.isEmpty()) {
                    rows.remove(k, s);
                }
            }
        }
    }

    /** The VIP keys of a row; a row without protocol is TCP, as in OVN. */
    static Set<VipKey> keys(Row row) {
        Protocol protocol = protocol(row);
        if (protocol == null || !(row.get("vips") instanceof Map<?, ?> vips)) {
            return Set.of();
        }
        Set<VipKey> out = new java.util.HashSet<>();
        for (Object vip : vips.keySet()) {
            out.add(VipKey.of(protocol, String.valueOf(vip)));
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
