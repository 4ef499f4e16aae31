package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Assembles a {@link JsonNode} tree from a token stream one token at a time, because a
 * non-blocking parser hands out tokens as bytes arrive and cannot be read by databind directly.
 */
final class JsonTreeBuilder {

    /** Strings longer than this (UUIDs, backend lists) rarely repeat and are never looked up. */
    private static final int RECENT_MAX_LENGTH = 24;

    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final ArrayDeque<ContainerNode<?>> open = new ArrayDeque<>();
    // Short strings repeat from message to message: the tags of every UUID, set and map ("uuid",
    // "set", "map"), column values such as protocols, external_ids keys and their owners. This
    // direct-mapped table of the last short strings seen hands out the same immutable node again
    // instead of a new String, its array and a TextNode; its size is fixed, so it holds on to
    // little however long the connection lives.
    private final TextNode[] recent = new TextNode[512];
    private String fieldName;

    /** Number of objects and arrays currently open. */
    int depth() {
        return open.size();
    }

    /**
     * Adds the parser's current token to the tree.
     *
     * @return the finished top-level value if this token completed it, otherwise {@code null}
     */
    JsonNode accept(JsonToken token, JsonParser parser) throws IOException {
        switch (token) {
            // Shaped for OVSDB's messages: most objects hold a few members (a row update, a row)
            // and most arrays are pairs (["uuid", ...], ["map", [...]], [key, value]).
            case START_OBJECT -> openContainer(new ObjectNode(nodes, new Members(4)));
            case START_ARRAY -> openContainer(new ArrayNode(nodes, new Elements()));
            case END_OBJECT, END_ARRAY -> {
                ContainerNode<?> closed = open.pop();
                return open.isEmpty() ? closed : null;
            }
            case FIELD_NAME -> fieldName = parser.currentName();
            case VALUE_STRING -> attach(text(parser));
            case VALUE_NUMBER_INT -> attach(integer(parser));
            case VALUE_NUMBER_FLOAT -> attach(nodes.numberNode(parser.getDoubleValue()));
            case VALUE_TRUE -> attach(nodes.booleanNode(true));
            case VALUE_FALSE -> attach(nodes.booleanNode(false));
            case VALUE_NULL -> attach(nodes.nullNode());
            default -> throw new IllegalStateException("unexpected token " + token);
        }
        return null;
    }

    private TextNode text(JsonParser parser) throws IOException {
        int length = parser.getTextLength();
        if (length > RECENT_MAX_LENGTH) {
            return nodes.textNode(parser.getText());
        }
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int hash = 0;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + chars[offset + i];
        }
        int slot = (hash ^ (hash >>> 9)) & (recent.length - 1);
        TextNode seen = recent[slot];
        if (seen != null && sameText(seen.textValue(), chars, offset, length)) {
            return seen;
        }
        TextNode node = nodes.textNode(new String(chars, offset, length));
        recent[slot] = node;
        return node;
    }

    private static boolean sameText(String text, char[] chars, int offset, int length) {
        if (text.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) != chars[offset + i]) {
                return false;
            }
        }
        return true;
    }

    private JsonNode integer(JsonParser parser) throws IOException {
        return switch (parser.getNumberType()) {
            case INT -> nodes.numberNode(parser.getIntValue());
            case LONG -> nodes.numberNode(parser.getLongValue());
            default -> nodes.numberNode(parser.getBigIntegerValue());
        };
    }

    private void openContainer(ContainerNode<?> container) {
        if (!open.isEmpty()) {
            attach(container);
        }
        open.push(container);
    }

    private void attach(JsonNode value) {
        ContainerNode<?> parent = open.peek();
        if (parent instanceof ObjectNode object) {
            object.set(fieldName, value);
        } else if (parent instanceof ArrayNode array) {
            array.add(value);
        } else {
            // The decoder rejects top-level scalars before they reach the builder.
            throw new IllegalStateException("scalar outside of a container");
        }
    }
}
