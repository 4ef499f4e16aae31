package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;

/**
 * The {@code commit} operation (RFC 7047 section 5.2.7).
 *
 * @param durable true to have the server confirm only once the commit is on stable storage
 */
public record Commit(boolean durable) implements Operation {

    @Override
    public String op() {
        return "commit";
    }

    @Override
    public String summary() {
        return durable ? "durable commit" : "commit";
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        return JsonNodeFactory.instance.objectNode().put("op", op()).put("durable", durable);
    }
}
