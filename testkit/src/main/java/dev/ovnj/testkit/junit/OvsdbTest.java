package dev.ovnj.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class whose test methods, {@code @BeforeAll}/{@code @BeforeEach} methods or
 * constructor take {@link dev.ovnj.testkit.OvsdbServer} or {@link dev.ovnj.testkit.OvsdbCluster}
 * parameters. A parameter of a test method gets a fresh server for that test; a parameter of a
 * {@code @BeforeAll} method gets one shared by the class. Each is closed when its scope ends.
 * Use {@link Cluster} to size a cluster and {@link ServerConfig} to add remotes.
 *
 * <p>With {@code inMemory = true} (or the system property {@code ovnj.testkit.inMemory=true}) an
 * {@link dev.ovnj.testkit.OvsdbServer} parameter is an in-memory server from the
 * {@code testkit-inmemory} module, which must then be a test dependency; clusters stay processes.
 *
 * <p>Where servers listen and keep their files, for CI runners that allow a port range and give
 * each job a scratch folder (a parameter's {@link ServerConfig} pins its own server):
 * <pre>{@code
 * @OvsdbTest(ports = "16640-16659", directory = "${CI_SCRATCH}/ovsdb")
 * class RouterIT {
 *     @Test
 *     void attaches(OvsdbServer server) {          // a free port of 16640-16659, files under $CI_SCRATCH/ovsdb
 *         ...
 *     }
 * }
 * }</pre>
 * Clusters are not placed: their members take free ports and temporary directories.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(OvsdbExtension.class)
public @interface OvsdbTest {
    /**
     * Whether injected servers run in this JVM instead of as ovsdb-server processes.
     *
     * @return true for in-memory servers
     */
    boolean inMemory() default false;

    /**
     * The TCP ports injected servers listen on: one port ({@code "16640"}) or an inclusive range
     * ({@code "16640-16659"}), from which each server takes the first port nothing listens on,
     * trying the next when another process took it first. Empty (the default): any free port.
     * A parameter's {@link ServerConfig#port()} takes precedence.
     *
     * @return the port or range, on 127.0.0.1
     */
    String ports() default "";

    /**
     * The directory under which each injected server keeps its database, log and control socket,
     * in a subdirectory of its own named after the test ({@code RouterIT-attaches-...}), which
     * stays after the test for CI to collect. {@code ${NAME}} is replaced by the system property
     * {@code NAME}, else the environment variable {@code NAME}; an unset one fails the test,
     * naming it. Empty (the default): a temporary directory, removed when the server closes.
     * A parameter's {@link ServerConfig#directory()} takes precedence.
     *
     * @return the base directory
     */
    String directory() default "";
}
