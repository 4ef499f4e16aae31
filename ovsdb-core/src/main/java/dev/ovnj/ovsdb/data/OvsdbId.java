package dev.ovnj.ovsdb.data;

/**
 * The RFC 7047 {@code <id>} grammar (letters, digits and underscores, not starting with a digit)
 * that ovsdb-server demands of uuid-names and lock names; anything else is a "syntax error".
 */
public final class OvsdbId {
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
        if (!isId(name)) {
            throw new IllegalArgumentException(what + " \"" + name + "\" is not an <id>"
                    + " (letters, digits and underscores, not starting with a digit)");
        }
        return name;
    }

    /** {@code [A-Za-z_][A-Za-z0-9_]*}, scanned by hand: it runs for every uuid-name of every transaction. */
    private static boolean isId(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            if (!letter && (i == 0 || c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }
}
