package dev.ovnj.lb;

import dev.ovnj.lb.internal.PortAddresses;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.Target;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.PersistentSet;
import dev.ovnj.ovsdb.data.Row;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Turns cache events into the keys of the specs they can affect, and nothing else (like
 * controller-runtime's event handlers): a port added to a switch no spec uses, or any column the
 * engine does not read, affects no spec. Engine thread only.
 *
 * <ul>
 *   <li>a Load_Balancer row: its owner's spec, specs declaring one of its VIPs (a possible
 *       conflict), specs whose row would have its name;</li>
 *   <li>a router, switch or group: specs naming it when it appears, goes or is renamed; when its
 *       load balancers or groups change, the specs of those load balancers and of their VIPs;</li>
 *   <li>a router's ports or {@code options:chassis}, or a Logical_Router_Port's networks or gateway
 *       chassis: the specs on that router (EIP check, {@code skipSnat} on a distributed router).</li>
 * </ul>
 */
final class EventMapper {
    private final DesiredStore desired;
    private final VipIndex vips;

    EventMapper(DesiredStore desired, VipIndex vips) {
        this.desired = desired;
        this.vips = vips;
    }

    /** Events mapped per cache read, so a huge batch never holds the client's update thread for long. */
    private static final int CHUNK = 256;

    Set<SpecKey> map(List<CacheEvent> events, RowCache cache, EngineCounters counters) {
        Set<SpecKey> out = new LinkedHashSet<>();
        Set<UUID> mapped = loadBalancersOf(events);
        for (int i = 0; i < events.size(); i += CHUNK) {
            List<CacheEvent> chunk = events.subList(i, Math.min(events.size(), i + CHUNK));
            cache.read(() -> {
                long t0 = EngineCounters.now();
                chunk.forEach(e -> map(e, cache, mapped, out));
                counters.cacheRead(t0);
                return null;
            });
        }
        return out;
    }

    /**
     * The load balancers that have an event of their own in the batch. Their specs and VIPs are
     * mapped from that event, so a router, switch or group gaining or losing them need not map
     * them again: an engine's converge inserts each row and adds it to its group in the same
     * transaction, and mapping both read every row's VIPs twice. A later version of such a row
     * comes with an event of its own in a later batch.
     */
    private static Set<UUID> loadBalancersOf(List<CacheEvent> events) {
        Set<UUID> out = new HashSet<>();
        for (CacheEvent e : events) {
            if (e.table().equals("Load_Balancer")) {
                out.add(e.uuid());
            }
        }
        return out;
    }

    private void map(CacheEvent e, RowCache cache, Set<UUID> mapped, Set<SpecKey> out) {
        Row before = before(e);
        Row after = after(e);
        switch (e.table()) {
            case "Load_Balancer" -> loadBalancer(before, after, out);
            case "Logical_Router" -> target(Target.ROUTER, before, after, cache, mapped, out);
            case "Logical_Switch" -> target(Target.SWITCH, before, after, cache, mapped, out);
            case "Load_Balancer_Group" -> group(before, after, cache, mapped, out);
            case "Logical_Router_Port" -> routerPort(e.uuid(), before, after, cache, out);
            case "Logical_Switch_Port" -> switchPort(before, after, out);
            case "Load_Balancer_Health_Check", "Logical_Router_Policy" -> {
                for (Row r : new Row[] {before, after}) {
                    if (r != null) {
                        ownedKey(r, out);
                    }
                }
            }
            case "NB_Global" -> {
                if (!Objects.equals(option(before), option(after))) {
                    // Another OVN release now writes the database: what is supported may have changed.
                    out.addAll(desired.all());
                }
            }
            default -> {
                // NAT and anything else monitored: no spec depends on them.
            }
        }
    }

    private void loadBalancer(Row before, Row after, Set<SpecKey> out) {
        vips.update(before, after);
        for (Row r : new Row[] {before, after}) {
            if (r == null) {
                continue;
            }
            SpecKey own = ownedKey(r, out);
            desired.addByRowName(Admission.nameOf(r), own, out);
            VipIndex.forEachKey(r, k -> desired.addByVip(k, own, out));
        }
    }

    private void target(Target kind, Row before, Row after, RowCache cache, Set<UUID> mapped, Set<SpecKey> out) {
        if (kind == Target.SWITCH && (before == null || after == null
                || !Objects.equals(before.get("other_config"), after.get("other_config")))) {
            // A backend's switch or its subnet: health-check sources. (Its ports come and go as
            // Logical_Switch_Port events, mapped by address in switchPort.)
            out.addAll(desired.checked());
        }
        if (before == null || after == null || !Objects.equals(before.get("name"), after.get("name"))) {
            for (Row r : new Row[] {before, after}) {
                if (r != null) {
                    out.addAll(desired.byTarget(new Attachment(kind, Admission.nameOf(r))));
                    members(r.get("load_balancer"), cache, mapped, out);
                }
            }
            return;
        }
        Attachment name = new Attachment(kind, Admission.nameOf(after));
        if (kind == Target.SWITCH && !Objects.equals(before.get("ports"), after.get("ports"))) {
            // A port left: a switch with no address left for a chosen health-check source may have one now.
            out.addAll(desired.byWatched("switch:" + name.name()));
        }
        Set<Object> lbs = changed(before.get("load_balancer"), after.get("load_balancer"));
        members(lbs, cache, mapped, out);
        Set<Object> groups = changed(before.get("load_balancer_group"), after.get("load_balancer_group"));
        if (!groups.isEmpty()) {
            out.addAll(desired.byTarget(name));
            for (Object g : groups) {
                cache.table("Load_Balancer_Group").get((UUID) g).ifPresent(row -> {
                    out.addAll(desired.byTarget(new Attachment(Target.GROUP, Admission.nameOf(row))));
                    members(row.get("load_balancer"), cache, mapped, out);
                });
            }
        }
        if (kind == Target.ROUTER && (!Objects.equals(before.get("ports"), after.get("ports"))
                || !Objects.equals(chassis(before), chassis(after)))) {
            // Its ports, or whether it is a gateway router: the EIP check and skipSnat's verdict.
            out.addAll(desired.byTarget(name));
        }
    }

