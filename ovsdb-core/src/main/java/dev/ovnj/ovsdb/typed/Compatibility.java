package dev.ovnj.ovsdb.typed;

/**
 * What a client does when the server's schema lacks a table or column that its
 * {@link DatabaseModel} uses, or has one of another type; see {@link SchemaCompatibility}.
 */
public enum Compatibility {
    /**
     * Connect anyway and disable only what does not fit: reads of such a column give its
     * default, writes to it fail before anything is sent. The report is logged once per
     * connection and kept by the client.
     */
    LENIENT,
    /** Refuse the server: the connection attempt fails with a {@link SchemaMismatchException}. */
    STRICT
}
