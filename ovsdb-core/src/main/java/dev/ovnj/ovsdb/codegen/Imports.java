package dev.ovnj.ovsdb.codegen;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Chooses the import declarations a generated body needs, so that generated files carry no
 * unused imports.
 */
final class Imports {

    private Imports() {
    }

    /**
     * Returns the import lines for those candidates whose simple name the body mentions.
     *
     * @param body the source after the imports
     * @param candidates fully qualified names that the body may use
     * @return the import declarations, one per line, in the candidates' order
     */
    static String used(String body, List<String> candidates) {
        StringBuilder imports = new StringBuilder();
        for (String candidate : candidates) {
            String simpleName = candidate.substring(candidate.lastIndexOf('.') + 1);
            if (Pattern.compile("\\b" + Pattern.quote(simpleName) + "\\b").matcher(body).find()) {
                imports.append("import ").append(candidate).append(";\n");
            }
        }
        return imports.toString();
    }
}
