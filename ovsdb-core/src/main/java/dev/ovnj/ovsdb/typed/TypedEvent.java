package dev.ovnj.ovsdb.typed;

import java.util.Objects;
import java.util.UUID;

/**
 * A change to one cached row of a table, converted to the table's generated value type.
 *
 * @param <T> the value type
 */
public sealed interface TypedEvent<T extends TypedRow> {

    /**
     * Returns the UUID of the row concerned.
     *
     * @return the row's {@code _uuid}
     */
    UUID uuid();

    /**
     * A row appeared.
     *
     * @param row the new row
     * @param <T> the value type
     */
    record Inserted<T extends TypedRow>(T row) implements TypedEvent<T> {
        /**
         * Checks the row.
         *
         * @param row the new row
         */
        public Inserted {
            Objects.requireNonNull(row, "row");
        }

        @Override
        public UUID uuid() {
            return row.uuid().orElseThrow();
        }
    }

    /**
     * A row changed.
     *
     * @param oldRow the row before
     * @param newRow the row after
     * @param <T> the value type
     */
    record Updated<T extends TypedRow>(T oldRow, T newRow) implements TypedEvent<T> {
        /**
         * Checks the rows.
         *
         * @param oldRow the row before
         * @param newRow the row after
         */
        public Updated {
            Objects.requireNonNull(oldRow, "oldRow");
            Objects.requireNonNull(newRow, "newRow");
        }

        @Override
        public UUID uuid() {
            return newRow.uuid().orElseThrow();
        }
    }

    /**
     * A row disappeared.
     *
     * @param oldRow the row as it was
     * @param <T> the value type
     */
    record Deleted<T extends TypedRow>(T oldRow) implements TypedEvent<T> {
        /**
         * Checks the row.
         *
         * @param oldRow the row as it was
         */
        public Deleted {
            Objects.requireNonNull(oldRow, "oldRow");
        }

        @Override
        public UUID uuid() {
            return oldRow.uuid().orElseThrow();
        }
    }
}
