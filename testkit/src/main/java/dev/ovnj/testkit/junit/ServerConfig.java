package dev.ovnj.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Configures an injected {@link dev.ovnj.testkit.OvsdbServer} parameter: added remotes, and where
 * it listens and keeps its files, e.g.
 * {@code @ServerConfig(port = 16641, directory = "${CI_SCRATCH}/nb") OvsdbServer nb}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface ServerConfig {
    /**
     * Whether the server also listens on a unix socket.
     *
     * @return true to add {@code punix:}
     */
    boolean unixSocket() default false;

    /**
     * Whether the server also listens on {@code pssl:} with generated certificates.
     *
     * @return true to add {@code pssl:}
     */
    boolean ssl() default false;

    /**
     * The TCP port the server listens on, on 127.0.0.1; 0 (the default) takes the class's
     * {@link OvsdbTest#ports()}, else any free port.
     *
     * @return the port
     */
    int port() default 0;

    /**
     * The directory under which the server keeps its files, in a subdirectory of its own that
     * stays after the test, as {@link OvsdbTest#directory()} (with the same {@code ${NAME}}
     * expansion); empty (the default) takes the class's, else a temporary directory.
     *
     * @return the base directory
     */
    String directory() default "";
}
