package dev.ovnj.cli;

import java.util.List;
import java.util.Map;

/**
 * A value read from a desired-state file, with the line it is written on, so that every problem
 * found later (an unknown field, a wrong type, a bad VIP) can name its line. Objects are
 * {@code Map<String, SourceNode>} in file order, arrays {@code List<SourceNode>}, scalars
 * {@link String}, {@link Number} or {@link Boolean}, and null is {@code null}.
 *
 * @param value the value
 * @param line 1-based line; for an object field, the line of its key
 */
record SourceNode(Object value, int line) {

    /** Copies collections so the tree is immutable. */
    SourceNode {
        if (value instanceof Map<?, ?> m) {
            value = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(m));
        } else if (value instanceof List<?> l) {
            value = List.copyOf(l);
        }
    }

    /** Whether this is an object. */
    boolean isObject() {
        return value instanceof Map;
    }

    /** Whether this is an array. */
    boolean isArray() {
        return value instanceof List;
    }

    /** The fields of an object node. */
    @SuppressWarnings("unchecked")
    Map<String, SourceNode> fields() {
        return (Map<String, SourceNode>) value;
    }

    /** The elements of an array node. */
    @SuppressWarnings("unchecked")
    List<SourceNode> elements() {
        return (List<SourceNode>) value;
    }

    /** The kind of value in words, for type errors. */
    String kind() {
        if (value == null) {
            return "null";
        } else if (isObject()) {
            return "an object";
        } else if (isArray()) {
            return "a list";
        } else if (value instanceof String) {
            return "a string";
        } else if (value instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }
}
