package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the members of one operation object the way ovsdb-server's ovsdb_parser does, so missing,
 * mistyped and unexpected members give the same "Parsing ovsdb operation N of M failed: ..."
 * errors.
 */
final class OpParser {
    enum Kind { ID, STRING, ARRAY, OBJECT, BOOLEAN, INTEGER }

    private final JsonNode json;
    private final String what;
    private final Set<String> used = new HashSet<>();
    private OvsdbError error;

    OpParser(JsonNode json, String what) {
        this.json = json;
        this.what = what;
        if (!json.isObject()) {
            raise("Object expected.");
        }
    }

    JsonNode member(String name, Kind kind, boolean optional) {
        if (!json.isObject()) {
            return null;
        }
        JsonNode v = json.get(name);
        if (v == null) {
            if (!optional) {
                raise("Required '" + name + "' member is missing.");
            }
            return null;
        }
        used.add(name);
        boolean ok = switch (kind) {
            case ID -> v.isTextual() && v.textValue().matches("[A-Za-z_][A-Za-z0-9_]*");
            case STRING -> v.isTextual();
            case ARRAY -> v.isArray();
            case OBJECT -> v.isObject();
            case BOOLEAN -> v.isBoolean();
            case INTEGER -> v.isIntegralNumber();
        };
        if (!ok) {
            raise("Type mismatch for member '" + name + "'.");
            return null;
        }
        return v;
    }

    /** The operation object, for the "syntax" member of errors about it. */
    JsonNode jsonForSyntax() {
        return json;
    }

    void raise(String message) {
        if (error == null) {
            error = OvsdbError.parse(json, what, message);
        }
    }

    OvsdbError error() {
        return error;
    }

    /** The first error, or one for members nobody asked for. */
    OvsdbError finish() {
        if (error == null && json.isObject()) {
            List<String> extra = new ArrayList<>();
            for (String n : OvsMemberOrder.of(json)) {
                if (!used.contains(n)) {
                    extra.add(n);
                }
            }
            if (extra.size() == 1) {
                raise("Member '" + extra.get(0) + "' is present but not allowed here.");
            } else if (extra.size() > 1) {
                int others = extra.size() - 1;
                raise("Member '" + extra.get(0) + "' and " + others + " other member" + (others > 1 ? "s" : "")
                        + " are present but not allowed here.");
            }
        }
        return error;
    }
}
