package dev.ovnj.ovsdb.typed;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A row of a table as a typed value, implemented by the generated model types.
 */
public interface TypedRow {

    /**
     * Returns the row's {@code _uuid}: empty for a row not yet inserted, or present to ask the
     * server to insert the row under this UUID (an extension of ovsdb-server 2.13).
     *
     * @return the row UUID
     */
    Optional<UUID> uuid();

    /**
     * Returns the row's {@code _version}, which the server changes on every modification.
     *
     * @return the version, or empty for a row not read from the server
     */
    Optional<UUID> version();

    /**
     * Returns the descriptor of the row's table.
     *
     * @return the table model
     */
    TableModel<?> tableModel();

    /**
     * Returns every column except {@code _uuid} and {@code _version}, in the untyped
     * representation of {@link dev.ovnj.ovsdb.data.ValueCodec}.
     *
     * @return an immutable map from column name to untyped value, in schema order
     */
    Map<String, Object> toColumns();
}
