package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.Iterator;
import java.util.Map;

/**
 * Packs a row's column values straight from their JSON into the layout of {@link PackedColumns},
 * without building the Java values first: a monitor reply's rows were decoded into strings, sets,
 * maps and UUIDs only to be packed and dropped again, which cost about three quarters of a row's
 * decoding time and most of its garbage.
 *
 * <p>Only values in the shapes ovsdb-server sends take this path, checked as strictly as
 * {@link ValueCodec} checks them. Anything else (a named UUID, a set or map of more than
 * {@value PackedColumns#INLINE_MAX} elements, which a row keeps as an object, or a value that
 * breaks its type) is decoded by {@link ValueCodec} instead, which yields the same value or
 * throws the same error as it always did.
 */
final class PackedJson {
    /** {@link #measure}'s answer when {@link ValueCodec} must decode the value. */
    static final int OBJECT = -1;
    /** {@link #measure}'s answer for a column holding its default value, which a complete row does not store. */
    static final int DEFAULT = -2;

    private PackedJson() {
    }

    /**
     * A row's columns read from JSON, by position: a column is either packed from its JSON or
     * held as the Java value {@link ValueCodec} decoded; null in both when not stored.
     */
    static final class Columns {
        /** Columns packed from JSON. */
        final JsonNode[] json;
        /** For each column in {@link #json}, what {@link #measure} returned. */
        final int[] measured;
        /** Columns decoded to Java values, {@code _uuid} and {@code _version} among them. */
        final Object[] values;

        private Columns(int n) {
            json = new JsonNode[n];
            measured = new int[n];
            values = new Object[n];
        }
    }

    /**
     * Reads and checks a row's columns, in the order of the JSON so that the first bad value is
     * the one reported.
     *
     * @param table the table schema
     * @param row the {@code <row>} object
     * @param partial false to leave out columns holding their default value (a complete row)
     * @return the columns
     * @throws ValueTypeException naming {@code table.column} if a value does not fit its type
     * @throws IllegalArgumentException if the JSON names an unknown column
     */
    static Columns read(TableSchema table, ObjectNode row, boolean partial) {
        Columns columns = new Columns(table.columns().size());
        for (Iterator<Map.Entry<String, JsonNode>> it = row.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            int index = table.columnIndex(field.getKey());
            ColumnType type = table.columns().get(index).type();
            int measured = index <= TableSchema.VERSION_INDEX ? OBJECT : measure(type, field.getValue(), partial);
            if (measured >= 0) {
                columns.json[index] = field.getValue();
                columns.measured[index] = measured;
            } else if (measured == OBJECT) {
                columns.values[index] = decode(table, index, type, field.getValue());
            }
        }
        return columns;
    }

    /**
     * Decodes one column's JSON to its Java value.
     *
     * @throws ValueTypeException naming {@code table.column} if the value does not fit its type
     */
    static Object decode(TableSchema table, int index, ColumnType type, JsonNode json) {
        try {
            return ValueCodec.fromJson(type, json);
        } catch (ValueTypeException e) {
            throw e.withColumn(table.name(), table.columns().get(index).name());
        }
    }

    // ------------------------------------------------------------------ measuring

    /**
     * Checks and measures a column value: for a scalar column the bytes of its atom, for a set or
     * map the bytes of its elements with their count in front.
     *
     * @param type the column type
     * @param json the JSON value
     * @param keepDefault false to answer {@link #DEFAULT} for the column's default value
     * @return the size, {@link #OBJECT} or {@link #DEFAULT}
     */
    static int measure(ColumnType type, JsonNode json, boolean keepDefault) {
        AtomicType keyType = type.key().type();
        if (type.isMap()) {
            return measureMap(type, json, keepDefault);
        }
        if (type.isScalar()) {
            if (isTagged(json, "set")) {
                return OBJECT;
            }
            int size = atomSize(keyType, json);
            return size >= 0 && !keepDefault && isDefaultAtom(keyType, json) ? DEFAULT : size;
        }
        if (!isTagged(json, "set")) {
            // A set of one may be a bare atom; one element fits every set column's bounds.
            int size = atomSize(keyType, json);
            if (size < 0) {
                return OBJECT;
            }
            return !keepDefault && type.min() == 1 && isDefaultAtom(keyType, json) ? DEFAULT : 1 + size;
        }
        JsonNode elements = json.get(1);
        int count = elements.size();
        if (!elements.isArray() || count < type.min() || count > type.max() || count > PackedColumns.INLINE_MAX) {
            return OBJECT;
        }
        int inner = PackedColumns.varintWidth(count);
        for (int k = 0; k < count; k++) {
            JsonNode atom = elements.get(k);
            int size = atomSize(keyType, atom);
            if (size < 0 || indexOf(keyType, elements, atom, k) >= 0) {
                // Not an atom of the type, or a duplicate: ValueCodec reports it.
                return OBJECT;
            }
            inner += size;
        }
        if (!keepDefault && (count == 0 || (count == 1 && type.min() == 1 && isDefaultAtom(keyType, elements.get(0))))) {
            return DEFAULT;
        }
        return inner;
    }

