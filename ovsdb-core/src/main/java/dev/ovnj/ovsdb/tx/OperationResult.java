package dev.ovnj.ovsdb.tx;

import dev.ovnj.ovsdb.data.Row;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** The result of one successful operation (RFC 7047 section 5.2). */
public sealed interface OperationResult
        permits OperationResult.Inserted, OperationResult.Selected, OperationResult.Counted, OperationResult.Done {

    /**
     * The result of an {@code insert}.
     *
     * @param uuid the UUID of the new row
     */
    record Inserted(UUID uuid) implements OperationResult {

        /**
         * Validates the UUID.
         *
         * @param uuid the UUID
         */
        public Inserted {
            Objects.requireNonNull(uuid, "uuid");
        }
    }

    /**
     * The result of a {@code select}. Each row is a partial {@link Row} carrying exactly the
     * columns the server returned: all of them unless the select listed {@code columns}, so
     * {@link Row#has(String)} tells which are present and {@link Row#uuid()} needs {@code _uuid}.
     *
     * @param rows the selected rows
     */
    record Selected(List<Row> rows) implements OperationResult {

        /**
         * Freezes the rows.
         *
         * @param rows the rows
         */
        public Selected {
            rows = List.copyOf(rows);
        }
    }

    /**
     * The result of an {@code update}, {@code mutate} or {@code delete}.
     *
     * @param count the number of rows matched
     */
    record Counted(long count) implements OperationResult {
    }

    /** The empty result of {@code wait}, {@code commit}, {@code comment} and {@code assert}. */
    record Done() implements OperationResult {
    }
}
