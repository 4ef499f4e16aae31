package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares a server's schema with a compiled {@link DatabaseModel}: every table and column the
 * model uses must exist on the server with a type its typed column {@link Column#accepts accepts}.
 * Whatever else the server has is ignored, so a newer server fits an older model.
 */
public final class SchemaCompatibility {

    private SchemaCompatibility() {
    }

    /**
     * Checks a server's schema against a model.
     *
     * @param model the compiled model
     * @param server the schema the server reported
     * @return the report, listing every problem
     * @throws IllegalArgumentException if the schema is of another database than the model
     */
    public static CompatibilityReport check(DatabaseModel model, DatabaseSchema server) {
        if (!model.name().equals(server.name())) {
            throw new IllegalArgumentException("the model is of database " + model.name()
                    + ", the server's schema of " + server.name());
        }
        List<Incompatibility> problems = new ArrayList<>();
        for (TableModel<?> table : model.tables()) {
            Optional<TableSchema> serverTable = server.findTable(table.name());
            if (serverTable.isEmpty()) {
                problems.add(new Incompatibility(Incompatibility.Kind.MISSING_TABLE, table.name(),
                        Optional.empty(), Optional.empty()));
                continue;
            }
            for (Column<?> column : table.columns()) {
                Optional<ColumnSchema> serverColumn = serverTable.get().findColumn(column.name());
                if (serverColumn.isEmpty()) {
                    problems.add(new Incompatibility(Incompatibility.Kind.MISSING_COLUMN, table.name(),
                            Optional.of(column.name()), Optional.empty()));
                } else if (!column.accepts(serverColumn.get().type())) {
                    problems.add(new Incompatibility(Incompatibility.Kind.TYPE_MISMATCH, table.name(),
                            Optional.of(column.name()), Optional.of("expected " + column.expectedType()
                                    + ", server has " + serverColumn.get().type())));
                }
            }
        }
        return new CompatibilityReport(model.name(), model.version(), server.version(), problems);
    }
}
