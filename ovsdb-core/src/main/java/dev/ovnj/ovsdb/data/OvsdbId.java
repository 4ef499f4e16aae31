package dev.ovnj.ovsdb.data;

import java.util.regex.Pattern;

/**
 * The RFC 7047 {@code <id>} grammar (letters, digits and underscores, not starting with a digit)
 * that ovsdb-server demands of uuid-names and lock names; anything else is a "syntax error".
 */
public final class OvsdbId {
    private static final Pattern ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private OvsdbId() {
    }

    /**
     * Checks a name.
     *
     * @param what what the name is for, e.g. "lock name"
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException naming the name and the rule when it is not an {@code <id>}
     */
    public static String require(String what, String name) {
        if (name == null || !ID.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " \"" + name + "\" is not an <id>"
                    + " (letters, digits and underscores, not starting with a digit)");
        }
        return name;
    }
}
