package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleForkTest {
    @Test
    void aForkRunsWithThisJvmsOptionsItsOwnRecordingAndLogFilesAndTheRunsSizes() {
        Scenarios.Sizes sizes = Scenarios.Sizes.quick().with("scale-changes=700");
        List<String> options = List.of("-Xms2g", "-Xmx6g", "-XX:+UseG1GC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-XX:StartFlightRecording=filename=/r/profile-scale.jfr,settings=profile", "-Xlog:gc*:file=/tmp/gc.log:uptime");
        List<String> command = ScaleFork.command(100_000, sizes, Path.of("/tmp/out.json"), options);

        assertThat(command.get(0)).endsWith("/bin/java");
        assertThat(command.subList(1, 7)).containsExactly("-Xms2g", "-Xmx6g", "-XX:+UseG1GC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-XX:StartFlightRecording=filename=/r/profile-scale-scale-100k.jfr,settings=profile",
                "-Xlog:gc*:file=/tmp/gc-scale-100k.log:uptime");
        assertThat(command.subList(7, command.size())).containsExactly("-cp", System.getProperty("java.class.path"),
                "dev.ovnj.bench.ScaleFork", "100000", "/tmp/out.json", "scale-changes=700", "warm-changes=200");
    }

    @Test
    void aFileWithoutExtensionGetsTheSuffixAtItsEnd() {
        assertThat(ScaleFork.withSuffix("-XX:StartFlightRecording=filename=/r.d/x", "-scale-1k"))
                .isEqualTo("-XX:StartFlightRecording=filename=/r.d/x-scale-1k");
        assertThat(ScaleFork.withSuffix("-Xss1m", "-scale-1k")).isEqualTo("-Xss1m");
    }
}
