package dev.ovnj.lb.internal;

import dev.ovnj.lb.plan.DesiredPolicy;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.Wait;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Turns a plan into as few transactions as its size allows. Each transaction first waits on the
 * owned rows it changes (their guarded columns must still hold what the plan read, or the
 * server fails it with "timed out" and the engine re-plans), then inserts new rows with
 * named-uuids and attaches them in the same transaction, mutates only the VIP keys that differ,
 * and deletes stale rows. Every write to a load balancer is also conditioned on its
 * {@code ovnj.owner}, so a row that changed hands meanwhile is never touched.
 */
public final class PlanTransactions {
    private PlanTransactions() {
    }

    /**
     * Builds the transactions for a plan.
     *
     * @param plan the plan
     * @param schema the server's NB schema
     * @param maxOps soft limit of operations per transaction (a new row and its attachments stay together)
     * @return transactions to send, independent of one another
     */
    public static List<Transaction> build(LoadBalancerPlan plan, DatabaseSchema schema, int maxOps) {
        List<Transaction> out = new ArrayList<>();
        Batch batch = new Batch(plan, schema);
        for (PlanChange change : plan.changes()) {
            // A spec's policies follow its load balancer changes and stay in their transaction:
            // a VIP is never written without the policies that restrict it, nor left without them.
            boolean startsUnit = !(change instanceof PlanChange.Attach || change instanceof PlanChange.Detach
                    || change instanceof PlanChange.MoveClaim
                    || change instanceof PlanChange.AttachGroup || change instanceof PlanChange.CreatePolicy
                    || change instanceof PlanChange.UpdatePolicy || change instanceof PlanChange.DeletePolicy);
            if (startsUnit && batch.size() >= maxOps) {
                out.add(batch.build());
                batch = new Batch(plan, schema);
            }
            batch.add(change);
        }
        if (batch.size() > 0) {
            out.add(batch.build());
        }
        return out;
    }

    /** The operations of one transaction being assembled. */
    private static final class Batch {
        private final LoadBalancerPlan plan;
        private final DatabaseSchema schema;
        private final Condition owned;
        private final List<Operation> waits = new ArrayList<>();
        private final List<Operation> inserts = new ArrayList<>();
        private final List<Operation> writes = new ArrayList<>();
        private final List<Operation> deletes = new ArrayList<>();
        private final Set<UUID> guarded = new LinkedHashSet<>();
        private final Map<String, NamedUuid> created = new HashMap<>();
        private final Map<Ref, Set<Object>> attach = new LinkedHashMap<>();
        private final Map<Ref, Set<Object>> detach = new LinkedHashMap<>();
        private int healthChecks;
        private int policies;

        /** A reference column of one target row. */
        private record Ref(String table, UUID uuid, String column) {
        }

        Batch(LoadBalancerPlan plan, DatabaseSchema schema) {
            this.plan = plan;
            this.schema = schema;
            this.owned = Condition.includes("external_ids", Map.of(DesiredRow.OWNER_KEY, plan.owner()));
        }

        int size() {
            return waits.size() + inserts.size() + writes.size() + deletes.size() + attach.size() + detach.size();
        }

