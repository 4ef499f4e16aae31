package dev.ovnj.ovsdb.codegen;

import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Writes the source of one table's value type: an interface that Immutables implements as
 * {@code Immutable<Type>}, with typed column constants, nested enums, row mapping and a table
 * descriptor.
 */
final class TableSource {

    private static final List<String> IMPORTS = List.of(
            "dev.ovnj.ovsdb.data.Row", "dev.ovnj.ovsdb.schema.ColumnType", "dev.ovnj.ovsdb.schema.TableSchema", "dev.ovnj.ovsdb.typed.AtomMapping",
            "dev.ovnj.ovsdb.typed.MapColumn", "dev.ovnj.ovsdb.typed.OptionalColumn",
            "dev.ovnj.ovsdb.typed.ScalarColumn", "dev.ovnj.ovsdb.typed.SetColumn",
            "dev.ovnj.ovsdb.typed.TableModel", "dev.ovnj.ovsdb.typed.TypedRow",
            "dev.ovnj.ovsdb.typed.WireEnum", "java.util.Collections", "java.util.LinkedHashMap",
            "java.util.Map", "java.util.Optional", "java.util.Set", "java.util.UUID",
            "javax.annotation.processing.Generated", "org.immutables.value.Value");

    private final TableSchema table;
    private final String database;
    private final String version;
    private final String packageName;
    private final String typeName;
    private final List<ColumnBinding> columns;
    private final SchemaDocs docs;

