package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An RFC 7047 error object ({@code {"error": tag, "details": ...}}) with the tag and details text
 * ovsdb-server uses, so a client that matches on them behaves the same against either server.
 */
final class OvsdbError extends Exception {
    private static final long serialVersionUID = 1L;

    private final String tag;
    private final String details;
    private final transient JsonNode syntax;

    OvsdbError(String tag, String details) {
        this(tag, details, null);
    }

    OvsdbError(String tag, String details, JsonNode syntax) {
        super(tag + ": " + details, null, false, false);
        this.tag = tag;
        this.details = details;
        this.syntax = syntax;
    }

    /** A "syntax error" carrying the offending JSON, as ovsdb_syntax_error() builds it. */
    static OvsdbError syntax(JsonNode json, String details) {
        return new OvsdbError("syntax error", details, json);
    }

    /** The message ovsdb_parser_raise_error() builds for a malformed operation member. */
    static OvsdbError parse(JsonNode json, String what, String details) {
        return new OvsdbError("syntax error", "Parsing " + what + " failed: " + details, json);
    }

    static OvsdbError constraint(String details) {
        return new OvsdbError("constraint violation", details);
    }

    String tag() {
        return tag;
    }

    String details() {
        return details;
    }

    ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("error", tag);
        if (details != null) {
            o.put("details", details);
        }
        if (syntax != null) {
            o.put("syntax", JsonTrees.sortedString(syntax));
        }
        return o;
    }
}