        void add(PlanChange change) {
            if (change instanceof PlanChange.CreateGroup g) {
                inserts.add(Operations.insert("Load_Balancer_Group").value("name", g.name()));
                // Load_Balancer_Group has no external_ids: the mark that ovnj created it (and may
                // delete it once unused) lives in NB_Global, one key per group.
                if (schema.findTable("NB_Global").isPresent()) {
                    writes.add(Operations.mutate("NB_Global").mutation(Mutation.insert("external_ids",
                            Map.of(DesiredRow.GROUP_MARK_PREFIX + g.name(), "created"))));
                }
            } else if (change instanceof PlanChange.CreateRow c) {
                NamedUuid ref = new NamedUuid("lb" + created.size());
                created.put(c.row().rowName(), ref);
                DesiredRow d = c.row();
                // The row's columns in one map: Insert.value() copies the row per column.
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", d.rowName());
                row.put("vips", d.vips());
                row.put("protocol", Set.of(d.protocol().wireValue()));
                row.put("options", d.options());
                row.put("selection_fields", d.selectionFields());
                row.put("external_ids", d.externalIds());
                if (!d.healthChecks().isEmpty()) {
                    Set<Object> checks = new LinkedHashSet<>();
                    d.healthChecks().forEach((vip, options) -> checks.add(insertHealthCheck(vip, options, d.healthCheckIds())));
                    row.put("health_check", checks);
                }
                if (!d.ipPortMappings().isEmpty()) {
                    row.put("ip_port_mappings", d.ipPortMappings());
                }
                inserts.add(new Insert("Load_Balancer", row, Optional.of(ref.name()), Optional.empty()));
            } else if (change instanceof PlanChange.Adopt a) {
                // Not conditioned on the owner, as every other write is: the row is not ours yet.
                // The guard (its columns as the plan read them) keeps this from taking a row that
                // changed meanwhile; the owner-conditioned writes after it then find it ours.
                guard(a.uuid());
                writes.add(Operations.update("Load_Balancer").where(byUuid(a.uuid()))
                        .set("name", a.rowName()).set("external_ids", a.externalIds()));
            } else if (change instanceof PlanChange.Split sp) {
                // Not conditioned on the owner either: the shared row stays another tool's. The
                // guard keeps this from removing a VIP that tool changed meanwhile; the spec's new
                // row with these VIPs is inserted in this same transaction.
                guard(sp.uuid());
                writes.add(Operations.mutate("Load_Balancer").where(byUuid(sp.uuid()))
                        .mutation(Mutation.delete("vips", sp.keys())));
            } else if (change instanceof PlanChange.MoveClaim m) {
                // The former entry goes only if it still names the former owner; a map insert never
                // overwrites, so a claim someone changed meanwhile stays theirs.
                writes.add(Operations.mutate("Logical_Router_Port").where(byUuid(m.port()))
                        .mutation(Mutation.delete("external_ids", Map.of(m.key(), m.from())),
                                Mutation.insert("external_ids", Map.of(m.key(), m.to()))));
            } else if (change instanceof PlanChange.UpdateVips u) {
                guard(u.uuid());
                List<Mutation> m = new ArrayList<>();
                if (!u.deleteKeys().isEmpty()) {
                    m.add(Mutation.delete("vips", u.deleteKeys()));
                }
                if (!u.insert().isEmpty()) {
                    m.add(Mutation.insert("vips", u.insert()));
                }
                writes.add(Operations.mutate("Load_Balancer").where(byUuid(u.uuid()), owned).mutation(m.toArray(Mutation[]::new)));
            } else if (change instanceof PlanChange.SetColumns s) {
                guard(s.uuid());
                var update = Operations.update("Load_Balancer").where(byUuid(s.uuid()), owned);
                for (Map.Entry<String, Object> e : s.columns().entrySet()) {
                    update = update.set(e.getKey(), e.getValue());
                }
                writes.add(update);
            } else if (change instanceof PlanChange.Attach a) {
                refs(attach, a.target().table(), a.targetUuid(), "load_balancer")
                        .add(a.uuid() != null ? a.uuid() : created.get(a.rowName()));
            } else if (change instanceof PlanChange.Detach d) {
                refs(detach, d.target().table(), d.targetUuid(), "load_balancer").add(d.uuid());
            } else if (change instanceof PlanChange.AttachGroup g) {
                refs(attach, g.target().table(), g.targetUuid(), "load_balancer_group").add(g.groupUuid());
            } else if (change instanceof PlanChange.CreateHealthCheck h) {
                guard(h.uuid());
                NamedUuid ref = insertHealthCheck(h.vip(), h.options(), h.externalIds());
                writes.add(Operations.mutate("Load_Balancer").where(byUuid(h.uuid()), owned)
                        .mutation(Mutation.insert("health_check", Set.of(ref))));
            } else if (change instanceof PlanChange.UpdateHealthCheck h) {
                writes.add(Operations.update("Load_Balancer_Health_Check").where(byUuid(h.healthCheck()))
                        .set("options", h.options()).set("external_ids", h.externalIds()));
            } else if (change instanceof PlanChange.RemoveHealthCheck h) {
                guard(h.uuid());
                writes.add(Operations.mutate("Load_Balancer").where(byUuid(h.uuid()), owned)
                        .mutation(Mutation.delete("health_check", Set.of(h.healthCheck()))));
            } else if (change instanceof PlanChange.CreatePolicy p) {
                NamedUuid ref = new NamedUuid("policy" + policies++);
                DesiredPolicy d = p.policy();
                inserts.add(Operations.insert("Logical_Router_Policy").uuidName(ref.name()).value("priority", (long) d.priority())
                        .value("match", d.match()).value("action", d.action()).value("external_ids", d.externalIds()));
                refs(attach, "Logical_Router", p.routerUuid(), "policies").add(ref);
            } else if (change instanceof PlanChange.UpdatePolicy p) {
                DesiredPolicy d = p.policy();
                writes.add(Operations.update("Logical_Router_Policy").where(byUuid(p.uuid()), owned)
                        .set("priority", (long) d.priority()).set("match", d.match()).set("action", d.action())
                        .set("external_ids", d.externalIds()));
            } else if (change instanceof PlanChange.DeletePolicy p) {
                refs(detach, "Logical_Router", p.routerUuid(), "policies").add(p.uuid());
            } else if (change instanceof PlanChange.DeleteRow d) {
                deletes.add(Operations.delete("Load_Balancer").where(byUuid(d.uuid()), owned));
            }
        }

        /** Inserts a health check row under a fresh uuid-name; the caller references it in the same transaction. */
        private NamedUuid insertHealthCheck(String vip, Map<String, String> options, Map<String, String> ids) {
            NamedUuid ref = new NamedUuid("hc" + healthChecks++);
            inserts.add(Operations.insert("Load_Balancer_Health_Check").uuidName(ref.name())
                    .value("vip", vip).value("options", options).value("external_ids", ids));
            return ref;
        }

        private static Set<Object> refs(Map<Ref, Set<Object>> map, String table, UUID uuid, String column) {
            return map.computeIfAbsent(new Ref(table, uuid, column), k -> new LinkedHashSet<>());
        }

        private void guard(UUID uuid) {
            Map<String, Object> expected = plan.guards().get(uuid);
            if (expected != null && guarded.add(uuid)) {
                waits.add(Operations.wait("Load_Balancer").where(byUuid(uuid))
                        .columns(expected.keySet().toArray(String[]::new))
                        .until(Wait.Until.EQ).row(expected).timeout(0));
            }
        }

        Transaction build() {
            Transaction.Builder tx = Transaction.builder(schema);
            waits.forEach(tx::add);
            inserts.forEach(tx::add);
            writes.forEach(tx::add);
            attach.forEach((ref, values) -> tx.add(Operations.mutate(ref.table()).where(byUuid(ref.uuid()))
                    .mutation(Mutation.insert(ref.column(), values))));
            detach.forEach((ref, values) -> tx.add(Operations.mutate(ref.table()).where(byUuid(ref.uuid()))
                    .mutation(Mutation.delete(ref.column(), values))));
            deletes.forEach(tx::add);
            return tx.build();
        }

        private static Condition byUuid(UUID uuid) {
            return Condition.eq("_uuid", uuid);
        }
    }
}