    private static int measureMap(ColumnType type, JsonNode json, boolean keepDefault) {
        if (!isTagged(json, "map") || !json.get(1).isArray()) {
            return OBJECT;
        }
        AtomicType keyType = type.key().type();
        AtomicType valueType = type.value().orElseThrow().type();
        JsonNode pairs = json.get(1);
        int count = pairs.size();
        if (count < type.min() || count > type.max() || count > PackedColumns.INLINE_MAX) {
            return OBJECT;
        }
        int inner = PackedColumns.varintWidth(count);
        for (int k = 0; k < count; k++) {
            JsonNode pair = pairs.get(k);
            if (!pair.isArray() || pair.size() != 2) {
                return OBJECT;
            }
            int keySize = atomSize(keyType, pair.get(0));
            int valueSize = atomSize(valueType, pair.get(1));
            if (keySize < 0 || valueSize < 0) {
                return OBJECT;
            }
            for (int j = 0; j < k; j++) {
                if (sameAtom(keyType, pair.get(0), pairs.get(j).get(0))) {
                    return OBJECT;
                }
            }
            inner += keySize + valueSize;
        }
        if (!keepDefault && (count == 0 || (count == 1 && type.min() == 1
                && isDefaultAtom(keyType, pairs.get(0).get(0)) && isDefaultAtom(valueType, pairs.get(0).get(1))))) {
            return DEFAULT;
        }
        return inner;
    }

    /** Index of an element before {@code limit} equal to {@code atom}, or -1. */
    private static int indexOf(AtomicType type, JsonNode elements, JsonNode atom, int limit) {
        for (int j = 0; j < limit; j++) {
            if (sameAtom(type, atom, elements.get(j))) {
                return j;
            }
        }
        return -1;
    }

    private static boolean isTagged(JsonNode json, String tag) {
        return json.isArray() && json.size() == 2 && tag.equals(json.get(0).textValue());
    }

    /** The packed size of a JSON atom, or -1 if it is not an atom of the type as the server writes it. */
    private static int atomSize(AtomicType type, JsonNode json) {
        return switch (type) {
            case INTEGER -> json.isIntegralNumber() && json.canConvertToLong()
                    ? PackedColumns.zigzagWidth(json.longValue()) : -1;
            case REAL -> json.isNumber() ? 8 : -1;
            case BOOLEAN -> json.isBoolean() ? 1 : -1;
            case STRING -> json.isTextual() ? PackedColumns.sizeOfString(json.textValue()) : -1;
            // A named UUID (only in transactions) goes through ValueCodec.
            case UUID -> isTagged(json, "uuid") && UuidText.isCanonical(json.get(1).textValue()) ? 17 : -1;
        };
    }

    /** Whether two atoms that {@link #atomSize} accepted decode to equal Java atoms. */
    private static boolean sameAtom(AtomicType type, JsonNode a, JsonNode b) {
        return switch (type) {
            case INTEGER -> a.longValue() == b.longValue();
            // As Double.equals: 0.0 and -0.0 differ.
            case REAL -> Double.doubleToLongBits(a.doubleValue()) == Double.doubleToLongBits(b.doubleValue());
            case BOOLEAN -> a.booleanValue() == b.booleanValue();
            case STRING -> a.textValue().equals(b.textValue());
            // Canonical forms of the same UUID differ at most in the case of their hex digits.
            case UUID -> a.get(1).textValue().equalsIgnoreCase(b.get(1).textValue());
        };
    }

    /** Whether an atom that {@link #atomSize} accepted equals its type's default atom. */
    private static boolean isDefaultAtom(AtomicType type, JsonNode json) {
        return switch (type) {
            case INTEGER -> json.longValue() == 0;
            case REAL -> Double.doubleToLongBits(json.doubleValue()) == 0;
            case BOOLEAN -> !json.booleanValue();
            case STRING -> json.textValue().isEmpty();
            case UUID -> UuidText.mostSignificantBits(json.get(1).textValue()) == 0
                    && UuidText.leastSignificantBits(json.get(1).textValue()) == 0;
        };
    }

    // ------------------------------------------------------------------ writing

    /**
     * The bytes a measured column takes in a row.
     *
     * @param type the column type
     * @param measured what {@link #measure} returned, a size
     * @return the packed size
     */
    static int packedSize(ColumnType type, int measured) {
        return type.isScalar() ? measured : PackedColumns.varintWidth(measured << 1) + measured;
    }

    /**
     * Writes a measured column value.
     *
     * @param out the row's buffer
     * @param type the column type
     * @param json the JSON value
     * @param measured what {@link #measure} returned, a size
     */
    static void write(PackedColumns.Sink out, ColumnType type, JsonNode json, int measured) {
        AtomicType keyType = type.key().type();
        if (type.isScalar()) {
            writeAtom(out, keyType, json);
            return;
        }
        // As PackedColumns lays out an inline set or map: byte length, count, elements.
        out.varint(measured << 1);
        if (type.isMap()) {
            AtomicType valueType = type.value().orElseThrow().type();
            JsonNode pairs = json.get(1);
            out.varint(pairs.size());
            for (int k = 0; k < pairs.size(); k++) {
                JsonNode pair = pairs.get(k);
                writeAtom(out, keyType, pair.get(0));
                writeAtom(out, valueType, pair.get(1));
            }
        } else if (isTagged(json, "set")) {
            JsonNode elements = json.get(1);
            out.varint(elements.size());
            for (int k = 0; k < elements.size(); k++) {
                writeAtom(out, keyType, elements.get(k));
            }
        } else {
            out.varint(1);
            writeAtom(out, keyType, json);
        }
    }

    private static void writeAtom(PackedColumns.Sink out, AtomicType type, JsonNode json) {
        switch (type) {
            case INTEGER -> out.zigzag(json.longValue());
            case REAL -> out.fixed64(Double.doubleToRawLongBits(json.doubleValue()));
            case BOOLEAN -> out.write(json.booleanValue() ? 1 : 0);
            case STRING -> PackedColumns.packString(out, json.textValue());
            case UUID -> {
                String text = json.get(1).textValue();
                PackedColumns.packUuid(out, UuidText.mostSignificantBits(text), UuidText.leastSignificantBits(text));
            }
        }
    }
}
