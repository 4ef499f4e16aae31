package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Parses JSON literals in tests; single quotes stand for double quotes to keep literals readable. */
public final class Json {

    private Json() {
    }

    /**
     * Parses a JSON literal written with single quotes.
     *
     * @param text the JSON text
     * @return the tree
     */
    public static JsonNode parse(String text) {
        try {
            return new ObjectMapper().readTree(text.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /**
     * Parses a JSON object literal written with single quotes.
     *
     * @param text the JSON text
     * @return the object
     */
    public static ObjectNode object(String text) {
        return (ObjectNode) parse(text);
    }
}
