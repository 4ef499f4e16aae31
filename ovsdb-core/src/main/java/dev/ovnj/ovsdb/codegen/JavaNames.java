package dev.ovnj.ovsdb.codegen;

import java.util.Locale;
import java.util.Set;

/**
 * The rules that turn OVSDB names into Java names.
 *
 * <p>Names split at underscores. A part written in capitals only is an abbreviation and keeps
 * just its first capital ({@code NAT} becomes {@code Nat}, {@code HA_Chassis_Group} becomes
 * {@code HaChassisGroup}); other parts keep their case apart from the first letter
 * ({@code QoS} stays {@code QoS}). Member names that are Java keywords, or that the generated
 * types use for themselves, get a trailing underscore ({@code class} becomes {@code class_()}).
 */
final class JavaNames {

    private static final Set<String> KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
            "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "true", "false", "null", "_", "record", "sealed", "permits", "yield", "var");

    // Methods of Object, of TypedRow and of the Immutables builder, which a column must not shadow.
    private static final Set<String> RESERVED_MEMBERS = Set.of(
            "uuid", "version", "tableModel", "toColumns", "checkConstraints", "builder", "fromRow", "from", "build",
            "hashCode", "equals", "toString", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");

    // Constants the generated types declare besides the column constants.
    private static final Set<String> RESERVED_CONSTANTS = Set.of("TABLE", "MODEL");

    private JavaNames() {
    }

    /**
     * Returns the Java type name of a table or schema, e.g. {@code Load_Balancer} to
     * {@code LoadBalancer}.
     *
     * @param ovsdbName the OVSDB name
     * @return the UpperCamelCase name
     */
    static String typeName(String ovsdbName) {
        StringBuilder name = new StringBuilder();
        for (String part : ovsdbName.split("[_\\-]+")) {
            if (!part.isEmpty()) {
                name.append(capitalized(part));
            }
        }
        return name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0)) ? "_" + name : name.toString();
    }

    /**
     * Returns the accessor name of a column, e.g. {@code external_ids} to {@code externalIds}; the
     * first part is lower-cased whole.
     *
     * @param column the column name
     * @return the lowerCamelCase name, escaped if it is a keyword or reserved
     */
    static String memberName(String column) {
        StringBuilder name = new StringBuilder();
        for (String part : column.split("[_\\-]+")) {
            if (!part.isEmpty()) {
                name.append(name.isEmpty() ? part.toLowerCase(Locale.ROOT) : capitalized(part));
            }
        }
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) {
            name.insert(0, '_');
        }
        String member = name.toString();
        return KEYWORDS.contains(member) || RESERVED_MEMBERS.contains(member) ? member + "_" : member;
    }

    /**
     * Returns the name of a column constant, e.g. {@code external_ids} to {@code EXTERNAL_IDS}.
     *
     * @param column the column name
     * @return the UPPER_SNAKE_CASE name
     */
    static String constantName(String column) {
        String name = column.replaceAll("[^A-Za-z0-9]+", "_").toUpperCase(Locale.ROOT);
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            name = "_" + name;
        }
        return RESERVED_CONSTANTS.contains(name) ? name + "_" : name;
    }

    /**
     * Returns the enum constant for a wire string, e.g. {@code allow-related} to
     * {@code ALLOW_RELATED}; the empty string becomes {@code EMPTY}.
     *
     * @param wireValue the string atom
     * @return the UPPER_SNAKE_CASE name
     */
    static String enumConstantName(String wireValue) {
        if (wireValue.isEmpty()) {
            return "EMPTY";
        }
        String name = wireValue.replaceAll("[^A-Za-z0-9]+", "_").toUpperCase(Locale.ROOT);
        return name.isEmpty() || Character.isDigit(name.charAt(0)) ? "_" + name : name;
    }

    private static String capitalized(String part) {
        boolean abbreviation = part.equals(part.toUpperCase(Locale.ROOT));
        String rest = abbreviation ? part.substring(1).toLowerCase(Locale.ROOT) : part.substring(1);
        return Character.toUpperCase(part.charAt(0)) + rest;
    }
}
