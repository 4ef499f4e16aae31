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
}
