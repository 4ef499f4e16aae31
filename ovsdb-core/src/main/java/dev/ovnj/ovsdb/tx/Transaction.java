package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.data.NamedUuid;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.RefType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * An immutable list of operations on one database: the {@code params} of a {@code transact}
 * request (RFC 7047 section 4.1.3) and the decoder of its result.
 *
 * <p>Every operation is checked and encoded when it is added, so a transaction that builds
 * successfully only fails on the server for reasons the client cannot know: concurrent changes,
 * references, indexes and row limits.
 */
public final class Transaction {

    private final DatabaseSchema schema;
    private final List<Operation> operations;
    private final List<ObjectNode> encoded;

    private Transaction(DatabaseSchema schema, List<Operation> operations, List<ObjectNode> encoded) {
        this.schema = schema;
        this.operations = List.copyOf(operations);
        this.encoded = List.copyOf(encoded);
    }

    /**
     * Starts a transaction on a database.
     *
     * @param schema the database schema
     * @return an empty builder
     */
    public static Builder builder(DatabaseSchema schema) {
        return new Builder(Objects.requireNonNull(schema, "schema"));
    }

    /**
     * Returns the schema of the database the transaction applies to.
     *
     * @return the schema
     */
    public DatabaseSchema schema() {
        return schema;
    }

    /**
     * Returns the operations in order.
     *
     * @return the operations
     */
    public List<Operation> operations() {
        return operations;
    }

    /**
     * Returns the {@code params} of the {@code transact} request.
     *
     * @return a fresh {@code [database, operation...]} array the caller may modify
     */
    public ArrayNode toParams() {
        return sharedParams().deepCopy();
    }

    /**
     * Returns the {@code params} of the {@code transact} request without copying the operations,
     * as the client sends them: the array is fresh, but the operation objects in it are this
     * transaction's own and must not be modified (use {@link #toParams()} for a copy to change).
     * Copying them cost a bulk writer more allocation than encoding them.
     *
     * @return {@code [database, operation...]} sharing the operations' JSON with this transaction
     */
    public ArrayNode sharedParams() {
        ArrayNode params = JsonNodeFactory.instance.arrayNode(encoded.size() + 1).add(schema.name());
        params.addAll(encoded);
        return params;
    }

