package dev.ovnj.ovsdb.tx;

import dev.ovnj.ovsdb.data.Row;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The decoded results of a successful transaction, one per operation, plus the resolved uuid-names. */
public final class TransactionResult {

    private final List<OperationResult> results;
    private final Map<String, UUID> namedUuids;

    /**
     * Creates the result.
     *
     * @param results one result per operation, in order
     * @param namedUuids the UUIDs of inserted rows by uuid-name
     */
    public TransactionResult(List<OperationResult> results, Map<String, UUID> namedUuids) {
        this.results = List.copyOf(results);
        this.namedUuids = Collections.unmodifiableMap(new LinkedHashMap<>(namedUuids));
    }

    /**
     * Returns the results in operation order.
     *
     * @return one result per operation
     */
    public List<OperationResult> results() {
        return results;
    }

    /**
     * Returns the result of one operation.
     *
     * @param index the operation position
     * @return its result
     */
    public OperationResult get(int index) {
        return results.get(index);
    }

    /**
     * Returns the UUIDs the server gave to rows inserted with a uuid-name.
     *
     * @return UUIDs by uuid-name, in operation order
     */
    public Map<String, UUID> namedUuids() {
        return namedUuids;
    }

    /**
     * Returns the UUID of the row inserted under a uuid-name.
     *
     * @param uuidName the uuid-name of an insert of this transaction
     * @return the new row's UUID
     * @throws IllegalArgumentException if no insert used that name
     */
    public UUID uuidOf(String uuidName) {
        UUID uuid = namedUuids.get(uuidName);
        if (uuid == null) {
            throw new IllegalArgumentException("no insert of this transaction has uuid-name \"" + uuidName
                    + "\"; known names: " + namedUuids.keySet());
        }
        return uuid;
    }

    /**
     * Returns the UUID of the row inserted by an operation.
     *
     * @param index the position of an insert
     * @return the new row's UUID
     * @throws IllegalArgumentException if the operation is not an insert
     */
    public UUID insertedUuid(int index) {
        return as(index, OperationResult.Inserted.class).uuid();
    }

    /**
     * Returns the rows found by a select.
     *
     * @param index the position of a select
     * @return the selected rows
     * @throws IllegalArgumentException if the operation is not a select
     */
    public List<Row> rows(int index) {
        return as(index, OperationResult.Selected.class).rows();
    }

    /**
     * Returns the number of rows an update, mutate or delete matched.
     *
     * @param index the position of the operation
     * @return the count
     * @throws IllegalArgumentException if the operation has no count
     */
    public long count(int index) {
        return as(index, OperationResult.Counted.class).count();
    }

    private <T extends OperationResult> T as(int index, Class<T> kind) {
        OperationResult result = results.get(index);
        if (!kind.isInstance(result)) {
            throw new IllegalArgumentException("operation " + index + " yielded " + result + ", not "
                    + kind.getSimpleName());
        }
        return kind.cast(result);
    }

    @Override
    public String toString() {
        return "TransactionResult" + results;
    }
}
