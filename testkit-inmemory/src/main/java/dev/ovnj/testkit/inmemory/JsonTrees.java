package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/** JSON helpers shared by the server's parts. */
final class JsonTrees {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private JsonTrees() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /**
     * The JSON text with object members sorted, as ovsdb-server writes the "syntax" of an error;
     * its reals as OVS's JSON writer prints them ({@code %.15g}: {@code -1.0} is {@code -1}).
     */
    static String sortedString(JsonNode json) {
        try {
            return SORTED.writeValueAsString(sortKeys(json));
        } catch (JsonProcessingException e) {
            return json.toString();
        }
    }

    /** Reals as OVS's JSON writer prints them, in a tree Jackson then writes verbatim. */
    private static JsonNode ovsReal(JsonNode json) {
        if (json.isFloatingPointNumber()) {
            return NODES.rawValueNode(new com.fasterxml.jackson.databind.util.RawValue(Datum.real(json.doubleValue())));
        }
        return json;
    }

    private static JsonNode sortKeys(JsonNode json) {
        if (json.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = json.properties().iterator(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), sortKeys(e.getValue()));
            }
            ObjectNode o = object();
            sorted.forEach(o::set);
            return o;
        }
        if (json.isArray()) {
            ArrayNode a = array();
            json.forEach(e -> a.add(sortKeys(e)));
            return a;
        }
        return ovsReal(json);
    }
}
