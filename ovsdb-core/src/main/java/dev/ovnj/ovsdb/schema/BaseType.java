package dev.ovnj.ovsdb.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code <base-type>} of RFC 7047 section 3.2: an atomic type plus its constraints.
 *
 * <p>Unconstrained bounds hold the widest value of the Java type ({@link Long#MIN_VALUE},
 * {@link Long#MAX_VALUE}, {@code -Double.MAX_VALUE}, {@code Double.MAX_VALUE}, 0 and
 * {@link Long#MAX_VALUE} for lengths), so checks never need to ask whether a bound exists.
 *
 * @param type the atomic type
 * @param enumValues the permitted atoms, in schema order, if the schema restricts them
 * @param minInteger the smallest permitted integer
 * @param maxInteger the largest permitted integer
 * @param minReal the smallest permitted real
 * @param maxReal the largest permitted real
 * @param minLength the shortest permitted string, in Unicode code points
 * @param maxLength the longest permitted string, in Unicode code points
 * @param refTable the table referenced by a uuid, if any
 * @param refType the strength of the reference; {@link RefType#STRONG} unless the schema says weak
 */
public record BaseType(
        AtomicType type,
        Optional<Set<Object>> enumValues,
        long minInteger,
        long maxInteger,
        double minReal,
        double maxReal,
        long minLength,
        long maxLength,
        Optional<String> refTable,
        RefType refType) {

    /**
     * Validates the components and freezes the enum set, keeping its order for messages.
     *
     * @param type the atomic type
     * @param enumValues the permitted atoms
     * @param minInteger the smallest permitted integer
     * @param maxInteger the largest permitted integer
     * @param minReal the smallest permitted real
     * @param maxReal the largest permitted real
     * @param minLength the shortest permitted string
     * @param maxLength the longest permitted string
     * @param refTable the referenced table
     * @param refType the reference strength
     */
    public BaseType {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(enumValues, "enumValues");
        Objects.requireNonNull(refTable, "refTable");
        Objects.requireNonNull(refType, "refType");
        enumValues = enumValues.map(values -> Collections.unmodifiableSet(new LinkedHashSet<>(values)));
        for (Object atom : enumValues.orElse(Set.of())) {
            if (!type.javaType().isInstance(atom)) {
                throw new IllegalArgumentException("enum value " + atom + " is not a " + type);
            }
        }
        if (refTable.isPresent() && type != AtomicType.UUID) {
            throw new IllegalArgumentException("refTable is only allowed for uuid, not " + type);
        }
    }

    /**
     * Returns an unconstrained base type.
     *
     * @param type the atomic type
     * @return the base type without enum, bounds or reference
     */
    public static BaseType of(AtomicType type) {
        return new BaseType(type, Optional.empty(), Long.MIN_VALUE, Long.MAX_VALUE,
                -Double.MAX_VALUE, Double.MAX_VALUE, 0, Long.MAX_VALUE, Optional.empty(), RefType.STRONG);
    }

    /**
     * Returns the same atomic type without any constraint, as RFC 7047 requires for the argument
     * of an arithmetic mutation.
     *
     * @return the unconstrained base type
     */
    public BaseType withoutConstraints() {
        return of(type);
    }

    /**
     * Tells whether this base type refers to rows of another table.
     *
     * @return true if {@link #refTable()} is present
     */
    public boolean isReference() {
        return refTable.isPresent();
    }

    /**
     * Tells whether the schema restricts atoms beyond their atomic type.
     *
     * @return true if any enum, bound or reference is present
     */
    public boolean hasConstraints() {
        return enumValues.isPresent()
                || minInteger != Long.MIN_VALUE || maxInteger != Long.MAX_VALUE
                || minReal != -Double.MAX_VALUE || maxReal != Double.MAX_VALUE
                || minLength != 0 || maxLength != Long.MAX_VALUE
                || refTable.isPresent();
    }

    /**
     * Encodes this base type in the schema grammar: a bare type name when unconstrained.
     *
     * @return the JSON {@code <base-type>}
     */
    public JsonNode toJson() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (!hasConstraints()) {
            return nodes.textNode(type.jsonName());
        }
        ObjectNode json = nodes.objectNode();
        json.put("type", type.jsonName());
        enumValues.ifPresent(values -> {
            ArrayNode atoms = nodes.arrayNode();
            values.forEach(atom -> atoms.add(type.encode(atom)));
            json.set("enum", nodes.arrayNode().add("set").add(atoms));
        });
        if (minInteger != Long.MIN_VALUE) {
            json.put("minInteger", minInteger);
        }
        if (maxInteger != Long.MAX_VALUE) {
            json.put("maxInteger", maxInteger);
        }
        if (minReal != -Double.MAX_VALUE) {
            json.put("minReal", minReal);
        }
        if (maxReal != Double.MAX_VALUE) {
            json.put("maxReal", maxReal);
        }
        if (minLength != 0) {
            json.put("minLength", minLength);
        }
        if (maxLength != Long.MAX_VALUE) {
            json.put("maxLength", maxLength);
        }
        refTable.ifPresent(table -> {
            json.put("refTable", table);
            json.put("refType", refType.jsonName());
        });
        return json;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
