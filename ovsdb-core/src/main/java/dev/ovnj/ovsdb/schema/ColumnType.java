package dev.ovnj.ovsdb.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code <type>} of a column (RFC 7047 section 3.2): a key base type, an optional value base
 * type making it a map, and bounds on the number of elements.
 *
 * @param key the base type of set elements or map keys
 * @param value the base type of map values; present exactly for maps
 * @param min the minimum number of elements, 0 or 1
 * @param max the maximum number of elements, {@link #UNLIMITED} if unbounded
 */
public record ColumnType(BaseType key, Optional<BaseType> value, long min, long max) {

    /** The {@link #max()} of a column whose number of elements is unbounded. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    // Thread-safe once configured; one for the dozens of typed columns parsed at class initialization.
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Validates the bounds.
     *
     * @param key the key base type
     * @param value the value base type
     * @param min the minimum number of elements
     * @param max the maximum number of elements
     */
    public ColumnType {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (min < 0 || max < 1 || min > max) {
            throw new IllegalArgumentException("invalid element bounds min " + min + " max " + max);
        }
    }

    /**
     * Parses a column {@code <type>} as written in a schema, e.g.
     * {@code {"key":{"type":"integer","minInteger":0,"maxInteger":32767}}}; the generated model
     * types use it to carry their columns' constraints.
     *
     * @param json the type's JSON text
     * @return the column type
     * @throws SchemaParseException if the text is not JSON or not a valid column type
     */
    public static ColumnType parse(String json) {
        try {
            return SchemaParser.parseColumnType(JSON.readTree(json));
        } catch (JsonProcessingException e) {
            throw new SchemaParseException("column type", "not valid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Returns the type of a column holding exactly one unconstrained atom.
     *
     * @param type the atomic type
     * @return the scalar column type
     */
    public static ColumnType scalar(AtomicType type) {
        return new ColumnType(BaseType.of(type), Optional.empty(), 1, 1);
    }

    /**
     * Tells whether the column holds exactly one atom: min = max = 1 and no value type.
     *
     * @return true for scalar columns, whose Java value is the bare atom
     */
    public boolean isScalar() {
        return min == 1 && max == 1 && value.isEmpty();
    }

    /**
     * Tells whether the column holds zero or one atom: min 0, max 1 and no value type.
     *
     * @return true for optional columns, whose Java value is a set of at most one element
     */
    public boolean isOptional() {
        return min == 0 && max == 1 && value.isEmpty();
    }

    /**
     * Tells whether the column's Java value is a {@link java.util.Set}: not a map and not scalar.
     *
     * @return true for set (including optional) columns
     */
    public boolean isSet() {
        return value.isEmpty() && !isScalar();
    }

    /**
     * Tells whether the column's Java value is a {@link java.util.Map}.
     *
     * @return true if a value type is present
     */
    public boolean isMap() {
        return value.isPresent();
    }

    /**
     * Returns this type with other element bounds, e.g. the unbounded set that an
     * {@code includes} condition or an {@code insert} mutation accepts.
     *
     * @param newMin the minimum number of elements
     * @param newMax the maximum number of elements
     * @return the resized type
     */
    public ColumnType withBounds(long newMin, long newMax) {
        return new ColumnType(key, value, newMin, newMax);
    }

    /**
     * Encodes this type in the schema grammar, omitting members that have their default values.
     *
     * @return the JSON {@code <type>}
     */
    public JsonNode toJson() {
        if (isScalar() && !key.hasConstraints()) {
            return key.toJson();
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.set("key", key.toJson());
        value.ifPresent(v -> json.set("value", v.toJson()));
        if (min != 1) {
            json.put("min", min);
        }
        if (max == UNLIMITED) {
            json.put("max", "unlimited");
        } else if (max != 1) {
            json.put("max", max);
        }
        return json;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
