package dev.ovnj.ovsdb.tx;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The {@code assert} operation (RFC 7047 section 5.2.10): fails with "not owner" unless this
 * session owns the lock.
 *
 * @param lock the lock name, an {@code <id>}
 */
public record Assert(String lock) implements Operation {

    // ovsdb-server parses "lock" as an <id> and answers anything else with a "syntax error".
    private static final Pattern ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * Validates the lock name.
     *
     * @param lock the lock name
     * @throws IllegalArgumentException if the name is not an {@code <id>}
     */
    public Assert {
        Objects.requireNonNull(lock, "lock");
        if (!ID.matcher(lock).matches()) {
            throw new IllegalArgumentException("lock name \"" + lock + "\" is not an <id>"
                    + " (letters, digits and underscores, not starting with a digit)");
        }
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
