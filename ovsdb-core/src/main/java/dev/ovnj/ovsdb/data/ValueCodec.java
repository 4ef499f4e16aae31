package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Converts column values between OVSDB JSON (RFC 7047 section 5.1) and Java, guided by the column
 * type.
 *
 * <p>Java representation: a scalar column (min = max = 1, no value type) holds the bare atom; any
 * other set column, including an optional one, holds an immutable {@link Set}; a map column holds
 * an immutable {@link Map} (of one entry, a compact one that behaves as {@code Map.of(k, v)}).
 * Atoms are {@link Long}, {@link Double}, {@link Boolean}, {@link String}, {@link UUID} or, for
 * uuid columns in a transaction, {@link NamedUuid}.
 *
 * <p>Decoding checks shape, atomic types and element counts but not enum or range constraints:
 * values from the server are already valid, and {@link ValueChecker} checks values before sending.
 */
public final class ValueCodec {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    // Sorting makes encoded sets and maps deterministic, which keeps logs and test expectations stable.
    private static final Comparator<Object> ATOM_ORDER = ValueCodec::compareAtoms;
    private static final Comparator<Map.Entry<?, ?>> ENTRY_ORDER = (a, b) -> compareAtoms(a.getKey(), b.getKey());

    private ValueCodec() {
    }

    /**
     * Decodes a JSON value of the given column type.
     *
     * @param type the column type
     * @param json the JSON value; a set of one may be a bare atom
     * @return the Java value
     * @throws ValueTypeException if the JSON does not fit the type
     */
    public static Object fromJson(ColumnType type, JsonNode json) {
        if (type.isMap()) {
            return mapFromJson(type, json);
        }
        // A set of one may be a bare atom; its elements are read in place, without a copy.
        JsonNode elements = isTagged(json, "set") ? elementsOf(type, json) : null;
        if (type.isScalar()) {
            if (elements != null && elements.size() != 1) {
                throw new ValueTypeException(type, json.toString(), "expected exactly one atom");
            }
            return atomFromJson(type, type.key(), elements == null ? json : elements.get(0));
        }
        int count = elements == null ? 1 : elements.size();
        checkCount(type, json, count);
        if (elements == null) {
            return Set.of(atomFromJson(type, type.key(), json));
        }
        Object[] atoms = new Object[count];
        for (int i = 0; i < count; i++) {
            atoms[i] = atomFromJson(type, type.key(), elements.get(i));
        }
        try {
            return Set.of(atoms);
        } catch (IllegalArgumentException duplicate) {
            throw new ValueTypeException(type, json.toString(), "set contains duplicate element "
                    + elements.get(firstDuplicate(atoms)));
        }
    }

    private static Map<Object, Object> mapFromJson(ColumnType type, JsonNode json) {
        if (!isTagged(json, "map") || !json.get(1).isArray()) {
            throw new ValueTypeException(type, json.toString(), "expected [\"map\", [[key, value], ...]]");
        }
        BaseType valueType = type.value().orElseThrow();
        JsonNode pairs = json.get(1);
        int count = pairs.size();
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map.Entry<Object, Object>[] entries = new Map.Entry[count];
        for (int i = 0; i < count; i++) {
            JsonNode pair = pairs.get(i);
            if (!pair.isArray() || pair.size() != 2) {
                throw new ValueTypeException(type, json.toString(), "map entry " + pair + " is not a [key, value] pair");
            }
            entries[i] = Map.entry(atomFromJson(type, type.key(), pair.get(0)), atomFromJson(type, valueType, pair.get(1)));
        }
        if (count == 1) {
            checkCount(type, json, 1);
            return new SingleEntryMap<>(entries[0].getKey(), entries[0].getValue());
        }
        Map<Object, Object> map;
        try {
            map = Map.ofEntries(entries);
        } catch (IllegalArgumentException duplicate) {
            Object[] keys = new Object[count];
            for (int i = 0; i < count; i++) {
                keys[i] = entries[i].getKey();
            }
            throw new ValueTypeException(type, json.toString(), "map contains duplicate key "
                    + pairs.get(firstDuplicate(keys)).get(0));
        }
        checkCount(type, json, map.size());
        return map;
    }

