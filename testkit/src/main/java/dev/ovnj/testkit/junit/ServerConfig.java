package dev.ovnj.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Adds remotes to an injected {@link dev.ovnj.testkit.OvsdbServer} parameter. */
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
}
