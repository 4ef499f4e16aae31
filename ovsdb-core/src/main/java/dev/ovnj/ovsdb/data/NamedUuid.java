package dev.ovnj.ovsdb.data;

import java.util.Objects;

/**
 * A reference, within one transaction, to the row inserted with the same {@code uuid-name}
 * (RFC 7047 section 5.1 {@code <named-uuid>}); written in JSON as {@code ["named-uuid", name]}.
 *
 * @param name the uuid-name, an {@code <id>}
 */
public record NamedUuid(String name) implements Comparable<NamedUuid> {

    /**
     * Validates the name.
     *
     * @param name the uuid-name
     * @throws IllegalArgumentException if the name is not an {@code <id>}
     */
    public NamedUuid {
        Objects.requireNonNull(name, "name");
        OvsdbId.require("uuid-name", name);
    }

    @Override
    public int compareTo(NamedUuid other) {
        return name.compareTo(other.name);
    }
}
