package dev.ovnj.ovsdb.typed;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The result of checking a server's schema against a {@link DatabaseModel}: everything the model
 * uses that the server does not provide as expected. Extra tables and columns on the server are
 * not reported, since the model simply does not use them.
 *
 * @param database the database name
 * @param modelVersion the schema version the model was generated from
 * @param serverVersion the server's schema version, if it reports one
 * @param problems what does not fit, in model order; empty if compatible
 */
public record CompatibilityReport(String database, String modelVersion, Optional<String> serverVersion,
                                  List<Incompatibility> problems) {

    /**
     * Checks and freezes the components.
     *
     * @param database the database name
     * @param modelVersion the model's schema version
     * @param serverVersion the server's schema version
     * @param problems what does not fit
     */
    public CompatibilityReport {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(modelVersion, "modelVersion");
        Objects.requireNonNull(serverVersion, "serverVersion");
        problems = List.copyOf(problems);
    }

    /**
     * Tells whether the model fits the server completely.
     *
     * @return true if there are no problems
     */
    public boolean isCompatible() {
        return problems.isEmpty();
    }

    /**
     * Returns the tables the model uses that the server lacks.
     *
     * @return table names
     */
    public List<String> missingTables() {
        return problems.stream().filter(p -> p.kind() == Incompatibility.Kind.MISSING_TABLE)
                .map(Incompatibility::table).toList();
    }

    /**
     * Returns the columns the model uses that the server lacks or types differently, as
     * {@code table.column}; columns of missing tables are not listed.
     *
     * @return e.g. {@code ["Load_Balancer.selection_fields"]}
     */
    public List<String> unusableColumns() {
        return problems.stream().filter(p -> p.kind() != Incompatibility.Kind.MISSING_TABLE)
                .map(Incompatibility::name).toList();
    }

    /**
     * Tells whether a table is usable: the server has it.
     *
     * @param table the table name
     * @return false if the server lacks it
     */
    public boolean hasTable(String table) {
        return !missingTables().contains(table);
    }

    /**
     * Describes every problem on one line, naming the server's schema version.
     *
     * @return e.g. {@code "Load_Balancer.selection_fields missing on server (OVN_Northbound schema
     *     6.3.0, model 7.0.0)"}, or a statement that the schemas fit
     */
    public String describe() {
        String versions = "(" + database + " schema " + serverVersion.orElse("without version")
                + ", model " + modelVersion + ")";
        if (problems.isEmpty()) {
            return "server schema fits the model " + versions;
        }
        return problems.stream().map(Incompatibility::describe).collect(Collectors.joining("; ")) + " " + versions;
    }
}
