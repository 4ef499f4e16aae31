package dev.ovnj.spring;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Puts ovnj's health in the {@code readiness} group only, by defaults the application's own
 * properties override: Actuator's liveness and readiness groups on
 * ({@code management.endpoint.health.probes.enabled}), {@code readiness} made of
 * {@code readinessState} and {@code ovnj}, {@code liveness} of {@code livenessState} alone. An
 * unreachable OVN database then takes the application out of a load balancer's rotation
 * ({@code /actuator/health/readiness} 503) and never gets it restarted
 * ({@code /actuator/health/liveness} stays UP): restarting cannot bring a database back. Only
 * when ovnj is configured ({@code ovnj.northbound.remotes}) and its indicator not disabled.
 */
public class OvnjHealthGroups implements EnvironmentPostProcessor {
    /** The name of the property source holding the defaults, last in the environment. */
    static final String SOURCE = "ovnjHealthGroups";

    /** Creates the post-processor (Spring Boot instantiates it from {@code META-INF/spring.factories}). */
    public OvnjHealthGroups() {
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.containsProperty("ovnj.northbound.remotes")
                || "false".equals(environment.getProperty("management.health.ovnj.enabled"))) {
            // No ovnj indicator: a group naming it would fail Actuator's check of group members.
            return;
        }
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, Map.of(
                "management.endpoint.health.probes.enabled", "true",
                "management.endpoint.health.group.readiness.include", "readinessState,ovnj",
                "management.endpoint.health.group.liveness.include", "livenessState")));
    }
}
