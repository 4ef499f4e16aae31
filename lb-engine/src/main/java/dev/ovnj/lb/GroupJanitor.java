package dev.ovnj.lb;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.ovsdb.cache.CacheEvent;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.Wait;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Ends the life of load balancer groups ovnj created (marked in {@code NB_Global
 * external_ids:ovnj.group.<name>}) once nothing uses them: when a group's last load balancer
 * leaves it and no declared spec names it, it is detached from its routers and switches and
 * deleted, and its mark removed, in one transaction that first waits for the group to be still
 * empty. A group someone else created is never deleted. Only a group seen to become empty is
 * swept: a group another replica just created, still empty, is left alone. Engine thread only.
 */
final class GroupJanitor {
    private final DesiredStore desired;

    GroupJanitor(DesiredStore desired) {
        this.desired = desired;
    }

    /** Groups whose last load balancer left in these events. */
    static Set<UUID> emptied(List<CacheEvent> events) {
        Set<UUID> out = new LinkedHashSet<>();
        for (CacheEvent e : events) {
            if (e instanceof CacheEvent.Updated u && "Load_Balancer_Group".equals(e.table())
                    && u.oldRow().get("load_balancer") instanceof Set<?> before && !before.isEmpty()
                    && u.newRow().get("load_balancer") instanceof Set<?> after && after.isEmpty()) {
                out.add(e.uuid());
            }
        }
        return out;
    }

    /**
     * The transaction deleting those of the candidates that are ovnj's, empty and not wanted.
     *
     * @return the transaction and the names it deletes, or empty when there is nothing to do
     */
    Optional<Map.Entry<Transaction, List<String>>> sweep(Set<UUID> candidates, RowCache cache, DatabaseSchema schema) {
        return cache.read(() -> {
            Optional<Row> global = cache.findTable("NB_Global").flatMap(t -> t.rows().stream().findFirst());
            Map<?, ?> marks = global.isPresent() && global.get().get("external_ids") instanceof Map<?, ?> m ? m : Map.of();
            Transaction.Builder tx = Transaction.builder(schema);
            List<String> names = new java.util.ArrayList<>();
            for (UUID uuid : candidates) {
                Optional<Row> g = cache.table("Load_Balancer_Group").get(uuid);
                if (g.isEmpty()) {
                    continue;
                }
                String name = Admission.nameOf(g.get());
                String mark = DesiredRow.GROUP_MARK_PREFIX + name;
                boolean empty = g.get().get("load_balancer") instanceof Set<?> s && s.isEmpty();
                if (!empty || !marks.containsKey(mark) || !desired.byTarget(new Attachment(dev.ovnj.lb.plan.Target.GROUP, name)).isEmpty()) {
                    continue;
                }
                names.add(name);
                tx.add(Operations.wait("Load_Balancer_Group").where(Condition.eq("_uuid", uuid)).columns("load_balancer")
                        .until(Wait.Until.EQ).row(Map.of("load_balancer", Set.of())).timeout(0));
                for (Row r : cache.table("Logical_Router").lookup(Admission.ROUTER_BY_GROUP, uuid)) {
                    tx.add(Operations.mutate("Logical_Router").where(Condition.eq("_uuid", r.uuid()))
                            .mutation(Mutation.delete("load_balancer_group", Set.of(uuid))));
                }
                for (Row r : cache.table("Logical_Switch").lookup(Admission.SWITCH_BY_GROUP, uuid)) {
                    tx.add(Operations.mutate("Logical_Switch").where(Condition.eq("_uuid", r.uuid()))
                            .mutation(Mutation.delete("load_balancer_group", Set.of(uuid))));
                }
                tx.add(Operations.delete("Load_Balancer_Group").where(Condition.eq("_uuid", uuid)));
                tx.add(Operations.mutate("NB_Global").mutation(Mutation.delete("external_ids", Set.of(mark))));
            }
            return names.isEmpty() ? Optional.empty() : Optional.of(Map.entry(tx.build(), names));
        });
    }
}
