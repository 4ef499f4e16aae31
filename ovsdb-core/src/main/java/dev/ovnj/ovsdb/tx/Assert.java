package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.Objects;
import dev.ovnj.ovsdb.data.OvsdbId;

/**
 * The {@code assert} operation (RFC 7047 section 5.2.10): fails with "not owner" unless this
 * session owns the lock.
 *
 * @param lock the lock name, an {@code <id>}
 */
public record Assert(String lock) implements Operation {

    /**
     * Validates the lock name.
     *
     * @param lock the lock name
     * @throws IllegalArgumentException if the name is not an {@code <id>}
     */
    public Assert {
        Objects.requireNonNull(lock, "lock");
        OvsdbId.require("lock name", lock);
    }

    @Override
    public String op() {
        return "assert";
    }

    @Override
    public String summary() {
        return "assert lock " + lock;
    }

    @Override
    public ObjectNode toJson(DatabaseSchema schema) {
        return JsonNodeFactory.instance.objectNode().put("op", op()).put("lock", lock);
    }
}
