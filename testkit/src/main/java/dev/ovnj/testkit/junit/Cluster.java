package dev.ovnj.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Sizes an injected {@link dev.ovnj.testkit.OvsdbCluster} parameter. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Cluster {
    /**
     * Number of members.
     *
     * @return member count, 3 unless set
     */
    int size() default 3;
}
