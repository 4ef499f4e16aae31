package dev.ovnj.ovsdb.codegen;

/**
 * Escapes text for Java string literals and for Javadoc.
 */
final class JavaStrings {

    private JavaStrings() {
    }

    /**
     * Returns a Java string literal.
     *
     * @param text the string
     * @return the quoted, escaped literal
     */
    static String literal(String text) {
        StringBuilder literal = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> literal.append("\\\"");
                case '\\' -> literal.append("\\\\");
                case '\n' -> literal.append("\\n");
                case '\r' -> literal.append("\\r");
                case '\t' -> literal.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        literal.append(String.format("\\u%04x", (int) c));
                    } else {
                        literal.append(c);
                    }
                }
            }
        }
        return literal.append('"').toString();
    }

    /**
     * Escapes text for Javadoc: HTML metacharacters, the at sign that would start a tag, the
     * backslash that javac would read as a Unicode escape, braces, and the
     * sequence that would end the comment.
     *
     * @param text the plain text
     * @return the escaped text
     */
    static String doc(String text) {
        return text.replace("&", "&amp;").replace("\\", "&#92;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("@", "&#64;").replace("*/", "*&#47;").replace("{", "&#123;").replace("}", "&#125;");
    }

    /**
     * Returns text as code in Javadoc.
     *
     * @param text the plain text
     * @return {@code <code>text</code>}, escaped
     */
    static String code(String text) {
        return "<code>" + doc(text) + "</code>";
    }
}
