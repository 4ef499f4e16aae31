package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.OvsdbServer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JPMS application on the module path, as a user builds one: its {@code module-info.java} says
 * {@code requires dev.ovnj.ovsdb} and nothing about {@code jdk.unsupported}, and it runs as
 * {@code java --module-path ... -m} with ovsdb-core's built module and its Netty, Jackson and
 * SLF4J jars. It syncs a client with a real ovsdb-server, and Netty neither logs its heap-buffer
 * fallback warning nor runs without {@code sun.misc.Unsafe}: {@code dev.ovnj.ovsdb} requires
 * {@code jdk.unsupported} itself. The control, a module on the same jars that requires Netty
 * alone, gets the warning: without a module requiring {@code jdk.unsupported} nothing resolves it.
 */
class ModulePathConsumerIT {
    /** Netty 4.1's {@code PlatformDependent} logs this (INFO) when {@code sun.misc.Unsafe} is out of reach. */
    static final String HEAP_BUFFER_WARNING = "Your platform does not provide complete low-level API for accessing direct buffers"
            + " reliably. Unless explicitly requested, heap buffer will always be preferred";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void aModulePathApplicationRequiringOnlyOvnjGetsNettysDirectBuffersWithoutTheWarning(@TempDir Path dir) throws IOException {
        String modulePath = String.join(File.pathSeparator, libraryModules());
        Path src = dir.resolve("src");
        write(src.resolve("app/module-info.java"), "module app { requires dev.ovnj.ovsdb; requires io.netty.common; }");
        write(src.resolve("app/app/Main.java"), """
                package app;
                public class Main {
                    public static void main(String[] args) {
                        try (dev.ovnj.ovsdb.client.OvsdbClient client = dev.ovnj.ovsdb.client.OvsdbClient.builder().remotes(args[0])
                                .build().startAndWait(java.time.Duration.ofSeconds(30))) {
                            System.out.println("synced=" + client.isSynced() + " Logical_Switch="
                                    + client.cache().table("Logical_Switch").size());
                        }
                        System.out.println("hasUnsafe=" + io.netty.util.internal.PlatformDependent.hasUnsafe()
                                + " directBufferPreferred=" + io.netty.util.internal.PlatformDependent.directBufferPreferred());
                    }
                }
                """);
        // The control: the same jars, Netty without ovnj; org.slf4j so that Netty logs as it does under ovnj.
        write(src.resolve("control/module-info.java"), "module control { requires io.netty.buffer; requires org.slf4j; }");
        write(src.resolve("control/control/Main.java"), """
                package control;
                public class Main {
                    public static void main(String[] args) {
                        io.netty.buffer.ByteBufAllocator.DEFAULT.buffer(16).release();
                        System.out.println("hasUnsafe=" + io.netty.util.internal.PlatformDependent.hasUnsafe()
                                + " directBufferPreferred=" + io.netty.util.internal.PlatformDependent.directBufferPreferred());
                    }
                }
                """);
        Path classes = dir.resolve("classes");
        Command.of(jdkTool("javac"), "-nowarn", "-d", classes.toString(), "--module-source-path", src.toString(),
                "--module-path", modulePath, "--module", "app,control").timeout(WAIT).check();
        String runPath = classes.resolve("app") + File.pathSeparator + classes.resolve("control") + File.pathSeparator + modulePath;

        try (OvsdbServer server = OvsdbServer.builder().inMemory(false).start()) {
            dev.ovnj.testkit.Nbctl.of(server).run("ls-add", "sw0");
            Command.Result app = Command.of(jdkTool("java"), "--module-path", runPath, "-m", "app/app.Main", server.remote())
                    .timeout(WAIT).run();
            assertThat(app.exitCode()).as("the application's stderr:%n%s", app.stderr()).isZero();
            assertThat(app.stdout()).contains("synced=true Logical_Switch=1").contains("hasUnsafe=true directBufferPreferred=true");
            assertThat(app.stderr()).as("what the application logged").contains("connected to").doesNotContain(HEAP_BUFFER_WARNING);
        }

        Command.Result control = Command.of(jdkTool("java"), "--module-path", runPath, "-m", "control/control.Main")
                .timeout(WAIT).run();
        assertThat(control.exitCode()).as("the control's stderr:%n%s", control.stderr()).isZero();
        assertThat(control.stdout()).contains("hasUnsafe=false directBufferPreferred=false");
        assertThat(control.stderr()).as("the control proves the warning is seen when it is logged").contains(HEAP_BUFFER_WARNING);
    }

    /**
     * Where this test's JVM found ovsdb-core and the libraries it runs on (Netty, Jackson, SLF4J
     * with slf4j-simple to log): the built module and the jars a user's build would resolve.
     */
    private static List<String> libraryModules() {
        Set<String> entries = new LinkedHashSet<>();
        Path ovsdb = Path.of(ModuleLayer.boot().configuration().findModule("dev.ovnj.ovsdb").orElseThrow()
                .reference().location().orElseThrow());
        entries.add(ovsdb.toString());
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                String name = Path.of(entry).getFileName() == null ? "" : Path.of(entry).getFileName().toString();
                if (name.startsWith("netty-") || name.startsWith("jackson-") || name.startsWith("slf4j-api-")
                        || name.startsWith("slf4j-simple-")) {
                    entries.add(entry);
                }
            }
        }
        List<String> found = new ArrayList<>(entries);
        assertThat(found).as("ovsdb-core, Netty, Jackson and SLF4J on this test's path")
                .anyMatch(e -> e.contains("netty-buffer")).anyMatch(e -> e.contains("jackson-databind"))
                .anyMatch(e -> e.contains("slf4j-simple"));
        return found;
    }

    private static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
