package dev.ovnj.ovsdb.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.typed.MapColumn;
import dev.ovnj.ovsdb.typed.TypedOps;
import dev.ovnj.ovsdb.typed.TypedRow;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import javax.tools.DocumentationTool;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.immutables.value.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates the model of a test schema with every column shape, compiles it in-process with the
 * Immutables processor, and exercises the compiled classes through reflection, which is how a
 * test reaches classes that did not exist when it was compiled.
 */
class ModelGeneratorTest {

    private static final Path SCHEMA = Path.of("src/test/resources/codegen/fleet.ovsschema");
    private static final String PACKAGE = "test.fleet";

    @TempDir
    static Path work;

    private static Path sources;
    private static Path classes;
    private static String classpath;
    private static ClassLoader loader;

    @BeforeAll
    static void generateAndCompile() throws Exception {
        sources = work.resolve("src");
        classes = work.resolve("classes");
        Files.createDirectories(classes);
        List<Path> written = ModelGenerator.forSchema(SCHEMA, PACKAGE).writeTo(sources);
        // Surefire may hide the real class path in a manifest-only jar, so name the jars the sources need.
        classpath = String.join(File.pathSeparator, location(TypedRow.class), location(Value.class),
                location(JsonNode.class), location(JsonParser.class), System.getProperty("java.class.path"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> arguments = new ArrayList<>(List.of("-Xlint:all,-processing", "-Werror", "-classpath", classpath,
                "-d", classes.toString(), "-s", classes.toString()));
        written.forEach(file -> arguments.add(file.toString()));
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, null, diagnostics, arguments.toArray(String[]::new));
        assertThat(status).as(diagnostics.toString()).isZero();
        loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ModelGeneratorTest.class.getClassLoader());
    }

    private static String location(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void writesOneTypePerTableAndTheDatabaseModel() throws Exception {
        try (Stream<Path> files = Files.list(sources.resolve("test/fleet"))) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder("VesselClass.java", "Hq.java", "FleetDbModel.java");
        }
        String vessel = Files.readString(sources.resolve("test/fleet/VesselClass.java"));
        assertThat(vessel)
                .contains("Who is in charge &lt;always&gt; &amp; forever.")
                .contains("A kind of ship.")
                .contains("Optional<String> class_();")
                .contains("SetColumn<UUID> ESCORTS = SetColumn.of(\"escorts\", AtomMapping.UUID);")
                .contains("MapColumn<Limits, Long> LIMITS")
                .contains("The column is immutable: only an insert sets it.");
    }

