package dev.ovnj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's "Embedding" section identical to the compiled {@link Quickstart}, so the
 * README cannot drift from code that builds and passes {@code QuickstartIT}. Indentation and runs
 * of spaces do not count; every other character does.
 */
class ReadmeSnippetTest {
    private static final Path README = Path.of("../../README.md");
    private static final Path SOURCE = Path.of("src/main/java/dev/ovnj/examples/Quickstart.java");

    @Test
    void readmeEmbeddingSectionIsTheQuickstartCode() throws IOException {
        List<String> fromSource = normalized(between(Files.readAllLines(SOURCE), "// README-BEGIN", "// README-END"));
        List<String> fromReadme = normalized(between(
                between(Files.readAllLines(README), "<!-- quickstart:begin -->", "<!-- quickstart:end -->"),
                "```java", "```"));

        assertThat(fromSource).hasSizeGreaterThan(10);
        assertThat(fromReadme).containsExactlyElementsOf(fromSource);
    }

    @Test
    void indentationIsIgnoredButAnyOtherChangeIsNot() {
        List<String> code = normalized(List.of("", "        var x = f(a,  b);", ""));
        assertThat(code).containsExactly("var x = f(a, b);");
        assertThat(normalized(List.of("var x = f(a, c);"))).isNotEqualTo(code);
    }

    /** The lines strictly between the only line equal to {@code begin} and the next line equal to {@code end}. */
    static List<String> between(List<String> lines, String begin, String end) {
        List<String> trimmed = lines.stream().map(String::strip).toList();
        int from = trimmed.indexOf(begin);
        assertThat(from).as("marker %s", begin).isNotNegative();
        assertThat(trimmed.lastIndexOf(begin)).as("only one marker %s", begin).isEqualTo(from);
        int to = trimmed.subList(from + 1, trimmed.size()).indexOf(end);
        assertThat(to).as("marker %s after %s", end, begin).isNotNegative();
        return lines.subList(from + 1, from + 1 + to);
    }

    /** Strips each line, collapses runs of whitespace, and drops blank lines at either end. */
    static List<String> normalized(List<String> lines) {
        List<String> out = lines.stream().map(l -> l.strip().replaceAll("\\s+", " ")).toList();
        int first = 0;
        int last = out.size();
        while (first < last && out.get(first).isEmpty()) {
            first++;
        }
        while (last > first && out.get(last - 1).isEmpty()) {
            last--;
        }
        return out.subList(first, last);
    }
}
