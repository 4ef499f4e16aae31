package dev.ovnj.testkit.inmemory.upstream.idl;

import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Insert;
import dev.ovnj.ovsdb.tx.Mutate;
import dev.ovnj.ovsdb.tx.Mutation;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.Update;
import dev.ovnj.ovsdb.tx.Wait;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The writes of one IDL transaction, as an OVS IDL user makes them on the rows it sees (set a
 * column, insert, delete, verify, increment, add or remove set elements and map keys), turned
 * into one ovnj {@link Transaction} the way the OVS IDL turns them into operations: a
 * {@code wait} per verified row first, then an insert, update or delete per row (an update only
 * of the columns whose value changes; deleting a row of a non-root table is left to the server's
 * garbage collection), a {@code mutate} for partial set and map changes, and for an increment a
 * {@code mutate} and a {@code select}. Nothing to change means status {@code unchanged}.
 */
final class IdlWrites {
    /** A row the transaction touches. */
    private static final class Pending {
        final String table;
        final UUID uuid;
        final boolean inserted;
        final boolean persistUuid;
        boolean deleted;
        final Map<String, Object> writes = new LinkedHashMap<>();
        final Set<String> verified = new LinkedHashSet<>();
        /** Per column: elements or keys to delete, then to insert, as the IDL sends them. */
        final Map<String, List<Mutation>> mutations = new LinkedHashMap<>();

        Pending(String table, UUID uuid, boolean inserted, boolean persistUuid) {
            this.table = table;
            this.uuid = uuid;
            this.inserted = inserted;
            this.persistUuid = persistUuid;
        }

        String uuidName() {
            return "row" + uuid.toString().replace('-', '_');
        }
    }

    private final DatabaseSchema schema;
    private final IdlView view;
    private final Map<UUID, Pending> rows = new LinkedHashMap<>();
    private Pending increment;
    private String incrementColumn;

    IdlWrites(DatabaseSchema schema, IdlView view) {
        this.schema = schema;
        this.view = view;
    }

    private Pending existing(String table, Row row) {
        return rows.computeIfAbsent(row.uuid(), u -> new Pending(table, u, false, false));
    }

    /** Inserts a new row; {@code chosen} is a UUID the server must give it (persist_uuid). */
    UUID insert(String table, Optional<UUID> chosen) {
        UUID uuid = chosen.orElseGet(UUID::randomUUID);
        rows.put(uuid, new Pending(table, uuid, true, chosen.isPresent()));
        return uuid;
    }

    /** Writes a whole column; partial changes to it made earlier in the transaction are dropped. */
    void set(String table, UUID row, String column, Object value) {
        Pending p = pending(table, row);
        p.mutations.remove(column);
        p.writes.put(column, value);
    }

    void delete(String table, Row row) {
        existing(table, row).deleted = true;
    }

    /** Verifying a row this transaction inserts, or a column it writes, checks nothing, as in the OVS IDL. */
    void verify(String table, Row row, String column) {
        Pending p = existing(table, row);
        if (!p.writes.containsKey(column)) {
            p.verified.add(column);
        }
    }

    /**
     * A row the transaction inserts whose column has this value: the OVS IDL lists the rows a
     * transaction inserts among the table's rows.
     */
    Optional<UUID> inserted(String table, String column, Object value) {
        return rows.values().stream().filter(p -> p.inserted && p.table.equals(table) && value.equals(p.writes.get(column)))
                .map(p -> p.uuid).findFirst();
    }

    void increment(String table, Row row, String column) {
        increment = existing(table, row);
        incrementColumn = column;
    }

    /** Adds a map entry (replacing the key's value) or set elements, as setkey/addvalue do. */
    void add(String table, UUID row, String column, Object keyOrElement, Object mapValue) {
        Pending p = pending(table, row);
        ColumnType type = schema.table(table).column(column).type();
        if (p.inserted) {
            p.writes.put(column, added(type, current(p, column), keyOrElement, mapValue));
            return;
        }
        List<Mutation> m = p.mutations.computeIfAbsent(column, c -> new ArrayList<>());
        if (type.isMap()) {
            m.add(Mutation.delete(column, Set.of(keyOrElement)));
            m.add(Mutation.insert(column, Map.of(keyOrElement, mapValue)));
        } else {
            m.add(Mutation.insert(column, Set.of(keyOrElement)));
        }
    }

    /** Removes a map key (only with that value, when one is given) or a set element: delkey/delvalue. */
    void remove(String table, UUID row, String column, Object keyOrElement, Object mapValue) {
        List<Mutation> m = pending(table, row).mutations.computeIfAbsent(column, c -> new ArrayList<>());
        m.add(Mutation.delete(column, mapValue == null ? Set.of(keyOrElement) : Map.of(keyOrElement, mapValue)));
    }

