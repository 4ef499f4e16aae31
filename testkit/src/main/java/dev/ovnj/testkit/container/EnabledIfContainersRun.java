package dev.ovnj.testkit.container;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class or method only where an {@link OvsdbContainer} can start: a Docker
 * engine answers and the image ({@link OvsdbContainer#imageOrDefault()}) is present. Otherwise the
 * tests are skipped with the exact reason ({@link ContainerPrerequisites#missing(String)}). Put it
 * before {@code @Testcontainers} so the check runs before any container is started.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(ContainersCondition.class)
public @interface EnabledIfContainersRun {
}
