package dev.ovnj.ovsdb.codegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Generates the typed model of a database schema: per table an interface annotated
 * {@code @Value.Immutable} (see {@code TableSource}), plus a database model class. The sources
 * need {@code dev.ovnj.ovsdb.typed} at compile time and the Immutables annotation processor.
 *
 * <p>Run from a build as {@code ModelGenerator <schema.ovsschema> <output dir> <package>}.
 */
public final class ModelGenerator {

    private static final Pattern PACKAGE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");

    private final DatabaseSchema schema;
    private final SchemaDocs docs;
    private final String packageName;

    private ModelGenerator(DatabaseSchema schema, SchemaDocs docs, String packageName) {
        this.schema = schema;
        this.docs = docs;
        this.packageName = packageName;
    }

    /**
     * Prepares generation from a schema file.
     *
     * @param schemaFile an {@code .ovsschema} file
     * @param packageName the package of the generated sources
     * @return the generator
     * @throws UncheckedIOException if the file cannot be read
     * @throws dev.ovnj.ovsdb.schema.SchemaParseException if the file is not a valid schema
     * @throws IllegalArgumentException if the package name is not a Java package name
     */
    public static ModelGenerator forSchema(Path schemaFile, String packageName) {
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(Files.readString(schemaFile));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema " + schemaFile, e);
        }
        if (!PACKAGE.matcher(Objects.requireNonNull(packageName, "packageName")).matches()) {
            throw new IllegalArgumentException("\"" + packageName + "\" is not a Java package name");
        }
        return new ModelGenerator(DatabaseSchema.parse(json), new SchemaDocs(json), packageName);
    }

    /**
     * Renders every source file.
     *
     * @return source text by path relative to the output directory, e.g.
     *     {@code dev/ovnj/nb/model/LoadBalancer.java}
     * @throws IllegalArgumentException if two tables or two columns of a table map to one Java name
     */
    public Map<String, String> sources() {
        String version = schema.version().orElse("unversioned");
        String directory = packageName.replace('.', '/') + "/";
        Map<String, String> sources = new LinkedHashMap<>();
        List<String> tableTypes = new ArrayList<>();
        Set<String> lowerCaseNames = new HashSet<>();
        for (TableSchema table : schema.tables().values()) {
            TableSource source = new TableSource(table, schema.name(), version, packageName, docs);
            // Case-insensitive file systems would let two such files overwrite each other.
            if (!lowerCaseNames.add(source.typeName().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("table " + table.name() + " maps to the Java name "
                        + source.typeName() + ", which another table already has");
            }
            tableTypes.add(source.typeName());
            sources.put(directory + source.typeName() + ".java", source.render());
        }
        DatabaseSource database = new DatabaseSource(schema.name(), version, packageName, tableTypes);
        if (tableTypes.contains(database.typeName())) {
            throw new IllegalArgumentException("a table maps to " + database.typeName()
                    + ", the name of the database model class");
        }
        sources.put(directory + database.typeName() + ".java", database.render());
        return sources;
    }

    /**
     * Writes every source file below a directory, replacing files of earlier runs.
     *
     * @param outputDirectory the source root, e.g. {@code target/generated-sources/ovsdb}
     * @return the written files
     * @throws UncheckedIOException if a file cannot be written
     */
    public List<Path> writeTo(Path outputDirectory) {
        List<Path> written = new ArrayList<>();
        try {
            for (Map.Entry<String, String> source : sources().entrySet()) {
                Path file = outputDirectory.resolve(source.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                written.add(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write sources below " + outputDirectory, e);
        }
        return written;
    }

    /**
     * Generates sources from the command line.
     *
     * @param args the schema file, the output directory and the package name
     * @throws IllegalArgumentException if there are not exactly three arguments
     */
    public static void main(String[] args) {
        // Throwing rather than exiting: exec:java runs this inside the Maven JVM.
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ModelGenerator <schema.ovsschema> <output directory> <package>");
        }
        List<Path> written = forSchema(Path.of(args[0]), args[2]).writeTo(Path.of(args[1]));
        System.out.println("generated " + written.size() + " sources from " + args[0] + " into " + args[1]);
    }
}