    private Object current(Pending p, String column) {
        if (p.writes.containsKey(column)) {
            return p.writes.get(column);
        }
        ColumnType type = schema.table(p.table).column(column).type();
        return type.isMap() ? Map.of() : Set.of();
    }

    private static Object added(ColumnType type, Object current, Object keyOrElement, Object mapValue) {
        if (type.isMap()) {
            Map<Object, Object> m = new LinkedHashMap<>((Map<?, ?>) current);
            m.put(keyOrElement, mapValue);
            return m;
        }
        Set<Object> s = new LinkedHashSet<>((Set<?>) current);
        s.add(keyOrElement);
        return s;
    }

    private Pending pending(String table, UUID row) {
        Pending p = rows.get(row);
        if (p != null) {
            return p;
        }
        Row r = view.get(table, row).orElseThrow(() -> new IllegalArgumentException("no " + table + " row " + row));
        return existing(table, r);
    }

    /** The operations, or empty when nothing would change (status {@code unchanged}). */
    Optional<Transaction> build() {
        List<Operation> ops = new ArrayList<>();
        for (Pending p : rows.values()) {
            if (p.verified.isEmpty() || p.inserted) {
                continue;
            }
            Row row = view.get(p.table, p.uuid).orElseThrow();
            Map<String, Object> values = new LinkedHashMap<>();
            p.verified.forEach(c -> values.put(c, row.get(c)));
            ops.add(Operations.wait(p.table).where(byUuid(p.uuid)).columns(p.verified.toArray(String[]::new))
                    .until(Wait.Until.EQ).row(values).timeout(0));
        }
        boolean anyUpdates = false;
        for (Pending p : rows.values()) {
            if (p.deleted) {
                if (schema.table(p.table).isRoot()) {
                    ops.add(Operations.delete(p.table).where(byUuid(p.uuid)));
                    anyUpdates = true;
                }
                continue;
            }
            if (p.inserted) {
                Insert insert = p.persistUuid ? Operations.insert(p.table).uuid(p.uuid)
                        : Operations.insert(p.table).uuidName(p.uuidName());
                for (Map.Entry<String, Object> w : p.writes.entrySet()) {
                    insert = insert.value(w.getKey(), references(w.getValue()));
                }
                ops.add(insert);
                anyUpdates = true;
            } else if (!p.writes.isEmpty()) {
                Row row = view.get(p.table, p.uuid).orElseThrow();
                Update update = Operations.update(p.table).where(byUuid(p.uuid));
                for (Map.Entry<String, Object> w : p.writes.entrySet()) {
                    update = update.set(w.getKey(), references(w.getValue()));
                    anyUpdates |= !Objects.equals(row.get(w.getKey()), w.getValue());
                }
                ops.add(update);
            }
            if (!p.mutations.isEmpty()) {
                Mutate mutate = Operations.mutate(p.table).where(byUuid(p.uuid));
                for (List<Mutation> m : p.mutations.values()) {
                    for (Mutation one : m) {
                        mutate = mutate.mutation(new Mutation(one.column(), one.mutator(), references(one.value())));
                    }
                }
                ops.add(mutate);
                anyUpdates = true;
            }
        }
        if (increment != null && anyUpdates) {
            ops.add(Operations.mutate(increment.table).where(byUuid(increment.uuid))
                    .mutation(Mutation.add(incrementColumn, 1L)));
            ops.add(Operations.select(increment.table).where(byUuid(increment.uuid)).columns(incrementColumn));
        }
        if (!anyUpdates) {
            return Optional.empty();
        }
        Transaction.Builder tx = Transaction.builder(schema);
        ops.forEach(tx::add);
        return Optional.of(tx.build());
    }

    /** The index of the increment's select in the built transaction, or -1. */
    int incrementSelectIndex(Transaction tx) {
        return increment == null ? -1 : tx.operations().size() - 1;
    }

    String incrementColumn() {
        return incrementColumn;
    }

    private static Condition byUuid(UUID uuid) {
        return Condition.eq("_uuid", uuid);
    }

    /** References to rows this transaction inserts under a uuid-name become that name. */
    private Object references(Object value) {
        Function<Object, Object> atom = a -> a instanceof UUID u && rows.containsKey(u) && rows.get(u).inserted
                && !rows.get(u).persistUuid ? new NamedUuid(rows.get(u).uuidName()) : a;
        if (value instanceof Set<?> s) {
            Set<Object> out = new LinkedHashSet<>();
            s.forEach(e -> out.add(atom.apply(e)));
            return out;
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(atom.apply(k), atom.apply(v)));
            return out;
        }
        return atom.apply(value);
    }
}
