package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class WholeProcessTest {
    @Test
    void theChildrensLineOfBashTimesIsTheirUserPlusSystemTime() {
        // bash's `times`: the shell's own user/system time, then its children's.
        assertThat(WholeProcess.childrenCpu("0m0.004s 0m0.002s\n1m2.500s 0m0.250s\n")).isCloseTo(62.75, within(1e-9));
    }

    @Test
    void aCommandsExitCodeAndStandardOutputLinesAreItsOwnNotTheWrappers() {
        WholeProcess p = WholeProcess.run(List.of("sh", "-c", "echo one; echo two; echo three; echo oops >&2; exit 3"));

        assertThat(p.exitCode()).isEqualTo(3);
        assertThat(p.stdoutLines()).isEqualTo(3);
        assertThat(p.cpuSeconds()).isGreaterThanOrEqualTo(0);
    }
}