    @Test
    void generatedJavadocHasNoWarnings() throws Exception {
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> arguments = new ArrayList<>(List.of("-Xdoclint:all", "-quiet", "-classpath",
                classpath + File.pathSeparator + classes, "-d", work.resolve("doc").toString()));
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(Files::isRegularFile).forEach(file -> arguments.add(file.toString()));
        }
        int status = javadoc.run(null, null, out, arguments.toArray(String[]::new));
        assertThat(status).as(out.toString()).isZero();
        assertThat(out.toString()).doesNotContain("warning");
    }

    @Test
    void roundTripsEveryShapeThroughAnUntypedRow() throws Exception {
        Class<?> vessel = loader.loadClass(PACKAGE + ".VesselClass");
        Object kind = loader.loadClass(PACKAGE + ".VesselClass$Kind").getEnumConstants()[2];
        Object mode = loader.loadClass(PACKAGE + ".VesselClass$Modes").getEnumConstants()[1];
        Object limit = loader.loadClass(PACKAGE + ".VesselClass$Limits").getEnumConstants()[0];
        UUID registry = UUID.randomUUID();
        UUID hq = UUID.randomUUID();
        UUID escort = UUID.randomUUID();

        Object builder = vessel.getMethod("builder").invoke(null);
        Class<?> type = builder.getClass();
        type.getMethod("name", String.class).invoke(builder, "Nordic");
        type.getMethod("crew", long.class).invoke(builder, 12L);
        type.getMethod("tonnage", double.class).invoke(builder, 950.5);
        type.getMethod("active", boolean.class).invoke(builder, true);
        type.getMethod("registry", UUID.class).invoke(builder, registry);
        type.getMethod("class_", String.class).invoke(builder, "A");
        type.getMethod("tags", Iterable.class).invoke(builder, Set.of("fast", "red"));
        type.getMethod("labels", Map.class).invoke(builder, Map.of("owner", "ovnj"));
        type.getMethod("kind", kind.getClass()).invoke(builder, kind);
        type.getMethod("modes", Iterable.class).invoke(builder, Set.of(mode));
        type.getMethod("limits", Map.class).invoke(builder, Map.of(limit, 30L));
        type.getMethod("flagship", UUID.class).invoke(builder, hq);
        type.getMethod("escorts", Iterable.class).invoke(builder, Set.of(escort));
        TypedRow value = (TypedRow) type.getMethod("build").invoke(builder);

        Map<String, Object> columns = value.toColumns();
        assertThat(columns).containsEntry("crew", 12L).containsEntry("tonnage", 950.5)
                .containsEntry("active", true).containsEntry("registry", registry)
                .containsEntry("class", Set.of("A")).containsEntry("kind", "tug-boat")
                .containsEntry("modes", Set.of("motor")).containsEntry("limits", Map.of("max-speed", 30L))
                .containsEntry("flagship", Set.of(hq)).containsEntry("escorts", Set.of(escort))
                .containsEntry("captain", "").containsEntry("serial", 0L);

        DatabaseSchema schema = DatabaseSchema.parse(SCHEMA);
        UUID uuid = UUID.randomUUID();
        Method fromRow = vessel.getMethod("fromRow", Row.class);
        TypedRow read = (TypedRow) fromRow.invoke(null, Row.of(schema.table("Vessel_Class"), uuid, columns));

        assertThat(read.uuid()).contains(uuid);
        assertThat(read.toColumns()).isEqualTo(columns);
        assertThat(read.tableModel().name()).isEqualTo("Vessel_Class");
    }

    @Test
    void mandatoryScalarsHaveNoDefault() throws Exception {
        Class<?> vessel = loader.loadClass(PACKAGE + ".VesselClass");
        Object builder = vessel.getMethod("builder").invoke(null);
        Method build = builder.getClass().getMethod("build");
        assertThat(catchThrowable(() -> build.invoke(builder)))
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .rootCause().hasMessageContaining("crew").hasMessageContaining("registry")
                .hasMessageContaining("kind").hasMessageNotContaining("name");
    }

    @Test
    void typedOpsInsertOmitsDefaultsAndUpdateClearsCollections() throws Exception {
        Class<?> hq = loader.loadClass(PACKAGE + ".Hq");
        Object builder = hq.getMethod("builder").invoke(null);
        builder.getClass().getMethod("city", String.class).invoke(builder, "Oslo");
        builder.getClass().getMethod("uuid", UUID.class).invoke(builder, new UUID(1, 2));
        TypedRow row = (TypedRow) builder.getClass().getMethod("build").invoke(builder);
        MapColumn<?, ?> ships = (MapColumn<?, ?>) hq.getField("SHIPS").get(null);
        DatabaseSchema schema = DatabaseSchema.parse(SCHEMA);

        assertThat(TypedOps.insert(row).toJson(schema).toString()).isEqualTo(
                "{\"op\":\"insert\",\"table\":\"HQ\",\"row\":{\"city\":\"Oslo\"},"
                        + "\"uuid\":\"00000000-0000-0001-0000-000000000002\"}");
        assertThat(TypedOps.update(row, ships).toJson(schema).toString()).isEqualTo(
                "{\"op\":\"update\",\"table\":\"HQ\",\"where\":[[\"_uuid\",\"==\","
                        + "[\"uuid\",\"00000000-0000-0001-0000-000000000002\"]]],\"row\":{\"ships\":[\"map\",[]]}}");
    }
}
