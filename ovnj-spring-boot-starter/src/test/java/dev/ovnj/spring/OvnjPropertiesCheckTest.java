package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class OvnjPropertiesCheckTest {

    private static StandardEnvironment environment(Map<String, Object> variables, Map<String, Object> configuration) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        environment.getPropertySources().addFirst(new MapPropertySource("application", configuration));
        return environment;
    }

    @Test
    void anOvnjVariableOfTheEnvironmentThatNamesNoPropertyDoesNotStopTheStart() {
        // CI exports OVNJ_OVSDB_IMAGE for the container tests; the CLI reads OVNJ_VERBOSE.
        StandardEnvironment env = environment(Map.of("OVNJ_OVSDB_IMAGE", "ovnj/ovsdb-server:bookworm", "OVNJ_VERBOSE", "true"),
                Map.of("ovnj.northbound.remotes", "tcp:127.0.0.1:6641"));
        assertThatCode(() -> new OvnjPropertiesCheck().postProcessEnvironment(env, new SpringApplication()))
                .doesNotThrowAnyException();
    }

    @Test
    void aMisspeltPropertyOfTheConfigurationStillStopsTheStart() {
        StandardEnvironment env = environment(Map.of("OVNJ_OVSDB_IMAGE", "ovnj/ovsdb-server:bookworm"),
                Map.of("ovnj.northbound.remote", "tcp:127.0.0.1:6641"));
        assertThatThrownBy(() -> new OvnjPropertiesCheck().postProcessEnvironment(env, new SpringApplication()))
                .hasStackTraceContaining("ovnj.northbound.remote");
    }
}
