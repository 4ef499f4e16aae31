package dev.ovnj.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The frame every {@code --output json} document shares: {@code kind} (the command) and
 * {@code version} (of the shape, raised only when a field changes meaning or goes away; new fields
 * may appear at any time), printed compactly on one line so watch mode yields JSON lines.
 */
final class JsonDocument {
    /** Version of the documented shapes. */
    static final int VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonDocument() {
    }

    /**
     * Starts a document.
     *
     * @param kind the command, e.g. {@code status}
     * @return the document's root
     */
    static ObjectNode start(String kind) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("kind", kind);
        root.put("version", VERSION);
        return root;
    }

    /**
     * Adds an array of strings.
     *
     * @param parent where to add it
     * @param field the field name
     * @param values the strings
     * @return the array
     */
    static ArrayNode strings(ObjectNode parent, String field, Collection<String> values) {
        ArrayNode array = parent.putArray(field);
        values.forEach(array::add);
        return array;
    }

    /**
     * Adds an object of name to list of strings, sorted by name.
     *
     * @param parent where to add it
     * @param field the field name
     * @param values name to strings
     */
    static void stringLists(ObjectNode parent, String field, Map<String, List<String>> values) {
        ObjectNode object = parent.putObject(field);
        new TreeMap<>(values).forEach((k, v) -> strings(object, k, v));
    }

    /**
     * Prints a document on one line and flushes.
     *
     * @param out where to print
     * @param document the document
     */
    static void print(PrintStream out, ObjectNode document) {
        out.println(document.toString());
        out.flush();
    }
}
