package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;

/** The {@code abort} operation (RFC 7047 section 5.2.8), which always fails with "aborted". */
public record Abort() implements Operation {

    @Override
    public String op() {
        return "abort";
    }

    @Override
    public String summary() {
        return "abort";
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        return JsonNodeFactory.instance.objectNode().put("op", op());
    }
}