    /**
     * Prepares the source of a table.
     *
     * @param table the table schema
     * @param database the database name
     * @param version the schema version
     * @param packageName the target package
     * @param docs the {@code doc} members of the schema
     * @throws IllegalArgumentException if two columns map to the same Java name
     */
    TableSource(TableSchema table, String database, String version, String packageName, SchemaDocs docs) {
        this.table = table;
        this.database = database;
        this.version = version;
        this.packageName = packageName;
        this.typeName = JavaNames.typeName(table.name());
        this.docs = docs;
        List<ColumnBinding> bindings = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ColumnSchema column : table.columns()) {
            if (column.isImplicit()) {
                continue;
            }
            ColumnBinding binding = ColumnBinding.of(column, typeName);
            List<String> javaNames = new ArrayList<>(List.of(binding.accessor(), binding.constant()));
            binding.keyEnum().ifPresent(e -> javaNames.add(e.javaName()));
            binding.valueEnum().ifPresent(e -> javaNames.add(e.javaName()));
            for (String name : javaNames) {
                if (!names.add(name)) {
                    throw new IllegalArgumentException("column " + table.name() + "." + column.name()
                            + " maps to the Java name " + name + ", which another column already has");
                }
            }
            bindings.add(binding);
        }
        this.columns = List.copyOf(bindings);
    }

    /**
     * Returns the simple name of the generated type.
     *
     * @return e.g. {@code LoadBalancer}
     */
    String typeName() {
        return typeName;
    }

    /**
     * Renders the compilation unit.
     *
     * @return the Java source
     */
    String render() {
        SourceWriter out = new SourceWriter();
        typeDoc(out);
        out.line("@Generated(\"" + ModelGenerator.class.getName() + "\")");
        out.line("@Value.Immutable");
        out.open("public interface " + typeName + " extends TypedRow {");
        for (ColumnBinding column : columns) {
            out.blank();
            out.javadoc("The typed column " + JavaStrings.code(column.schema().name())
                    + " for conditions and mutations; see {@link #" + column.accessor() + "()}.");
            out.line(column.columnType() + " " + column.constant() + " = " + column.columnInitializer() + ";");
        }
        // After the columns: interface fields initialize in textual order, and TABLE lists them.
        out.blank();
        out.javadoc("The descriptor of the " + JavaStrings.code(table.name()) + " table.");
        StringBuilder descriptor = new StringBuilder("TableModel<" + typeName + "> TABLE = TableModel.of("
                + JavaStrings.literal(table.name()) + ", " + typeName + ".class, " + typeName + "::fromRow");
        for (ColumnBinding column : columns) {
            descriptor.append(", ").append(column.constant());
        }
        out.line(descriptor.append(");").toString());
        for (ColumnBinding column : columns) {
            accessor(out, column);
        }
        tableModel(out);
        checkConstraints(out);
        toColumns(out);
        builder(out);
        fromRow(out);
        for (ColumnBinding column : columns) {
            column.keyEnum().ifPresent(e -> enumType(out, e, column));
            column.valueEnum().ifPresent(e -> enumType(out, e, column));
        }
        out.close("}");
        String body = out.toString();
        return "package " + packageName + ";\n\n" + Imports.used(body, IMPORTS) + "\n" + body;
    }

    private void typeDoc(SourceWriter out) {
        List<String> lines = new ArrayList<>();
        lines.add("A row of the " + JavaStrings.code(table.name()) + " table of the " + JavaStrings.code(database)
                + " database, schema version " + JavaStrings.doc(version) + ".");
        docs.table(table.name()).ifPresent(text -> {
            lines.add("");
            lines.add("<p>" + JavaStrings.doc(text));
        });
        lines.add("");
        lines.add("<p>The meaning of each column is documented in " + JavaStrings.doc(ColumnDoc.manual(database)) + ".");
        lines.add("Build values with {@link #builder()}; sets and maps default to empty, optional columns to empty,");
        lines.add("and scalar columns whose schema admits 0, 0.0, false or \"\" to that value.");
        lines.add("Enum-constrained strings are nested enums, references are {@link UUID}s.");
        table.maxRows().ifPresent(max -> lines.add("The table holds at most " + max + " rows."));
        if (!table.indexes().isEmpty()) {
            lines.add("Unique indexes: " + String.join("; ", table.indexes().stream()
                    .map(index -> JavaStrings.code(String.join(", ", index))).toList()) + ".");
        }
        lines.add("");
        lines.add("<p>Generated from the schema; do not edit.");
        out.javadoc(lines);
    }

    private void accessor(SourceWriter out, ColumnBinding column) {
        out.blank();
        out.javadoc(ColumnDoc.accessor(column, table.name(), database, docs.column(table.name(), column.schema().name())));
        Optional<String> scalarDefault = column.scalarDefault();
        if (scalarDefault.isPresent()) {
            out.line("@Value.Default");
            out.open("default " + column.valueType() + " " + column.accessor() + "() {");
            out.line("return " + scalarDefault.get() + ";");
            out.close("}");
        } else {
            out.line(column.valueType() + " " + column.accessor() + "();");
        }
    }

    private void tableModel(SourceWriter out) {
        out.blank();
        out.javadoc("Returns the descriptor of the " + JavaStrings.code(table.name()) + " table.", "",
                "@return {@link #TABLE}");
        out.line("@Override");
        out.open("default TableModel<" + typeName + "> tableModel() {");
        out.line("return TABLE;");
        out.close("}");
    }

    private void checkConstraints(SourceWriter out) {
        out.blank();
        out.javadoc("Checks, when a row is built, that its values satisfy the schema's constraints (ranges, string",
                "lengths, enums, numbers of elements), so that a bad value fails at {@code build()} with a",
                "{@link dev.ovnj.ovsdb.data.ValueConstraintException} naming the table, the column, the value and the",
                "constraint, rather than when the row is added to a transaction. Not for a row that carries a",
                "{@code _uuid} or {@code _version} (one read from a server, or copied from one): a newer server's",
                "schema may admit more than this model's, and reading must never fail on a value the server",
                "accepted; such a row is checked when it is written, by the transaction.",
                "",
                "@see TableModel#checkConstraints(TypedRow)");
        out.line("@Value.Check");
        out.open("default void checkConstraints() {");
        out.open("if (uuid().isEmpty() && version().isEmpty()) {");
        out.line("TABLE.checkConstraints(this);");
        out.close("}");
        out.close("}");
    }

    private void toColumns(SourceWriter out) {
        out.blank();
        out.javadoc("Returns every column except {@code _uuid} and {@code _version} in the untyped representation:",
                "integers as {@link Long}, enums as their wire strings, optional columns as sets of at most one atom.",
                "",
                "@return an immutable map from column name to untyped value, in schema order");
        out.line("@Override");
        out.open("default Map<String, Object> toColumns() {");
        out.line("Map<String, Object> columns = new LinkedHashMap<>();");
        for (ColumnBinding column : columns) {
            out.line("columns.put(" + column.constant() + ".name(), " + column.constant() + ".toUntyped("
                    + column.accessor() + "()));");
        }
        out.line("return Collections.unmodifiableMap(columns);");
        out.close("}");
    }

    private void builder(SourceWriter out) {
        out.blank();
        out.javadoc("Starts building a " + JavaStrings.code(table.name()) + " row.", "",
                "@return a new builder");
        out.open("static Immutable" + typeName + ".Builder builder() {");
        out.line("return Immutable" + typeName + ".builder();");
        out.close("}");
    }

    private void fromRow(SourceWriter out) {
        out.blank();
        out.javadoc("Converts an untyped row of the " + JavaStrings.code(table.name()) + " table. Columns the row",
                "lacks, as in a select of some columns, take their defaults.",
                "",
                "@param row the row",
                "@return the typed row",
                "@throws IllegalStateException if the row lacks a column the builder requires");
        out.open("static " + typeName + " fromRow(Row row) {");
        out.line("Immutable" + typeName + ".Builder builder = builder().version(row.version());");
        out.open("if (row.has(TableSchema.UUID_COLUMN)) {");
        out.line("builder.uuid(row.uuid());");
        out.close("}");
        for (ColumnBinding column : columns) {
            out.line(column.constant() + ".read(row).ifPresent(builder::" + column.accessor() + ");");
        }
        out.line("return builder.build();");
        out.close("}");
    }

    private void enumType(SourceWriter out, EnumModel model, ColumnBinding column) {
        out.blank();
        out.javadoc("The values of " + JavaStrings.code(column.schema().name()) + " that the schema allows.");
        out.open("enum " + model.javaName() + " implements WireEnum {");
        List<Map.Entry<String, String>> constants = List.copyOf(model.constants().entrySet());
        for (int i = 0; i < constants.size(); i++) {
            Map.Entry<String, String> constant = constants.get(i);
            out.javadoc("The wire value " + JavaStrings.code(JavaStrings.literal(constant.getValue())) + ".");
            out.line(constant.getKey() + "(" + JavaStrings.literal(constant.getValue()) + ")"
                    + (i == constants.size() - 1 ? ";" : ","));
        }
        out.blank();
        out.line("private final String wireValue;");
        out.blank();
        out.open(model.javaName() + "(String wireValue) {");
        out.line("this.wireValue = wireValue;");
        out.close("}");
        out.blank();
        out.javadoc("Returns the string the database stores for this value.", "", "@return the wire string");
        out.line("@Override");
        out.open("public String wireValue() {");
        out.line("return wireValue;");
        out.close("}");
        out.close("}");
    }
}
