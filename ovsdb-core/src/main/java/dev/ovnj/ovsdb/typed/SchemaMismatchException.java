package dev.ovnj.ovsdb.typed;

import dev.ovnj.ovsdb.OvsdbException;
import java.util.Objects;

/**
 * A server's schema lacks tables or columns that a {@link DatabaseModel} uses, and the client was
 * told to be {@link Compatibility#STRICT}. The message names every one of them.
 */
public final class SchemaMismatchException extends OvsdbException {
    private static final long serialVersionUID = 1L;

    private final transient CompatibilityReport report;

    /**
     * Creates the exception.
     *
     * @param server the server, for the message, e.g. {@code "tcp:10.0.0.1:6641"}
     * @param report the incompatible report
     */
    public SchemaMismatchException(String server, CompatibilityReport report) {
        super(server + " does not fit the model: " + report.describe(), null);
        this.report = Objects.requireNonNull(report, "report");
    }

    /**
     * Returns the report of what does not fit.
     *
     * @return the report
     */
    public CompatibilityReport report() {
        return report;
    }
}
