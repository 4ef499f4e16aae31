package dev.ovnj.ovsdb.codegen;

import java.util.List;

/**
 * Accumulates Java source text line by line with four-space indentation.
 */
final class SourceWriter {

    private static final String INDENT = "    ";

    private final StringBuilder text = new StringBuilder();
    private int depth;

    /**
     * Writes one line at the current depth.
     *
     * @param line the line without indentation or line break
     * @return this writer
     */
    SourceWriter line(String line) {
        if (!line.isEmpty()) {
            text.append(INDENT.repeat(depth)).append(line);
        }
        text.append('\n');
        return this;
    }

    /**
     * Writes an empty line.
     *
     * @return this writer
     */
    SourceWriter blank() {
        return line("");
    }

    /**
     * Writes a line that opens a block, ending in an opening brace, and indents what follows.
     *
     * @param line the opening line
     * @return this writer
     */
    SourceWriter open(String line) {
        line(line);
        depth++;
        return this;
    }

    /**
     * Ends the innermost block with a line such as a closing brace.
     *
     * @param line the closing line
     * @return this writer
     */
    SourceWriter close(String line) {
        depth--;
        return line(line);
    }

    /**
     * Writes a Javadoc comment; a single short line stays on one line.
     *
     * @param lines the comment lines, already escaped for Javadoc
     * @return this writer
     */
    SourceWriter javadoc(List<String> lines) {
        if (lines.size() == 1 && lines.get(0).length() < 90) {
            return line("/** " + lines.get(0) + " */");
        }
        line("/**");
        lines.forEach(l -> line(l.isEmpty() ? " *" : " * " + l));
        return line(" */");
    }

    /**
     * Writes a Javadoc comment.
     *
     * @param lines the comment lines, already escaped for Javadoc
     * @return this writer
     */
    SourceWriter javadoc(String... lines) {
        return javadoc(List.of(lines));
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
