package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.Objects;

/**
 * The {@code comment} operation (RFC 7047 section 5.2.9): text the server logs with the commit.
 *
 * @param comment the text
 */
public record Comment(String comment) implements Operation {

    /**
     * Validates the text.
     *
     * @param comment the text
     */
    public Comment {
        Objects.requireNonNull(comment, "comment");
    }

    @Override
    public String op() {
        return "comment";
    }

    @Override
    public String summary() {
        return "comment";
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        return JsonNodeFactory.instance.objectNode().put("op", op()).put("comment", comment);
    }
}
