package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * An immutable row: its table schema plus one value per column in schema position order.
 *
 * <p>A replicated cache holds many rows, so a row keeps its values packed in one byte array
 * (strings as their bytes, without {@code String} objects; small sets and
 * maps inline) and decodes a column each time it is read: every read returns a fresh, equal value
 * (compare values with {@code equals}, not {@code ==}). Sets and maps of more than
 * {@value PackedColumns#INLINE_MAX} elements are kept as objects, so an {@code update2} diff of a
 * big set shares its structure. A complete row stores only the columns that differ from their
 * default (plus {@code _version} when sent); its {@code _uuid} is a field. A row is either complete
 * (every column present, e.g. from {@link #fromJson}) or partial (e.g. from a {@code select} that
 * listed columns, via {@link #fromPartialJson}); reading an absent column fails, and
 * {@link #has(String)} tells which columns are present. Values follow the representation of
 * {@link ValueCodec}.
 */
public final class Row {

    private final TableSchema table;
    // Null only in a partial row selected without _uuid.
    private final UUID uuid;
    // The packed values (PackedColumns): a byte[], or an Object[] of the byte[] and the big values.
    private final Object data;

    private Row(TableSchema table, UUID uuid, Object data) {
        this.table = table;
        this.uuid = uuid;
        this.data = data;
    }

    /** Builds a complete row from one value per column, storing only what differs from the defaults. */
    private static Row complete(TableSchema table, Object[] dense) {
        List<ColumnSchema> columns = table.columns();
        Object[] stored = new Object[dense.length];
        for (int i = 0; i < dense.length; i++) {
            if (dense[i] != null && (i <= TableSchema.VERSION_INDEX || !isDefault(columns.get(i).type(), dense[i]))) {
                stored[i] = dense[i];
            }
        }
        return new Row(table, (UUID) dense[TableSchema.UUID_INDEX], PackedColumns.pack(table, stored, false));
    }

    /** Builds a partial row carrying exactly the non-null values. */
    private static Row partial(TableSchema table, Object[] dense) {
        return new Row(table, (UUID) dense[TableSchema.UUID_INDEX], PackedColumns.pack(table, dense, true));
    }

    private static boolean isDefault(ColumnType type, Object value) {
        if (type.min() == 0 && !type.isScalar()) {
            return value instanceof Map<?, ?> m ? m.isEmpty() : value instanceof Set<?> set && set.isEmpty();
        }
        return value.equals(ValueCodec.defaultValue(type));
    }

    /** The value of column {@code i}, null when this row does not carry it. */
    private Object valueAt(int i) {
        if (i == TableSchema.UUID_INDEX) {
            return uuid;
        }
        if (PackedColumns.stored(data, i)) {
            return PackedColumns.value(table, data, i);
        }
        if (i == TableSchema.VERSION_INDEX || PackedColumns.partial(data)) {
            return null;
        }
        return ValueCodec.defaultValue(table.columns().get(i).type());
    }

    private boolean carries(int i) {
        if (i == TableSchema.UUID_INDEX) {
            return uuid != null;
        }
        return PackedColumns.stored(data, i) || (i != TableSchema.VERSION_INDEX && !PackedColumns.partial(data));
    }

    /** One slot per column (null for a column not carried); a fresh array. */
    private Object[] expand() {
        Object[] dense = new Object[table.columns().size()];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = valueAt(i);
        }
        return dense;
    }

    /** A row like this one (complete or partial) with other values. */
    private Row sameKind(Object[] dense) {
        return PackedColumns.partial(data) ? partial(table, dense) : complete(table, dense);
    }

    /**
     * Decodes a complete row, e.g. from an {@code initial} or {@code insert} update; absent columns
     * get their default value, except {@code _version}, which stays absent unless sent.
     *
     * @param table the table schema
     * @param uuid the row's UUID, the key under which the server sent it
     * @param json the {@code <row>} object
     * @return the row
     * @throws ValueTypeException naming {@code table.column} if a value does not fit its type
     * @throws IllegalArgumentException if the JSON names an unknown column or a different UUID
     */
    public static Row fromJson(TableSchema table, UUID uuid, ObjectNode json) {
        return fromJson(table, uuid, json, null);
    }

    /**
     * Decodes a complete row as {@link #fromJson(TableSchema, UUID, ObjectNode)} does, sharing
     * repeated values with other rows of a cache.
     *
     * @param table the table schema
     * @param uuid the row's UUID, the key under which the server sent it
     * @param json the {@code <row>} object
     * @param sharing the cache's sharing state for {@code table}, or null to share nothing
     * @return the row
     * @throws ValueTypeException naming {@code table.column} if a value does not fit its type
     * @throws IllegalArgumentException if the JSON names an unknown column or a different UUID
     */
    public static Row fromJson(TableSchema table, UUID uuid, ObjectNode json, Interner.Table sharing) {
        // Columns in the shapes the server sends are packed straight from the JSON; the others
        // (big sets and maps, kept as objects) are decoded to Java values first.
        PackedJson.Columns columns = PackedJson.read(table, json, false);
        Object[] values = columns.values;
        if (values[TableSchema.UUID_INDEX] != null && !uuid.equals(values[TableSchema.UUID_INDEX])) {
            throw new IllegalArgumentException(table.name() + " row " + uuid + " carries a different _uuid "
                    + values[TableSchema.UUID_INDEX]);
        }
        values[TableSchema.UUID_INDEX] = uuid;
        for (int i = TableSchema.VERSION_INDEX + 1; i < values.length; i++) {
            if (values[i] == null) {
                continue;
            }
            if (isDefault(table.columns().get(i).type(), values[i])) {
                values[i] = null;
            } else if (sharing != null) {
                values[i] = share(sharing, i, values[i]);
            }
        }
        return new Row(table, uuid, PackedColumns.pack(table, values, columns, false));
    }

    /**
     * Decodes a partial row, e.g. a {@code select} result restricted by {@code columns}: exactly
     * the columns in the JSON are present.
     *
     * @param table the table schema
     * @param json the {@code <row>} object
     * @return the row
     * @throws ValueTypeException naming {@code table.column} if a value does not fit its type
     * @throws IllegalArgumentException if the JSON names an unknown column
     */
    public static Row fromPartialJson(TableSchema table, ObjectNode json) {
        PackedJson.Columns columns = PackedJson.read(table, json, true);
        return new Row(table, (UUID) columns.values[TableSchema.UUID_INDEX],
                PackedColumns.pack(table, columns.values, columns, true));
    }

    /**
     * Shares the parts of a value that a row keeps as an object (a big set or map) with other rows;
     * packed values hold no objects to share.
     */
    private static Object share(Interner.Table sharing, int column, Object value) {
        if (value instanceof Map<?, ?> m ? m.size() > PackedColumns.INLINE_MAX
                : value instanceof Collection<?> c && c.size() > PackedColumns.INLINE_MAX) {
            return sharing.share(column, value);
        }
        return value;
    }

    /**
     * Builds a complete row from Java values; absent columns get their default value.
     *
     * @param table the table schema
     * @param uuid the row's UUID
     * @param columnValues values by column name
     * @return the row
     * @throws ValueConstraintException if a value breaks its column type
     * @throws IllegalArgumentException if a column does not exist or is {@code _uuid}
     */
    public static Row of(TableSchema table, UUID uuid, Map<String, Object> columnValues) {
        Object[] values = new Object[table.columns().size()];
        values[TableSchema.UUID_INDEX] = Objects.requireNonNull(uuid, "uuid");
        for (int i = TableSchema.VERSION_INDEX + 1; i < values.length; i++) {
            values[i] = ValueCodec.defaultValue(table.columns().get(i).type());
        }
        return complete(table, values).with(columnValues);
    }

    /**
     * Returns the schema of the row's table.
     *
     * @return the table schema
     */
    public TableSchema table() {
        return table;
    }

    /**
     * Returns the row's UUID.
     *
     * @return the {@code _uuid} value
     * @throws IllegalStateException if this partial row was selected without {@code _uuid}
     */
    public UUID uuid() {
        return get(TableSchema.UUID_INDEX);
    }

    /**
     * Returns the row's version, which the server changes on every modification.
     *
     * @return the {@code _version} value, or empty if the server did not send it
     */
    public Optional<UUID> version() {
        return Optional.ofNullable((UUID) valueAt(TableSchema.VERSION_INDEX));
    }

    /**
     * Tells whether the row carries a column.
     *
     * @param column the column name
     * @return true if the column is present
     * @throws IllegalArgumentException if the table has no such column
     */
    public boolean has(String column) {
        return carries(table.columnIndex(column));
    }

    /**
     * Returns the names of the columns this row carries, in position order.
     *
     * @return the present columns
     */
    public List<String> presentColumns() {
        List<String> present = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            if (carries(i)) {
                present.add(table.columns().get(i).name());
            }
        }
        return present;
    }

    /**
     * Returns a column value by name.
     *
     * @param column the column name
     * @return the value in the representation of {@link ValueCodec}
     * @throws IllegalArgumentException if the table has no such column
     * @throws IllegalStateException if this partial row does not carry the column
     */
    public Object get(String column) {
        return get(table.columnIndex(column));
    }

    /**
     * Returns a column value by position in {@link TableSchema#columns()}.
     *
     * @param index the column position
     * @param <T> the expected Java type of the value
     * @return the value
     * @throws IllegalStateException if this partial row does not carry the column
     */
    @SuppressWarnings("unchecked")
    public <T> T get(int index) {
        Object value = valueAt(index);
        if (value == null) {
            throw new IllegalStateException(table.name() + "." + table.columns().get(index).name()
                    + " is not present in this partial row");
        }
        return (T) value;
    }

    // In-place tests: the same answers as the equality tests written on get(index), read from the
    // packed bytes without decoding the column (no strings, set or map built), for code that tests
    // a column of many rows, such as an index checking its candidates.

    /**
     * Whether column {@code index} equals {@code value}: {@code value.equals(get(index))}, compared
     * without decoding the column where it can (strings, UUIDs, and sets and maps of them).
     *
     * @param index the column position
     * @param value a value in the representation of {@link ValueCodec}
     * @return true if equal; false if this partial row does not carry the column
     */
    public boolean columnEquals(int index, Object value) {
        Objects.requireNonNull(value, "value");
        if (index != TableSchema.UUID_INDEX && PackedColumns.stored(data, index)) {
            return PackedColumns.valueEquals(table, data, index, value);
        }
        return value.equals(valueAt(index));
    }

    /**
     * A quick test that column {@code index} is unchanged between two rows of one table: true
     * when both carry it packed alike (equal bytes, or the same kept set or map), which means the
     * values are equal; false means they may still be equal and must be compared with
     * {@code equals} (a map or set may be packed in another order). Compares no decoded values:
     * a cache update tests every indexed column this way.
     *
     * @param other a row of the same table
     * @param index the column position
     * @return true if certainly equal
     */
    public boolean packedAlike(Row other, int index) {
        if (other.table != table) {
            return false;
        }
        if (index == TableSchema.UUID_INDEX) {
            return Objects.equals(uuid, other.uuid);
        }
        return PackedColumns.packedAlike(table, data, other.data, index);
    }

    /**
     * Whether map column {@code index} maps {@code key} to {@code value}: the same as
     * {@code get(index) instanceof Map<?, ?> m && value.equals(m.get(key))}, compared without
     * decoding the map.
     *
     * @param index the column position
     * @param key the map key
     * @param value the value
     * @return true if the map has that entry; false for a column that is not a map or that this
     *     partial row does not carry
     */
    public boolean mapEntryEquals(int index, Object key, Object value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (!table.columns().get(index).type().isMap()) {
            return false;
        }
        if (PackedColumns.stored(data, index)) {
            return PackedColumns.mapHas(table, data, index, key, value);
        }
        return valueAt(index) instanceof Map<?, ?> m && value.equals(m.get(key));
    }

    /**
     * Whether column {@code index} holds {@code atom}: for a set column
     * {@code get(index).contains(atom)}, for any other column {@link #columnEquals}; compared
     * without decoding the column.
     *
     * @param index the column position
     * @param atom the element
     * @return true if held; false if this partial row does not carry the column
     */
    public boolean columnContains(int index, Object atom) {
        Objects.requireNonNull(atom, "atom");
        ColumnType type = table.columns().get(index).type();
        if (type.isMap() || index == TableSchema.UUID_INDEX) {
            return columnEquals(index, atom);
        }
        if (PackedColumns.stored(data, index)) {
            return PackedColumns.setHas(table, data, index, atom);
        }
        Object v = valueAt(index);
        return v instanceof Set<?> set ? set.contains(atom) : atom.equals(v);
    }

    /**
     * Returns a copy with some columns replaced.
     *
     * @param changes new values by column name
     * @return the changed row
     * @throws ValueConstraintException if a value breaks its column type
     * @throws IllegalArgumentException if a column does not exist or is {@code _uuid}
     */
    public Row with(Map<String, Object> changes) {
        Object[] changed = expand();
        for (Map.Entry<String, Object> change : changes.entrySet()) {
            int index = table.columnIndex(change.getKey());
            if (index == TableSchema.UUID_INDEX) {
                throw new IllegalArgumentException(table.name() + "._uuid cannot be changed");
            }
            ValueChecker.check(table.name(), change.getKey(), table.columns().get(index).type(), change.getValue());
            changed[index] = change.getValue();
        }
        return sameKind(changed);
    }

    /**
     * Applies the {@code modify} member of an {@code update2} notification (ovsdb-server(7)):
     * a scalar column takes the new value; elements of a set column toggle membership; a map key
     * absent from the row is added, present with the same value is removed, and present with
     * another value takes the new value.
     *
     * @param diff the {@code <row>} of a {@code modify} update
     * @return the modified row
     * @throws ValueTypeException naming {@code table.column} if a diff value does not fit its type
     * @throws IllegalStateException if the diff touches a column absent from this partial row
     */
    public Row applyDiff(ObjectNode diff) {
        return applyDiff(diff, null);
    }

    /**
     * Applies a {@code modify} as {@link #applyDiff(ObjectNode)} does, sharing repeated values of
     * the changed columns with other rows of a cache.
     *
     * @param diff the {@code <row>} of a {@code modify} update
     * @param sharing the cache's sharing state for this row's table, or null to share nothing
     * @return the modified row
     * @throws ValueTypeException naming {@code table.column} if a diff value does not fit its type
     * @throws IllegalStateException if the diff touches a column absent from this partial row
     */
    public Row applyDiff(ObjectNode diff, Interner.Table sharing) {
        // Only the columns in the diff are decoded and packed again; the others keep their bytes.
        Object[] changed = new Object[table.columns().size()];
        for (Iterator<Map.Entry<String, JsonNode>> it = diff.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            int index = table.columnIndex(field.getKey());
            ColumnType type = table.columns().get(index).type();
            if (type.isScalar()) {
                changed[index] = PackedJson.decode(table, index, type, field.getValue());
                continue;
            }
            // A difference may hold more elements than the column allows, e.g. old and new of an optional column.
            Object delta = PackedJson.decode(table, index, type.withBounds(0, ColumnType.UNLIMITED), field.getValue());
            Object current = get(index);
            if (type.max() == 1 && (delta instanceof Map<?, ?> m ? m.size() : ((Set<?>) delta).size()) <= 1) {
                // ovsdb-server sends the new value, not a difference, for a column of at most one
                // element (ovsdb_datum_diff clones 'new' unless the type is composite): toggling it
                // in would turn offline -> online into {offline, online}.
                changed[index] = delta;
                continue;
            }
            changed[index] = type.isMap() ? applyMapDiff((Map<?, ?>) current, (Map<?, ?>) delta)
                    : applySetDiff((Set<?>) current, (Set<?>) delta);
        }
        boolean complete = !PackedColumns.partial(data);
        for (int i = TableSchema.VERSION_INDEX + 1; i < changed.length; i++) {
            if (changed[i] == null) {
                continue;
            }
            if (complete && isDefault(table.columns().get(i).type(), changed[i])) {
                // A complete row does not store a column that went back to its default.
                changed[i] = PackedColumns.UNSTORED;
            } else if (sharing != null) {
                changed[i] = share(sharing, i, changed[i]);
            }
        }
        return new Row(table, uuid, PackedColumns.repack(table, data, changed));
    }

    /** Sets larger than this are kept as {@link PersistentSet}s, so diffs share structure. */
    private static final int PERSISTENT_SET_THRESHOLD = 32;

    private static Set<Object> applySetDiff(Set<?> current, Set<?> delta) {
        if (current.size() + delta.size() > PERSISTENT_SET_THRESHOLD) {
            // A big set column (a router's load_balancer) changes by a few elements per update:
            // toggling them in a persistent set costs O(k log n) instead of copying all n, and a
            // big delta copies each trie node it touches once.
            return PersistentSet.<Object>copyOf(current).toggled(delta);
        }
        // Small sets: one pass and one immutable copy. The two parts are disjoint and
        // duplicate-free, as Set.of requires.
        Object[] result = new Object[current.size() + delta.size()];
        int n = 0;
        for (Object element : current) {
            if (!delta.contains(element)) {
                result[n++] = element;
            }
        }
        for (Object element : delta) {
            if (!current.contains(element)) {
                result[n++] = element;
            }
        }
        return Set.of(Arrays.copyOf(result, n));
    }

    private static Map<Object, Object> applyMapDiff(Map<?, ?> current, Map<?, ?> delta) {
        Map<Object, Object> result = new HashMap<>(current);
        for (Map.Entry<?, ?> entry : delta.entrySet()) {
            Object old = result.get(entry.getKey());
            if (entry.getValue().equals(old)) {
                result.remove(entry.getKey());
            } else {
                result.put(entry.getKey(), entry.getValue());
            }
        }
        return SingleEntryMap.compact(Map.copyOf(result));
    }

    /**
     * Encodes the present columns as a {@code <row>} object, implicit columns included.
     *
     * @return the JSON row
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < table.columns().size(); i++) {
            Object value = valueAt(i);
            if (value != null) {
                ColumnSchema column = table.columns().get(i);
                json.set(column.name(), ValueCodec.toJson(column.type(), value));
            }
        }
        return json;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Row that) || !table.name().equals(that.table.name())) {
            return false;
        }
        int n = table.columns().size();
        if (n != that.table.columns().size() || !Objects.equals(uuid, that.uuid)) {
            return false;
        }
        if (data instanceof byte[] a && that.data instanceof byte[] b && Arrays.equals(a, b)) {
            // Equal bytes, equal values; unequal bytes may still be equal values (a set's order).
            return true;
        }
        for (int i = 0; i < n; i++) {
            if (!Objects.equals(valueAt(i), that.valueAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** As {@link Arrays#hashCode(Object[])} of one value per column (null where not carried), whatever the layout. */
    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < table.columns().size(); i++) {
            h = 31 * h + Objects.hashCode(valueAt(i));
        }
        return 31 * table.name().hashCode() + h;
    }

    @Override
    public String toString() {
        return table.name() + toJson();
    }
}
