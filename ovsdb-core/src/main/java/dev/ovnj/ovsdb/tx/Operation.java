package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;

/**
 * One database operation of a {@code transact} request (RFC 7047 section 5.2). Instances are
 * immutable; start from {@link Operations}.
 */
public sealed interface Operation permits Insert, Select, Update, Mutate, Delete, Wait, Commit, Abort, Comment,
        Assert {

    /**
     * Returns the operation name as written in the {@code "op"} member.
     *
     * @return e.g. {@code "insert"}
     */
    String op();

    /**
     * Returns a short description for error messages.
     *
     * @return e.g. {@code "insert Load_Balancer"}
     */
    String summary();

    /**
     * Encodes the operation, checking tables, columns and values against the schema.
     *
     * @param schema the database schema
     * @return the operation object
     * @throws IllegalArgumentException if a table or column does not exist or may not be written
     * @throws dev.ovnj.ovsdb.data.ValueConstraintException if a value breaks its column type
     */
    ObjectNode toJson(DatabaseSchema schema);
}
