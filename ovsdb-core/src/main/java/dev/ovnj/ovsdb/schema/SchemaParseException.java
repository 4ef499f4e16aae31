package dev.ovnj.ovsdb.schema;

import dev.ovnj.ovsdb.OvsdbException;
import java.util.Optional;

/** Thrown when a database schema does not follow RFC 7047 section 3.2; the message names the location. */
public final class SchemaParseException extends OvsdbException {

    private static final long serialVersionUID = 1L;

    /** {@code table} or {@code table.column}, or empty for the top level. */
    private final String location;

    /**
     * Creates the exception.
     *
     * @param location where the problem is, e.g. {@code Load_Balancer.protocol}, or empty for the
     *     top level
     * @param problem what is wrong
     */
    public SchemaParseException(String location, String problem) {
        super(location.isEmpty() ? problem : location + ": " + problem, null);
        this.location = location;
    }

    /**
     * Returns where in the schema the problem is.
     *
     * @return {@code table} or {@code table.column}, or empty for the top level
     */
    public Optional<String> location() {
        return location.isEmpty() ? Optional.empty() : Optional.of(location);
    }
}