    /**
     * Decodes the {@code result} of the {@code transact} response.
     *
     * <p>The first operation error found, or the extra trailing error element that reports a failed
     * commit, is thrown. Elements after a failed operation are ignored, whether null or absent.
     *
     * @param result the result array
     * @return one result per operation and the UUIDs of named inserts
     * @throws TransactionException if the server rejected the transaction (the subclass matching
     *     the error string)
     * @throws IllegalArgumentException if the result does not have the shape RFC 7047 prescribes
     */
    public TransactionResult decode(ArrayNode result) {
        int size = operations.size();
        List<OperationResult> results = new ArrayList<>(size);
        Map<String, UUID> named = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(size, result.size()); i++) {
            JsonNode element = result.get(i);
            throwIfError(i, operations.get(i), element);
            results.add(decodeOne(i, operations.get(i), element, named));
        }
        if (result.size() > size) {
            throwIfError(-1, null, result.get(size));
        }
        if (result.size() != size) {
            throw new IllegalArgumentException("transact result has " + result.size() + " elements for " + size
                    + " operations and no error: " + result);
        }
        return new TransactionResult(results, named);
    }

    private static void throwIfError(int index, Operation operation, JsonNode element) {
        JsonNode error = element.get("error");
        if (error != null && !error.isNull()) {
            JsonNode details = element.get("details");
            throw TransactionException.of(index, operation, error.asText(),
                    details == null || details.isNull() ? null : details.asText());
        }
    }

    private OperationResult decodeOne(int index, Operation operation, JsonNode element, Map<String, UUID> named) {
        if (!element.isObject()) {
            throw malformed(index, operation, element);
        }
        if (operation instanceof Insert insert) {
            JsonNode uuidJson = element.get("uuid");
            Object uuid = uuidJson == null ? null : AtomicType.UUID.decode(uuidJson).orElse(null);
            if (!(uuid instanceof UUID inserted)) {
                throw malformed(index, operation, element);
            }
            insert.uuidName().ifPresent(name -> named.put(name, inserted));
            return new OperationResult.Inserted(inserted);
        }
        if (operation instanceof Select select) {
            JsonNode rows = element.get("rows");
            if (rows == null || !rows.isArray()) {
                throw malformed(index, operation, element);
            }
            TableSchema table = schema.table(select.table());
            List<Row> decoded = new ArrayList<>(rows.size());
            for (JsonNode row : rows) {
                if (!row.isObject()) {
                    throw malformed(index, operation, element);
                }
                decoded.add(Row.fromPartialJson(table, (ObjectNode) row));
            }
            return new OperationResult.Selected(decoded);
        }
        if (operation instanceof Update || operation instanceof Mutate || operation instanceof Delete) {
            JsonNode count = element.get("count");
            if (count == null || !count.isIntegralNumber()) {
                throw malformed(index, operation, element);
            }
            return new OperationResult.Counted(count.longValue());
        }
        return new OperationResult.Done();
    }

    private static IllegalArgumentException malformed(int index, Operation operation, JsonNode element) {
        return new IllegalArgumentException("operation " + index + " (" + operation.summary()
                + ") has a malformed result: " + element);
    }

    @Override
    public String toString() {
        return "Transaction" + toParams();
    }

    /** Collects operations, checking each against the schema as it is added. */
    public static final class Builder {

        private final DatabaseSchema schema;
        private final List<Operation> operations = new ArrayList<>();
        private final List<ObjectNode> encoded = new ArrayList<>();
        private final Set<String> uuidNames = new HashSet<>();
        private boolean unreferencedInsertsAllowed;

        private Builder(DatabaseSchema schema) {
            this.schema = schema;
        }

        /**
         * Appends an operation after checking its table, columns, values and uuid-name.
         *
         * @param operation the operation
         * @return this builder
         * @throws IllegalArgumentException naming the problem, e.g. an unknown column, a write to
         *     {@code _uuid}, or a uuid-name already used in this transaction
         * @throws dev.ovnj.ovsdb.data.ValueConstraintException naming {@code table.column} if a
         *     value breaks its column type
         */
        public Builder add(Operation operation) {
            ObjectNode json = operation.toJson(schema);
            if (operation instanceof Insert insert && insert.uuidName().isPresent()
                    && !uuidNames.add(insert.uuidName().get())) {
                throw new IllegalArgumentException("operation " + operations.size() + " (" + operation.summary()
                        + "): duplicate uuid-name \"" + insert.uuidName().get() + "\" in this transaction");
            }
            operations.add(operation);
            encoded.add(json);
            return this;
        }

        /**
         * Appends several operations.
         *
         * @param more the operations
         * @return this builder
         */
        public Builder add(Operation... more) {
            for (Operation operation : more) {
                add(operation);
            }
            return this;
        }

        /**
         * Lets {@link #build()} accept an insert into a non-root table that no operation refers to,
         * which it refuses otherwise. ovsdb-server deletes such a row at commit and still returns its
         * UUID; {@code ovn-nbctl create} and {@code ovsdb-client transact} send it all the same, so a
         * tool that must leave exactly what they leave (ovnj's {@code nbctl}) asks for this. Nobody
         * else wants it.
         *
         * @return this builder
         */
        public Builder allowUnreferencedInserts() {
            unreferencedInsertsAllowed = true;
            return this;
        }

        /**
         * Builds the transaction after checking that every named-uuid refers to a uuid-name of an
         * insert in the transaction.
         *
         * @return the transaction
         * @throws IllegalArgumentException naming the operation and the undeclared uuid-name
         */
        public Transaction build() {
            // One set and one list for all operations: an engine's transaction has thousands.
            Set<String> referenced = new TreeSet<>();
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < operations.size(); i++) {
                referenced.clear();
                values.clear();
                uuidValuesOf(operations.get(i), values);
                for (Object value : values) {
                    collectNamedUuids(value, referenced);
                }
                if (!referenced.isEmpty()) {
                    referenced.removeAll(uuidNames);
                }
                if (!referenced.isEmpty()) {
                    throw new IllegalArgumentException("operation " + i + " (" + operations.get(i).summary()
                            + ") refers to uuid-name " + referenced + " that no insert of this transaction declares");
                }
            }
            if (!unreferencedInsertsAllowed) {
                refuseUnreferencedInserts();
            }
            return new Transaction(schema, operations, encoded);
        }

        /**
         * Refuses an insert into a non-root table that no operation of the transaction refers to.
         * ovsdb-server deletes such a row when the transaction commits (RFC 7047 section 3.1,
         * {@code isRoot}: a row of a non-root table lives only while a strong reference holds it),
         * yet the transaction succeeds and returns the row's UUID: the caller would believe in a
         * row that never existed. Refused rather than warned: no caller wants that outcome, and
         * the fix (the referring insert, update or mutate in the same transaction) is known here.
         * A reference counts in any insert, update or mutate value, the conservative reading.
         */
        private void refuseUnreferencedInserts() {
            List<Integer> candidates = new ArrayList<>();
            for (int i = 0; i < operations.size(); i++) {
                if (operations.get(i) instanceof Insert insert && !schema.isRootTable(insert.table())) {
                    candidates.add(i);
                }
            }
            if (candidates.isEmpty()) {
                return;
            }
            Set<Object> references = new HashSet<>();
            for (Operation operation : operations) {
                List<Object> values = new ArrayList<>();
                if (operation instanceof Insert insert) {
                    addUuidValues(insert.table(), insert.row(), values);
                } else if (operation instanceof Update update) {
                    addUuidValues(update.table(), update.row(), values);
                } else if (operation instanceof Mutate mutate) {
                    for (Mutation mutation : mutate.mutations()) {
                        if (holdsUuids(mutate.table(), mutation.column())) {
                            values.add(mutation.value());
                        }
                    }
                }
                for (Object value : values) {
                    collectReferences(value, references);
                }
            }
            for (int i : candidates) {
                Insert insert = (Insert) operations.get(i);
                boolean referenced = insert.uuidName().map(name -> references.contains(new NamedUuid(name))).orElse(false)
                        || insert.uuid().map(references::contains).orElse(false);
                if (!referenced) {
                    throw new IllegalArgumentException("operation " + i + " (" + insert.summary() + ") inserts into "
                            + insert.table() + ", which is not a root table, a row that no operation of this transaction"
                            + " refers to: ovsdb-server would delete it when the transaction commits (RFC 7047 isRoot)"
                            + " and still return its UUID. Give the insert a uuid-name and refer to it in the same"
                            + " transaction from " + referrers(insert.table()));
                }
            }
        }

        /** The columns whose strong references keep rows of {@code table}, for the message. */
        private String referrers(String table) {
            List<String> columns = new ArrayList<>();
            for (TableSchema t : schema.tables().values()) {
                for (ColumnSchema column : t.columns()) {
                    ColumnType type = column.type();
                    if (strongTo(type.key(), table) || type.value().map(v -> strongTo(v, table)).orElse(false)) {
                        columns.add(t.name() + "." + column.name());
                    }
                }
            }
            return columns.isEmpty() ? "a column that references it" : "a column that references it: "
                    + String.join(", ", new TreeSet<>(columns));
        }

        private static boolean strongTo(BaseType base, String table) {
            return base.refTable().filter(table::equals).isPresent() && base.refType() == RefType.STRONG;
        }

        private static void collectReferences(Object value, Set<Object> references) {
            if (value instanceof Collection<?> elements) {
                references.addAll(elements);
            } else if (value instanceof Map<?, ?> map) {
                references.addAll(map.keySet());
                references.addAll(map.values());
            } else {
                references.add(value);
            }
        }

        /**
         * The values of an operation that may hold a named-uuid: those of columns whose keys or
         * values are UUIDs. {@link #add} has checked every value against its column, so a string
         * map holds no {@link NamedUuid}, and walking it (a load balancer's VIPs and IDs, a guard
         * holding a cached row's columns, each decoded on the way) found nothing at a cost.
         */
        private void uuidValuesOf(Operation operation, List<Object> values) {
            List<Condition> where = List.of();
            String table = null;
            if (operation instanceof Insert insert) {
                table = insert.table();
                addUuidValues(table, insert.row(), values);
            } else if (operation instanceof Update update) {
                table = update.table();
                addUuidValues(table, update.row(), values);
                where = update.where();
            } else if (operation instanceof Mutate mutate) {
                table = mutate.table();
                for (Mutation mutation : mutate.mutations()) {
                    if (holdsUuids(table, mutation.column())) {
                        values.add(mutation.value());
                    }
                }
                where = mutate.where();
            } else if (operation instanceof Wait wait) {
                table = wait.table();
                for (Map<String, Object> row : wait.rows()) {
                    addUuidValues(table, row, values);
                }
                where = wait.where();
            } else if (operation instanceof Select select) {
                table = select.table();
                where = select.where();
            } else if (operation instanceof Delete delete) {
                table = delete.table();
                where = delete.where();
            }
            for (Condition condition : where) {
                if (condition instanceof Condition.Comparison comparison && holdsUuids(table, comparison.column())) {
                    values.add(comparison.value());
                }
            }
        }

        private void addUuidValues(String table, Map<String, Object> row, List<Object> values) {
            for (Map.Entry<String, Object> entry : row.entrySet()) {
                if (holdsUuids(table, entry.getKey())) {
                    values.add(entry.getValue());
                }
            }
        }

        private boolean holdsUuids(String table, String column) {
            ColumnType type = schema.table(table).column(column).type();
            return type.key().type() == AtomicType.UUID
                    || type.value().map(v -> v.type() == AtomicType.UUID).orElse(false);
        }

        // Values are atoms, sets of atoms or maps of atoms: one level of collection at most, walked
        // with plain loops (a recursive walk through lambdas was among the costliest methods for
        // the JIT to compile in a bulk run).
        private static void collectNamedUuids(Object value, Set<String> names) {
            if (value instanceof Collection<?> elements) {
                for (Object element : elements) {
                    addIfNamed(element, names);
                }
            } else if (value instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    addIfNamed(entry.getKey(), names);
                    addIfNamed(entry.getValue(), names);
                }
            } else {
                addIfNamed(value, names);
            }
        }

        private static void addIfNamed(Object atom, Set<String> names) {
            if (atom instanceof NamedUuid named) {
                names.add(named.name());
            }
        }
    }
}
