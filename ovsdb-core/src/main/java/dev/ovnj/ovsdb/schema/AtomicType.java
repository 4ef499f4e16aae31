package dev.ovnj.ovsdb.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.data.UuidText;
import java.util.Optional;
import java.util.UUID;

/**
 * The five atomic types of RFC 7047 section 3.2, each knowing its Java representation, its
 * default atom and its JSON encoding.
 *
 * <p>Java representation: integer as {@link Long}, real as {@link Double}, boolean as
 * {@link Boolean}, string as {@link String}, uuid as {@link UUID}.
 */
public enum AtomicType {
    /** A 64-bit signed integer. */
    INTEGER("integer", Long.class, 0L),
    /** An IEEE 754 double. */
    REAL("real", Double.class, 0.0),
    /** A boolean. */
    BOOLEAN("boolean", Boolean.class, false),
    /** A Unicode string. */
    STRING("string", String.class, ""),
    /** A UUID, written in JSON as {@code ["uuid", "<36 characters>"]}. */
    UUID("uuid", java.util.UUID.class, new java.util.UUID(0, 0));


    private final String jsonName;
    private final Class<?> javaType;
    private final Object defaultAtom;

    AtomicType(String jsonName, Class<?> javaType, Object defaultAtom) {
        this.jsonName = jsonName;
        this.javaType = javaType;
        this.defaultAtom = defaultAtom;
    }

    /**
     * Returns the name used in schemas, e.g. {@code "integer"}.
     *
     * @return the RFC 7047 name of this type
     */
    public String jsonName() {
        return jsonName;
    }

    /**
     * Returns the Java class that represents atoms of this type.
     *
     * @return the Java class of atoms
     */
    public Class<?> javaType() {
        return javaType;
    }

    /**
     * Returns the default atom of this type: 0, 0.0, false, the empty string or the all-zero UUID.
     *
     * @return the default atom
     */
    public Object defaultAtom() {
        return defaultAtom;
    }

    /**
     * Looks up a type by its schema name.
     *
     * @param jsonName a name such as {@code "string"}
     * @return the type, or empty if the name is not an atomic type
     */
    public static Optional<AtomicType> fromJsonName(String jsonName) {
        for (AtomicType type : values()) {
            if (type.jsonName.equals(jsonName)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /**
     * Decodes a JSON atom of this type. Reals accept JSON integers because JSON writers drop the
     * fraction of whole numbers; integers reject any JSON number with a fraction or exponent.
     *
     * @param json the JSON atom
     * @return the Java atom, or empty if the JSON is not an atom of this type
     */
    public Optional<Object> decode(JsonNode json) {
        return switch (this) {
            case INTEGER -> json.isIntegralNumber() && json.canConvertToLong()
                    ? Optional.of(json.longValue()) : Optional.empty();
            case REAL -> json.isNumber() ? Optional.of(json.doubleValue()) : Optional.empty();
            case BOOLEAN -> json.isBoolean() ? Optional.of(json.booleanValue()) : Optional.empty();
            case STRING -> json.isTextual() ? Optional.of(json.textValue()) : Optional.empty();
            case UUID -> decodeUuid(json);
        };
    }

    private static Optional<Object> decodeUuid(JsonNode json) {
        if (json.isArray() && json.size() == 2 && "uuid".equals(json.get(0).textValue())) {
            // Strict: UUID.fromString accepts abbreviated forms such as "1-1-1-1-1", which OVSDB does not.
            java.util.UUID uuid = UuidText.parse(json.get(1).textValue());
            if (uuid != null) {
                return Optional.of(uuid);
            }
        }
        return Optional.empty();
    }

    /**
     * Encodes a Java atom of this type as JSON; a {@link Long} is always written as a JSON
     * integer.
     *
     * @param atom an instance of {@link #javaType()}
     * @return the JSON atom
     * @throws IllegalArgumentException if the atom is not an instance of {@link #javaType()}
     */
    public JsonNode encode(Object atom) {
        if (!javaType.isInstance(atom)) {
            throw new IllegalArgumentException("expected a " + javaType.getSimpleName() + " for OVSDB type "
                    + jsonName + " but got " + describe(atom));
        }
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (this) {
            case INTEGER -> nodes.numberNode((Long) atom);
            case REAL -> nodes.numberNode((Double) atom);
            case BOOLEAN -> nodes.booleanNode((Boolean) atom);
            case STRING -> nodes.textNode((String) atom);
            case UUID -> nodes.arrayNode().add("uuid").add(atom.toString());
        };
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName() + " " + value;
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
