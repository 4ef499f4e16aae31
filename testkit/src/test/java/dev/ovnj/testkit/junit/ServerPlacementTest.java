package dev.ovnj.testkit.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.TestkitException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The port ranges and directories of {@code @OvsdbTest} and {@code @ServerConfig}, and their errors. */
class ServerPlacementTest {

    @Test
    void aRangeIsInclusiveAndASinglePortIsARangeOfOne() {
        assertThat(ServerPlacement.range("16640-16659")).hasSize(20).startsWith(16640).endsWith(16659);
        assertThat(ServerPlacement.range(" 16640 ")).containsExactly(16640);
    }

    @Test
    void aBadRangeIsNamedWithWhatIsExpected() {
        assertThatThrownBy(() -> ServerPlacement.range("16640..16659")).isInstanceOf(TestkitException.class)
                .hasMessage("@OvsdbTest(ports = \"16640..16659\"): expected a port such as \"16640\" or a range such as \"16640-16659\"");
        assertThatThrownBy(() -> ServerPlacement.range("16659-16640")).hasMessageEndingWith("the range ends before it starts");
        assertThatThrownBy(() -> ServerPlacement.range("70000")).hasMessageEndingWith("70000 is not a TCP port (1 to 65535)");
    }

    @Test
    void variablesExpandFromTheLookupAndAnUnsetOneIsNamed() {
        Map<String, String> env = Map.of("CI_SCRATCH", "/scratch/job-7");

        assertThat(ServerPlacement.expand("${CI_SCRATCH}/ovsdb", env::get)).isEqualTo("/scratch/job-7/ovsdb");
        assertThat(ServerPlacement.expand("/plain/dir", env::get)).isEqualTo("/plain/dir");
        assertThatThrownBy(() -> ServerPlacement.expand("${NOPE}/ovsdb", env::get)).isInstanceOf(TestkitException.class)
                .hasMessage("directory \"${NOPE}/ovsdb\": ${NOPE} is neither a system property nor an environment variable");
    }
}
