package dev.ovnj.ovsdb.data;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A reference, within one transaction, to the row inserted with the same {@code uuid-name}
 * (RFC 7047 section 5.1 {@code <named-uuid>}); written in JSON as {@code ["named-uuid", name]}.
 *
 * @param name the uuid-name, an {@code <id>}
 */
public record NamedUuid(String name) implements Comparable<NamedUuid> {

    private static final Pattern ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * Validates the name.
     *
     * @param name the uuid-name
     * @throws IllegalArgumentException if the name is not an {@code <id>}
     */
    public NamedUuid {
        Objects.requireNonNull(name, "name");
        if (!ID.matcher(name).matches()) {
            throw new IllegalArgumentException("uuid-name \"" + name + "\" is not an <id>"
                    + " (letters, digits and underscores, not starting with a digit)");
        }
    }

    @Override
    public int compareTo(NamedUuid other) {
        return name.compareTo(other.name);
    }
}
