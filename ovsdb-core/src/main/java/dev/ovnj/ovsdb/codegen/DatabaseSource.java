package dev.ovnj.ovsdb.codegen;

import java.util.List;

/**
 * Writes the source of the database model class, e.g. {@code OvnNorthboundModel}, which lists
 * the descriptor of every generated table type.
 */
final class DatabaseSource {

    private static final List<String> IMPORTS = List.of(
            "dev.ovnj.ovsdb.typed.DatabaseModel", "java.util.List", "javax.annotation.processing.Generated");

    private final String database;
    private final String version;
    private final String packageName;
    private final List<String> tableTypes;

    /**
     * Prepares the source.
     *
     * @param database the database name
     * @param version the schema version
     * @param packageName the target package
     * @param tableTypes the simple names of the generated table types, in schema order
     */
    DatabaseSource(String database, String version, String packageName, List<String> tableTypes) {
        this.database = database;
        this.version = version;
        this.packageName = packageName;
        this.tableTypes = List.copyOf(tableTypes);
    }

    /**
     * Returns the simple name of the generated class.
     *
     * @return the database's Java name plus {@code Model}
     */
    String typeName() {
        return JavaNames.typeName(database) + "Model";
    }

    /**
     * Renders the compilation unit.
     *
     * @return the Java source
     */
    String render() {
        SourceWriter out = new SourceWriter();
        out.javadoc("The typed model of the " + JavaStrings.code(database) + " database, schema version "
                + JavaStrings.doc(version) + ".", "", "<p>Generated from the schema; do not edit.");
        out.line("@Generated(\"" + ModelGenerator.class.getName() + "\")");
        out.open("public final class " + typeName() + " {");
        out.blank();
        out.javadoc("The database name, its schema version and every table's descriptor.");
        out.line("public static final DatabaseModel MODEL = new DatabaseModel(" + JavaStrings.literal(database) + ", "
                + JavaStrings.literal(version) + ", List.of(");
        for (int i = 0; i < tableTypes.size(); i++) {
            out.line("        " + tableTypes.get(i) + ".TABLE" + (i == tableTypes.size() - 1 ? "));" : ","));
        }
        out.blank();
        out.open("private " + typeName() + "() {");
        out.close("}");
        out.close("}");
        String body = out.toString();
        return "package " + packageName + ";\n\n" + Imports.used(body, IMPORTS) + "\n" + body;
    }
}
