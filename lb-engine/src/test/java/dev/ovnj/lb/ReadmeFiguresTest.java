package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's figures of what lb-engine brings into a user's build, checked against the runtime
 * classpath Maven resolves for it (written by the dependency plugin before the tests, see the
 * pom): the jar count, ovnj's own among them, and the size of the others. A dependency added or
 * upgraded fails this test until the README says so.
 */
class ReadmeFiguresTest {
    private static final Pattern FIGURES = Pattern.compile(
            "`lb-engine` brings (\\d+) jars: (\\d+) of ovnj's own \\([^)]*\\) and (\\d+) others \\(([\\d.]+) MB\\)");

    @Test
    void theReadmeSaysHowManyJarsLbEngineBringsAndHowLarge() throws IOException {
        List<String> entries = Arrays.stream(Files.readString(Path.of("target/runtime-classpath.txt")).strip().split(File.pathSeparator))
                .filter(e -> !e.isBlank()).toList();
        // ovnj's modules are, within the reactor, their class directories or the jars just packaged under their
        // target/; outside it, jars under dev/ovnj in a repository.
        List<String> own = entries.stream().map(e -> e.replace('\\', '/'))
                .filter(e -> Files.isDirectory(Path.of(e)) || e.contains("/target/") || e.contains("/dev/ovnj/")).toList();
        List<String> others = entries.stream().filter(e -> !own.contains(e.replace('\\', '/'))).toList();
        long bytes = 0;
        for (String e : others) {
            bytes += Files.size(Path.of(e));
        }
        String readme = Files.readString(Path.of("../README.md")).replaceAll("\\s+", " ");
        Matcher m = FIGURES.matcher(readme);
        assertThat(m.find()).as("README: \"`lb-engine` brings N jars: N of ovnj's own (...) and N others (N.N MB)\"").isTrue();
        String actual = (entries.size() + 1) + " jars, " + (own.size() + 1) + " own, " + others.size() + " others, "
                + String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        assertThat(m.group(1) + " jars, " + m.group(2) + " own, " + m.group(3) + " others, " + m.group(4) + " MB")
                .as("the README's figures; the classpath is %s", others).isEqualTo(actual);
    }
}
