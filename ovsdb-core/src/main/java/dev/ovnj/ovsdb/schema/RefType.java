package dev.ovnj.ovsdb.schema;

import java.util.Locale;

/** Strength of a reference from a uuid column to its {@code refTable} (RFC 7047 section 3.2). */
public enum RefType {
    /** Deleting a referenced row is an error while the reference exists. */
    STRONG,
    /** Deleting a referenced row silently removes the reference. */
    WEAK;

    /**
     * Returns the name used in schemas.
     *
     * @return {@code "strong"} or {@code "weak"}
     */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
