package dev.ovnj.ovsdb.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One table of a database schema (RFC 7047 section 3.2 {@code <table-schema>}).
 *
 * <p>{@link #columns()} starts with the implicit {@code _uuid} and {@code _version} columns,
 * followed by the declared columns in schema order; that order is the position order used by
 * {@link #columnIndex(String)} and by rows of this table.
 */
public final class TableSchema {

    /** Name of the implicit column holding the row's UUID. */
    public static final String UUID_COLUMN = "_uuid";
    /** Name of the implicit column holding a UUID that changes whenever the row changes. */
    public static final String VERSION_COLUMN = "_version";
    /** Position of {@value #UUID_COLUMN} in {@link #columns()}. */
    public static final int UUID_INDEX = 0;
    /** Position of {@value #VERSION_COLUMN} in {@link #columns()}. */
    public static final int VERSION_INDEX = 1;

    private final String name;
    private final List<ColumnSchema> columns;
    private final Map<String, Integer> positions;
    private final OptionalLong maxRows;
    private final boolean isRoot;
    private final List<List<String>> indexes;

    /**
     * Creates a table schema, adding the implicit columns in front of the declared ones.
     *
     * @param name the table name
     * @param declaredColumns the columns of the schema file, in order, without implicit columns
     * @param maxRows the maximum number of rows, if limited
     * @param isRoot the table's {@code isRoot} flag as written in the schema
     * @param indexes the sets of columns whose values must be unique across rows
     * @throws IllegalArgumentException if a column name repeats or an index names an unknown column
     */
    public TableSchema(String name, List<ColumnSchema> declaredColumns, OptionalLong maxRows, boolean isRoot,
            List<List<String>> indexes) {
        this.name = Objects.requireNonNull(name, "name");
        List<ColumnSchema> all = new ArrayList<>(declaredColumns.size() + 2);
        ColumnType uuid = ColumnType.scalar(AtomicType.UUID);
        all.add(new ColumnSchema(UUID_COLUMN, uuid, false, false));
        all.add(new ColumnSchema(VERSION_COLUMN, uuid, false, false));
        all.addAll(declaredColumns);
        this.columns = List.copyOf(all);
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            if (byName.put(columns.get(i).name(), i) != null) {
                throw new IllegalArgumentException("table " + name + " declares column " + columns.get(i).name()
                        + " twice");
            }
        }
        this.positions = Map.copyOf(byName);
        this.maxRows = Objects.requireNonNull(maxRows, "maxRows");
        this.isRoot = isRoot;
        this.indexes = indexes.stream().map(List::copyOf).toList();
        for (List<String> index : this.indexes) {
            index.forEach(this::columnIndex);
        }
    }

    /**
     * Returns the table name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns all columns, implicit ones first, in position order.
     *
     * @return an immutable list of columns
     */
    public List<ColumnSchema> columns() {
        return columns;
    }

    /**
     * Returns the maximum number of rows, if the schema limits it.
     *
     * @return the {@code maxRows} member
     */
    public OptionalLong maxRows() {
        return maxRows;
    }

    /**
     * Returns the {@code isRoot} flag as written in the schema; see
     * {@link DatabaseSchema#isRootTable(String)} for the effective root status.
     *
     * @return true if the schema marks this table as root
     */
    public boolean isRoot() {
        return isRoot;
    }

    /**
     * Returns the indexes: each a list of column names whose combined values are unique.
     *
     * @return an immutable list of indexes
     */
    public List<List<String>> indexes() {
        return indexes;
    }

    /**
     * Returns the position of a column in {@link #columns()} in constant time.
     *
     * @param column the column name
     * @return the position
     * @throws IllegalArgumentException naming the table and column if the column does not exist
     */
    public int columnIndex(String column) {
        Integer position = positions.get(column);
        if (position == null) {
            throw noSuchColumn(column);
        }
        return position;
    }

    /**
     * Returns a column by name.
     *
     * @param column the column name
     * @return the column schema
     * @throws IllegalArgumentException naming the table and column if the column does not exist
     */
    public ColumnSchema column(String column) {
        return columns.get(columnIndex(column));
    }

    /**
     * Looks a column up without failing.
     *
     * @param column the column name
     * @return the column schema, or empty if the table has no such column
     */
    public Optional<ColumnSchema> findColumn(String column) {
        Integer position = positions.get(column);
        return position == null ? Optional.empty() : Optional.of(columns.get(position));
    }

    private IllegalArgumentException noSuchColumn(String column) {
        return new IllegalArgumentException("table " + name + " has no column \"" + column + "\"");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TableSchema that
                && name.equals(that.name)
                && columns.equals(that.columns)
                && maxRows.equals(that.maxRows)
                && isRoot == that.isRoot
                && indexes.equals(that.indexes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, columns, maxRows, isRoot, indexes);
    }

    @Override
    public String toString() {
        return "TableSchema[" + name + ", " + columns.size() + " columns]";
    }
}