    /** Index of the first atom equal to an earlier one; only called once a duplicate is known. */
    private static int firstDuplicate(Object[] atoms) {
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < atoms.length; i++) {
            if (!seen.add(atoms[i])) {
                return i;
            }
        }
        throw new IllegalStateException("no duplicate");
    }

    private static boolean isTagged(JsonNode json, String tag) {
        return json.isArray() && json.size() == 2 && tag.equals(json.get(0).textValue());
    }

    private static JsonNode elementsOf(ColumnType type, JsonNode json) {
        if (!json.get(1).isArray()) {
            throw new ValueTypeException(type, json.toString(), "expected [\"set\", [atom, ...]]");
        }
        return json.get(1);
    }

    private static void checkCount(ColumnType type, JsonNode json, int count) {
        if (count < type.min() || count > type.max()) {
            throw new ValueTypeException(type, json.toString(), "expected " + bounds(type) + " elements but found "
                    + count);
        }
    }

    private static String bounds(ColumnType type) {
        return type.min() + ".." + (type.max() == ColumnType.UNLIMITED ? "unlimited" : String.valueOf(type.max()));
    }

    /**
     * Decodes one atom; for uuid base types {@code ["named-uuid", name]} is accepted as well.
     *
     * @param base the base type
     * @param json the JSON atom
     * @return the Java atom
     * @throws ValueTypeException if the JSON is not an atom of the base type
     */
    public static Object atomFromJson(BaseType base, JsonNode json) {
        return atomFromJson(new ColumnType(base, Optional.empty(), 1, 1), base, json);
    }

    private static Object atomFromJson(ColumnType type, BaseType base, JsonNode json) {
        Optional<Object> atom = base.type().decode(json);
        if (atom.isPresent()) {
            return atom.get();
        }
        if (base.type() == AtomicType.UUID && isTagged(json, "named-uuid") && json.get(1).isTextual()) {
            try {
                return new NamedUuid(json.get(1).textValue());
            } catch (IllegalArgumentException e) {
                throw new ValueTypeException(type, json.toString(), e.getMessage());
            }
        }
        throw new ValueTypeException(type, json.toString(), "expected " + describeAtom(base.type()));
    }

    private static String describeAtom(AtomicType type) {
        return switch (type) {
            case INTEGER -> "an integer";
            case REAL -> "a number";
            case BOOLEAN -> "a boolean";
            case STRING -> "a string";
            case UUID -> "[\"uuid\", \"<uuid>\"] or [\"named-uuid\", \"<id>\"]";
        };
    }

    /**
     * Encodes a Java value of the given column type. Sets are always written as
     * {@code ["set", [...]]}, which the server accepts for every set size, and {@link Long} atoms
     * always as JSON integers.
     *
     * @param type the column type
     * @param value the Java value in the representation described in the class comment
     * @return the JSON value
     * @throws ValueTypeException if the Java value does not have the shape of the type
     */
    public static JsonNode toJson(ColumnType type, Object value) {
        if (type.isMap()) {
            if (!(value instanceof Map<?, ?> map)) {
                throw new ValueTypeException(type, describe(value), "expected a java.util.Map");
            }
            BaseType valueType = type.value().orElseThrow();
            // Arrays sized to their contents, and no sorted copy of a map or set of one element:
            // the engine encodes every column of every row it writes this way.
            ArrayNode pairs = NODES.arrayNode(map.size());
            for (Map.Entry<?, ?> entry : map.size() > 1 ? sorted(map) : map.entrySet()) {
                pairs.add(NODES.arrayNode(2)
                        .add(atomToJson(type, type.key(), entry.getKey()))
                        .add(atomToJson(type, valueType, entry.getValue())));
            }
            return NODES.arrayNode(2).add("map").add(pairs);
        }
        if (type.isScalar()) {
            return atomToJson(type, type.key(), value);
        }
        if (!(value instanceof Collection<?> collection)) {
            throw new ValueTypeException(type, describe(value), "expected a java.util.Set");
        }
        ArrayNode atoms = NODES.arrayNode(collection.size());
        if (collection.size() > 1) {
            List<Object> elements = new ArrayList<>(collection);
            elements.sort(ATOM_ORDER);
            for (Object element : elements) {
                atoms.add(atomToJson(type, type.key(), element));
            }
        } else {
            for (Object element : collection) {
                atoms.add(atomToJson(type, type.key(), element));
            }
        }
        return NODES.arrayNode(2).add("set").add(atoms);
    }

    private static List<Map.Entry<?, ?>> sorted(Map<?, ?> map) {
        List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
        entries.sort(ENTRY_ORDER);
        return entries;
    }

    /**
     * Encodes one atom.
     *
     * @param base the base type
     * @param atom the Java atom; a {@link NamedUuid} is accepted for uuid base types
     * @return the JSON atom
     * @throws ValueTypeException if the atom's class does not match the base type
     */
    public static JsonNode atomToJson(BaseType base, Object atom) {
        return atomToJson(new ColumnType(base, Optional.empty(), 1, 1), base, atom);
    }

    private static JsonNode atomToJson(ColumnType type, BaseType base, Object atom) {
        if (atom instanceof NamedUuid named && base.type() == AtomicType.UUID) {
            return NODES.arrayNode().add("named-uuid").add(named.name());
        }
        if (!base.type().javaType().isInstance(atom)) {
            throw new ValueTypeException(type, describe(atom),
                    "expected a " + base.type().javaType().getSimpleName() + " atom");
        }
        return base.type().encode(atom);
    }

    /**
     * Returns the value a column has when nothing was written to it: {@code min} default atoms
     * (0, 0.0, false, "", the all-zero UUID), so an empty set or map when {@code min} is 0.
     *
     * @param type the column type
     * @return the default Java value
     */
    public static Object defaultValue(ColumnType type) {
        Object key = type.key().type().defaultAtom();
        if (type.isScalar()) {
            return key;
        }
        if (type.isMap()) {
            return type.min() == 0 ? Map.of() : Map.of(key, type.value().orElseThrow().type().defaultAtom());
        }
        return type.min() == 0 ? Set.of() : Set.of(key);
    }

    /**
     * Describes a Java value for error messages, with its class.
     *
     * @param value any value
     * @return e.g. {@code Integer 5} or {@code List [a]}
     */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value instanceof String s ? NODES.textNode(s).toString() : String.valueOf(value);
        return kind(value) + " " + text;
    }

    // JDK collection classes have internal names such as ListN; the interface is what the caller chose.
    private static String kind(Object value) {
        if (value instanceof Set<?>) {
            return "Set";
        }
        if (value instanceof List<?>) {
            return "List";
        }
        if (value instanceof Map<?, ?>) {
            return "Map";
        }
        return value.getClass().getSimpleName();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareAtoms(Object left, Object right) {
        if (left != null && right != null && left.getClass() == right.getClass() && left instanceof Comparable) {
            return ((Comparable) left).compareTo(right);
        }
        return String.valueOf(left).compareTo(String.valueOf(right));
    }
}