    private void group(Row before, Row after, RowCache cache, Set<UUID> mapped, Set<SpecKey> out) {
        if (before == null || after == null || !Objects.equals(before.get("name"), after.get("name"))) {
            for (Row r : new Row[] {before, after}) {
                if (r != null) {
                    out.addAll(desired.byTarget(new Attachment(Target.GROUP, Admission.nameOf(r))));
                    members(r.get("load_balancer"), cache, mapped, out);
                }
            }
            return;
        }
        members(changed(before.get("load_balancer"), after.get("load_balancer")), cache, mapped, out);
    }

    private void routerPort(UUID port, Row before, Row after, RowCache cache, Set<SpecKey> out) {
        boolean gateway = before == null || after == null || !Objects.equals(gateway(before), gateway(after));
        if (!gateway && Objects.equals(before.get("networks"), after.get("networks"))
                && Objects.equals(before.get("name"), after.get("name"))) {
            return;
        }
        out.addAll(desired.checked());
        // A port does not name its router; the router's ports column does. An added or removed
        // port also changes that column, which target() maps on its own.
        for (Row router : cache.table("Logical_Router").lookup(Admission.ROUTER_BY_PORT, port)) {
            out.addAll(desired.byTarget(new Attachment(Target.ROUTER, Admission.nameOf(router))));
        }
    }

    /** A router's {@code options:chassis} (a gateway router), or null. */
    private static Object chassis(Row router) {
        return router.get("options") instanceof Map<?, ?> options ? options.get("chassis") : null;
    }

    /** What makes a router port a gateway port: its gateway chassis, HA group or redirect-chassis. */
    private static List<Object> gateway(Row port) {
        Object redirect = port.get("options") instanceof Map<?, ?> options ? options.get("redirect-chassis") : null;
        return Arrays.asList(port.get("gateway_chassis"), port.get("ha_chassis_group"), redirect);
    }

    /**
     * The specs of load balancers that joined or left a set: their own, and those sharing a VIP;
     * those {@code mapped} from an event of their own are left out.
     */
    private void members(Object uuids, RowCache cache, Set<UUID> mapped, Set<SpecKey> out) {
        if (!(uuids instanceof Set<?> set)) {
            return;
        }
        for (Object id : set) {
            if (mapped.contains(id)) {
                continue;
            }
            cache.table("Load_Balancer").get((UUID) id).ifPresent(row -> {
                SpecKey own = ownedKey(row, out);
                VipIndex.forEachKey(row, k -> desired.addByVip(k, own, out));
            });
        }
    }

    /** The elements that joined or left a set column: O(change) for the cache's persistent sets, not O(set). */
    private static Set<Object> changed(Object before, Object after) {
        Set<Object> out = new LinkedHashSet<>();
        Set<?> b = before instanceof Set<?> s ? s : Set.of();
        Set<?> a = after instanceof Set<?> s ? s : Set.of();
        PersistentSet.diff(b, a, out::add, out::add);
        return out;
    }

    /** Adds the key of the spec that owns a row, if it has one, and returns it (else null). */
    private static SpecKey ownedKey(Row row, Set<SpecKey> out) {
        if (row.get("external_ids") instanceof Map<?, ?> ids && ids.get(DesiredRow.OWNER_KEY) instanceof String owner
                && ids.get(DesiredRow.SPEC_KEY) instanceof String spec) {
            SpecKey key = new SpecKey(owner, spec);
            out.add(key);
            return key;
        }
        return null;
    }

    /**
     * A switch port appeared, went, or changed its name, addresses, type or options: the specs
     * checking a backend at one of its addresses (before or after) or naming it.
     */
    private void switchPort(Row before, Row after, Set<SpecKey> out) {
        if (desired.checked().isEmpty()) {
            return;
        }
        if (before != null && after != null) {
            boolean changed = false;
            for (String c : new String[] {"name", "addresses", "dynamic_addresses", "type", "options"}) {
                changed |= !Objects.equals(before.get(c), after.get(c));
            }
            if (!changed) {
                return;
            }
        }
        for (Row r : new Row[] {before, after}) {
            if (r == null) {
                continue;
            }
            out.addAll(desired.byCheckedBackend("port:" + Admission.nameOf(r)));
            for (String ip : PortAddresses.of(r)) {
                out.addAll(desired.byCheckedBackend("ip:" + ip));
                out.addAll(desired.byWatched("ip:" + ip));
            }
            if ("router".equals(r.get("type"))) {
                // A router port joining or leaving a switch changes its subnets and port addresses.
                out.addAll(desired.checked());
            }
        }
    }

    private static Object option(Row global) {
        return global != null && global.get("options") instanceof Map<?, ?> o ? o.get("northd_internal_version") : null;
    }

    private static Row before(CacheEvent e) {
        if (e instanceof CacheEvent.Updated u) {
            return u.oldRow();
        }
        return e instanceof CacheEvent.Deleted d ? d.oldRow() : null;
    }

    private static Row after(CacheEvent e) {
        if (e instanceof CacheEvent.Updated u) {
            return u.newRow();
        }
        return e instanceof CacheEvent.Inserted i ? i.row() : null;
    }
}
