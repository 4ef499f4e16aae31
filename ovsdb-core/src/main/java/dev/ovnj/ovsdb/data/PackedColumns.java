package dev.ovnj.ovsdb.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.schema.ColumnType;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The compact form in which a {@link Row} keeps its column values: one {@code byte[]} for all of
 * them, decoded per column on read, because a cache holds many rows and a decoded row's strings,
 * maps and sets cost about twice its JSON (a {@code String} is 24 bytes plus a 16-byte array
 * header before its characters).
 *
 * <p>Layout: one byte telling whether the row is partial; a bitmap of {@code ceil(columns / 8)}
 * bytes, bit {@code i} set when column {@code i} is stored ({@code _uuid}'s bit only says whether
 * the row carries it: the UUID itself is a field of the row); then the stored columns' values in
 * position order. A complete row stores only columns that differ from their default (an unstored
 * column reads as its default, {@code _version} as absent); a partial row stores the columns it
 * carries.
 *
 * <p>Values: a scalar column holds its atom; a set or map column starts with a varint {@code h}:
 * odd, {@code h >>> 1} indexes an object kept beside the bytes (a set or map of more than
 * {@value #INLINE_MAX} elements, e.g. a router's {@code load_balancer} set, kept as an object so
 * that an {@code update2} diff shares its structure); even, {@code h >>> 1} bytes follow, a varint
 * element count then the elements (a map's as key, value). Atoms: integers as zigzag varints,
 * reals as 8 bytes, booleans as one byte, UUIDs as a tag byte and 16 bytes (or a tag and the name
 * of a {@link NamedUuid}), strings as a varint {@code (length << 2) | form} and their bytes: form
 * 0 Latin-1, 1 UTF-16 code units (two bytes each, lossless even for an unpaired surrogate), 2 two
 * characters a byte from {@value #NIBBLES} (addresses, ports and lists of them: a VIP's backends
 * take half their characters). Sizes are measured first, so a row's bytes are written once.
 *
 * <p>The data of a row is the {@code byte[]} itself, or an {@code Object[]} holding the
 * {@code byte[]} then the objects its values refer to.
 */
final class PackedColumns {
    /** Sets and maps with more elements are kept as objects beside the bytes. */
    static final int INLINE_MAX = 32;
    /** The characters a nibble-packed string may hold, by their 4-bit code. */
    static final String NIBBLES = "0123456789.:,/- ";

    private static final int FORM_LATIN1 = 0;
    private static final int FORM_UTF16 = 1;
    private static final int FORM_NIBBLES = 2;
    private static final int UUID_PLAIN = 0;
    private static final int UUID_NAMED = 1;
    private static final byte[] NIBBLE_CHARS = NIBBLES.getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] NIBBLE_OF = nibbleCodes();

    private PackedColumns() {
    }

    private static byte[] nibbleCodes() {
        byte[] codes = new byte[128];
        Arrays.fill(codes, (byte) -1);
        for (int i = 0; i < NIBBLE_CHARS.length; i++) {
            codes[NIBBLE_CHARS[i]] = (byte) i;
        }
        return codes;
    }

    // ------------------------------------------------------------------ packing

    /**
     * Packs a row's values.
     *
     * @param table the table schema
     * @param values one value per column, null where not stored; {@code values[0]} (the UUID) is
     *     only tested for null
     * @param partial whether the row is partial
     * @return the row's data
     */
    static Object pack(TableSchema table, Object[] values, boolean partial) {
        return pack(table, values, null, partial);
    }

    /**
     * Packs a row whose columns are partly still JSON: a column is stored if it has a Java value
     * or a JSON value.
     *
     * @param table the table schema
     * @param values one Java value per column, null where none; {@code values[0]} (the UUID) is
     *     only tested for null
     * @param json the columns packed from JSON (measured by {@link PackedJson}), or null for none
     * @param partial whether the row is partial
     * @return the row's data
     */
    static Object pack(TableSchema table, Object[] values, PackedJson.Columns json, boolean partial) {
        List<ColumnSchema> columns = table.columns();
        int n = columns.size();
        // Measured first, so the bytes are written once into an array of their exact size.
        int size = 1 + ((n + 7) >>> 3);
        int kept = 0;
        for (int i = 1; i < n; i++) {
            ColumnType type = columns.get(i).type();
            if (json != null && json.json[i] != null) {
                size += PackedJson.packedSize(type, json.measured[i]);
                continue;
            }
            Object v = values[i];
            if (v == null) {
                continue;
            }
            if (!type.isScalar() && sizeOf(v) > INLINE_MAX) {
                size += varintWidth((kept++ << 1) | 1);
            } else {
                size += sizeOfValue(type, v);
            }
        }
        Sink out = new Sink(size);
        out.write(partial ? 1 : 0);
        int bitmap = out.size;
        out.size += (n + 7) >>> 3;
        for (int i = 0; i < n; i++) {
            JsonNode fromJson = json == null ? null : json.json[i];
            if (values[i] == null && fromJson == null) {
                continue;
            }
            out.bytes[bitmap + (i >>> 3)] |= (byte) (1 << (i & 7));
            if (fromJson != null) {
                PackedJson.write(out, columns.get(i).type(), fromJson, json.measured[i]);
            } else if (i != TableSchema.UUID_INDEX) {
                packValue(out, columns.get(i).type(), values[i]);
            }
        }
        return finish(out, size);
    }

    /** In {@link #repack}'s changes: the column is no longer stored. */
    static final Object UNSTORED = new Object();

    /**
     * Packs a row again with some columns changed, copying the bytes of the others: a monitor's
     * {@code modify} touches a column or two of a row, and decoding every other column to pack it
     * again cost more than the change.
     *
     * @param table the table schema
     * @param data the row's current data
     * @param changed per column: null to keep it, {@link #UNSTORED} to drop it, else its new value
     * @return the new row's data, partial if the row was
     */
    static Object repack(TableSchema table, Object data, Object[] changed) {
        byte[] b = bytes(data);
        List<ColumnSchema> columns = table.columns();
        int n = columns.size();
        int header = 1 + ((n + 7) >>> 3);
        // Where each kept column's bytes lie; a kept set or map held as an object is packed again
        // as that same object, since its index beside the bytes may change.
        int[] start = new int[n];
        int[] end = new int[n];
        Object[] values = new Object[n];
        int pos = header;
        for (int i = 1; i < n; i++) {
            ColumnType type = columns.get(i).type();
            if (stored(b, i)) {
                start[i] = pos;
                pos = skipValue(b, pos, type);
                end[i] = pos;
                if (changed[i] == null && !type.isScalar() && (varint(b, start[i]) & 1) != 0) {
                    values[i] = readValue(b, start[i], type, data);
                }
            }
            if (changed[i] != null) {
                values[i] = changed[i] == UNSTORED ? null : changed[i];
            }
        }
        int size = header;
        int kept = 0;
        for (int i = 1; i < n; i++) {
            Object v = values[i];
            ColumnType type = columns.get(i).type();
            if (v != null) {
                if (!type.isScalar() && sizeOf(v) > INLINE_MAX) {
                    size += varintWidth((kept++ << 1) | 1);
                } else {
                    size += sizeOfValue(type, v);
                }
            } else if (changed[i] == null) {
                size += end[i] - start[i];
            }
        }
        Sink out = new Sink(size);
        out.write(b[0]);
        int bitmap = out.size;
        out.size += (n + 7) >>> 3;
        if (stored(b, TableSchema.UUID_INDEX)) {
            out.bytes[bitmap] |= 1 << TableSchema.UUID_INDEX;
        }
        for (int i = 1; i < n; i++) {
            if (values[i] != null) {
                packValue(out, columns.get(i).type(), values[i]);
            } else if (changed[i] == null && end[i] > start[i]) {
                System.arraycopy(b, start[i], out.bytes, out.size, end[i] - start[i]);
                out.size += end[i] - start[i];
            } else {
                continue;
            }
            out.bytes[bitmap + (i >>> 3)] |= (byte) (1 << (i & 7));
        }
        return finish(out, size);
    }

    private static Object finish(Sink out, int size) {
        if (out.size != size) {
            throw new IllegalStateException("packed " + out.size + " bytes, measured " + size);
        }
        if (out.objects == null) {
            return out.bytes;
        }
        Object[] data = new Object[out.objectCount + 1];
        data[0] = out.bytes;
        System.arraycopy(out.objects, 0, data, 1, out.objectCount);
        return data;
    }

    private static int sizeOf(Object value) {
        return value instanceof Map<?, ?> m ? m.size() : ((Collection<?>) value).size();
    }

    private static int sizeOfValue(ColumnType type, Object value) {
        if (type.isScalar()) {
            return sizeOfAtom(type.key().type(), value);
        }
        int count = sizeOf(value);
        int inner = sizeOfElements(type, value, count);
        return varintWidth(inner << 1) + inner;
    }

    private static int sizeOfElements(ColumnType type, Object value, int count) {
        int inner = varintWidth(count);
        if (value instanceof Map<?, ?> map) {
            AtomicType keyType = type.key().type();
            AtomicType valueType = type.value().orElseThrow().type();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                inner += sizeOfAtom(keyType, e.getKey()) + sizeOfAtom(valueType, e.getValue());
            }
        } else {
            AtomicType keyType = type.key().type();
            for (Object atom : (Collection<?>) value) {
                inner += sizeOfAtom(keyType, atom);
            }
        }
        return inner;
    }

    private static int sizeOfAtom(AtomicType type, Object atom) {
        return switch (type) {
            case INTEGER -> zigzagWidth((Long) atom);
            case REAL -> 8;
            case BOOLEAN -> 1;
            case STRING -> sizeOfString((String) atom);
            case UUID -> atom instanceof NamedUuid named ? 1 + sizeOfString(named.name()) : 17;
        };
    }

    /** The bytes an integer atom takes: a zigzag varint. */
    static int zigzagWidth(long v) {
        long z = (v << 1) ^ (v >> 63);
        int width = 1;
        for (z >>>= 7; z != 0; z >>>= 7) {
            width++;
        }
        return width;
    }

    /** The bytes a string atom takes. */
    static int sizeOfString(String s) {
        int length = s.length();
        int form = formOf(s);
        int bytes = switch (form) {
            case FORM_NIBBLES -> (length + 1) >>> 1;
            case FORM_LATIN1 -> length;
            default -> 2 * length;
        };
        return varintWidth((length << 2) | form) + bytes;
    }

    /** The form a string is packed in: two characters a byte if it can, else Latin-1, else UTF-16. */
    private static int formOf(String s) {
        int length = s.length();
        boolean nibbles = length > 1;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                return FORM_UTF16;
            }
            if (nibbles && (c >= 128 || NIBBLE_OF[c] < 0)) {
                nibbles = false;
            }
        }
        return nibbles ? FORM_NIBBLES : FORM_LATIN1;
    }

    private static void packValue(Sink out, ColumnType type, Object value) {
        if (type.isScalar()) {
            packAtom(out, type.key(), value);
            return;
        }
        int count = sizeOf(value);
        if (count > INLINE_MAX) {
            out.varint((out.keep(value) << 1) | 1);
            return;
        }
        // The byte length goes before the elements, so that a read of a later column skips this one.
        out.varint(sizeOfElements(type, value, count) << 1);
        out.varint(count);
        if (value instanceof Map<?, ?> map) {
            BaseType valueType = type.value().orElseThrow();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                packAtom(out, type.key(), e.getKey());
                packAtom(out, valueType, e.getValue());
            }
        } else {
            for (Object atom : (Collection<?>) value) {
                packAtom(out, type.key(), atom);
            }
        }
    }

    private static void packAtom(Sink out, BaseType base, Object atom) {
        switch (base.type()) {
            case INTEGER -> out.zigzag((Long) atom);
            case REAL -> out.fixed64(Double.doubleToRawLongBits((Double) atom));
            case BOOLEAN -> out.write((Boolean) atom ? 1 : 0);
            case STRING -> packString(out, (String) atom);
            case UUID -> {
                if (atom instanceof NamedUuid named) {
                    out.write(UUID_NAMED);
                    packString(out, named.name());
                } else {
                    UUID u = (UUID) atom;
                    packUuid(out, u.getMostSignificantBits(), u.getLeastSignificantBits());
                }
            }
        }
    }

    /** Writes a UUID atom (not a named one) from its two halves. */
    static void packUuid(Sink out, long mostSignificantBits, long leastSignificantBits) {
        out.write(UUID_PLAIN);
        out.fixed64(mostSignificantBits);
        out.fixed64(leastSignificantBits);
    }

    /** Writes a string atom. */
    static void packString(Sink out, String s) {
        int length = s.length();
        switch (formOf(s)) {
            case FORM_NIBBLES -> {
                out.varint((length << 2) | FORM_NIBBLES);
                for (int i = 0; i < length; i += 2) {
                    int high = NIBBLE_OF[s.charAt(i)];
                    int low = i + 1 < length ? NIBBLE_OF[s.charAt(i + 1)] : 0;
                    out.write((high << 4) | low);
                }
            }
            case FORM_LATIN1 -> {
                out.varint((length << 2) | FORM_LATIN1);
                for (int i = 0; i < length; i++) {
                    out.bytes[out.size++] = (byte) s.charAt(i);
                }
            }
            default -> {
                // UTF-16 code units as they are, so that even an unpaired surrogate survives.
                out.varint((length << 2) | FORM_UTF16);
                for (int i = 0; i < length; i++) {
                    char c = s.charAt(i);
                    out.write(c >>> 8);
                    out.write(c);
                }
            }
        }
    }

    // ------------------------------------------------------------------ reading

    /** The packed bytes of a row's data. */
    static byte[] bytes(Object data) {
        return data instanceof byte[] b ? b : (byte[]) ((Object[]) data)[0];
    }

    /**
     * Whether the row is partial.
     *
     * @param data the row's data
     * @return true for a partial row
     */
    static boolean partial(Object data) {
        return bytes(data)[0] != 0;
    }

    /**
     * Whether column {@code i} is stored.
     *
     * @param data the row's data
     * @param i the column's position
     * @return true if stored
     */
    static boolean stored(Object data, int i) {
        return (bytes(data)[1 + (i >>> 3)] & (1 << (i & 7))) != 0;
    }

    /**
     * Decodes the stored value of column {@code i}, which {@link #stored} says is there.
     *
     * @param table the table schema
     * @param data the row's data
     * @param i the column's position, not {@code _uuid}
     * @return a fresh value in the representation of {@link ValueCodec}
     */
    static Object value(TableSchema table, Object data, int i) {
        byte[] b = bytes(data);
        return readValue(b, position(table, b, i), table.columns().get(i).type(), data);
    }

    /** Where the stored value of column {@code i} starts. */
    private static int position(TableSchema table, byte[] b, int i) {
        List<ColumnSchema> columns = table.columns();
        int pos = 1 + ((columns.size() + 7) >>> 3);
        for (int j = 1; j < i; j++) {
            if ((b[1 + (j >>> 3)] & (1 << (j & 7))) != 0) {
                pos = skipValue(b, pos, columns.get(j).type());
            }
        }
        return pos;
    }

    // In-place comparisons: each answers what the same test on the decoded value would, without
    // building the column's strings, set or map (an index lookup and the engine's planner test a
    // column of every candidate row on every pass, and a decoded value was garbage at once).

    /**
     * Whether the stored value of column {@code i} equals {@code value}, as
     * {@code value.equals(value(table, data, i))} would say.
     *
     * @param table the table schema
     * @param data the row's data
     * @param i the column's position, stored, not {@code _uuid}
     * @param value a value in the representation of {@link ValueCodec}
     * @return true if equal
     */
    static boolean valueEquals(TableSchema table, Object data, int i, Object value) {
        byte[] b = bytes(data);
        int pos = position(table, b, i);
        ColumnType type = table.columns().get(i).type();
        if (type.isScalar()) {
            return atomEquals(b, pos, type.key().type(), value);
        }
        int h = varint(b, pos);
        if ((h & 1) != 0) {
            return value.equals(((Object[]) data)[1 + (h >>> 1)]);
        }
        pos += varintWidth(h);
        int count = varint(b, pos);
        pos += varintWidth(count);
        AtomicType keyType = type.key().type();
        if (type.isMap()) {
            if (!(value instanceof Map<?, ?> map) || map.size() != count) {
                return false;
            }
            AtomicType valueType = type.value().orElseThrow().type();
            // Equal sizes and distinct packed keys: equal when every entry of the other map is found.
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) {
                    return false;
                }
                int at = mapValueAt(b, pos, count, keyType, valueType, e.getKey());
                if (at < 0 || !atomEquals(b, at, valueType, e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (!(value instanceof Set<?> set) || set.size() != count) {
            return false;
        }
        // Equal sizes and distinct elements on both sides: equal when every element is found.
        for (Object atom : set) {
            if (atom == null || !setHas(b, pos, count, keyType, atom)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether column {@code i} of two rows of the same table is packed alike: both unstored, or
     * stored as equal bytes, or as the same kept object. True means equal values; false means
     * only that they must be compared decoded (equal maps and sets may be packed in other orders).
     *
     * @param table the rows' table schema
     * @param a one row's data
     * @param b the other row's data
     * @param i the column's position, not {@code _uuid}
     * @return true if packed alike
     */
    static boolean packedAlike(TableSchema table, Object a, Object b, int i) {
        if (partial(a) != partial(b) || stored(a, i) != stored(b, i)) {
            return false;
        }
        if (!stored(a, i)) {
            return true;
        }
        byte[] ba = bytes(a);
        byte[] bb = bytes(b);
        ColumnType type = table.columns().get(i).type();
        int pa = position(table, ba, i);
        int pb = position(table, bb, i);
        if (!type.isScalar()) {
            int ha = varint(ba, pa);
            int hb = varint(bb, pb);
            if ((ha & 1) != 0 || (hb & 1) != 0) {
                return (ha & 1) != 0 && (hb & 1) != 0 && ((Object[]) a)[1 + (ha >>> 1)] == ((Object[]) b)[1 + (hb >>> 1)];
            }
        }
        int ea = skipValue(ba, pa, type);
        int eb = skipValue(bb, pb, type);
        return Arrays.equals(ba, pa, ea, bb, pb, eb);
    }

    /**
     * Whether the stored map column {@code i} maps {@code key} to {@code value}, as
     * {@code value.equals(map.get(key))} on the decoded map would say.
     *
     * @param table the table schema
     * @param data the row's data
     * @param i the position of a stored map column
     * @param key the key
     * @param value the value, not null
     * @return true if the map has that entry
     */
    static boolean mapHas(TableSchema table, Object data, int i, Object key, Object value) {
        byte[] b = bytes(data);
        int pos = position(table, b, i);
        ColumnType type = table.columns().get(i).type();
        int h = varint(b, pos);
        if ((h & 1) != 0) {
            return value.equals(((Map<?, ?>) ((Object[]) data)[1 + (h >>> 1)]).get(key));
        }
        pos += varintWidth(h);
        int count = varint(b, pos);
        pos += varintWidth(count);
        AtomicType valueType = type.value().orElseThrow().type();
        int at = mapValueAt(b, pos, count, type.key().type(), valueType, key);
        return at >= 0 && atomEquals(b, at, valueType, value);
    }

    /**
     * Whether the stored set column {@code i} holds {@code atom} (a scalar column: equals it), as
     * {@code set.contains(atom)} on the decoded set would say.
     *
     * @param table the table schema
     * @param data the row's data
     * @param i the position of a stored set or scalar column
     * @param atom the element, not null
     * @return true if held
     */
    static boolean setHas(TableSchema table, Object data, int i, Object atom) {
        byte[] b = bytes(data);
        int pos = position(table, b, i);
        ColumnType type = table.columns().get(i).type();
        if (type.isScalar()) {
            return atomEquals(b, pos, type.key().type(), atom);
        }
        int h = varint(b, pos);
        if ((h & 1) != 0) {
            return ((Collection<?>) ((Object[]) data)[1 + (h >>> 1)]).contains(atom);
        }
        pos += varintWidth(h);
        int count = varint(b, pos);
        return setHas(b, pos + varintWidth(count), count, type.key().type(), atom);
    }

    private static boolean setHas(byte[] b, int pos, int count, AtomicType type, Object atom) {
        for (int k = 0; k < count; k++) {
            if (atomEquals(b, pos, type, atom)) {
                return true;
            }
            pos = skipAtom(b, pos, type);
        }
        return false;
    }

    /**
     * Where the value of the entry with {@code key} starts among {@code count} packed entries from
     * {@code pos}, or -1.
     */
    static int mapValueAt(byte[] b, int pos, int count, AtomicType keyType, AtomicType valueType, Object key) {
        for (int k = 0; k < count; k++) {
            int value = skipAtom(b, pos, keyType);
            if (atomEquals(b, pos, keyType, key)) {
                return value;
            }
            pos = skipAtom(b, value, valueType);
        }
        return -1;
    }

    /**
     * Whether the atom at {@code pos} equals {@code atom}, as {@code atom.equals(readAtom(b, pos, type))}
     * would say; strings and UUIDs are compared in place.
     *
     * @param b packed bytes
     * @param pos where the atom starts
     * @param type its type
     * @param atom the atom to compare with
     * @return true if equal
     */
    static boolean atomEquals(byte[] b, int pos, AtomicType type, Object atom) {
        switch (type) {
            case STRING:
                return atom instanceof String s && stringEquals(b, pos, s);
            case UUID:
                if (atom instanceof UUID u) {
                    return b[pos] == UUID_PLAIN && fixed64(b, pos + 1) == u.getMostSignificantBits()
                            && fixed64(b, pos + 9) == u.getLeastSignificantBits();
                }
                return atom instanceof NamedUuid named && b[pos] == UUID_NAMED && stringEquals(b, pos + 1, named.name());
            default:
                return atom.equals(readAtom(b, pos, type));
        }
    }

    // Readers and skippers take a position and return the position after what they read, so a
    // read allocates nothing but the value it returns.

    private static int skipValue(byte[] b, int pos, ColumnType type) {
        if (type.isScalar()) {
            return skipAtom(b, pos, type.key().type());
        }
        int h = varint(b, pos);
        pos += varintWidth(h);
        return (h & 1) == 0 ? pos + (h >>> 1) : pos;
    }

    static int skipAtom(byte[] b, int pos, AtomicType type) {
        return switch (type) {
            case INTEGER -> {
                while (b[pos++] < 0) {
                    // continuation bytes
                }
                yield pos;
            }
            case REAL -> pos + 8;
            case BOOLEAN -> pos + 1;
            case STRING -> skipString(b, pos);
            case UUID -> b[pos] == UUID_PLAIN ? pos + 17 : skipString(b, pos + 1);
        };
    }

    private static int skipString(byte[] b, int pos) {
        int h = varint(b, pos);
        int length = h >>> 2;
        int bytes = switch (h & 3) {
            case FORM_NIBBLES -> (length + 1) >>> 1;
            case FORM_UTF16 -> 2 * length;
            default -> length;
        };
        return pos + varintWidth(h) + bytes;
    }

    private static Object readValue(byte[] b, int pos, ColumnType type, Object data) {
        if (type.isScalar()) {
            return readAtom(b, pos, type.key().type());
        }
        int h = varint(b, pos);
        if ((h & 1) != 0) {
            return ((Object[]) data)[1 + (h >>> 1)];
        }
        pos += varintWidth(h);
        int count = varint(b, pos);
        pos += varintWidth(count);
        AtomicType keyType = type.key().type();
        if (type.isMap()) {
            return count == 0 ? Map.of() : new PackedMap(b, pos, count, keyType, type.value().orElseThrow().type());
        }
        switch (count) {
            case 0:
                return Set.of();
            case 1:
                return Set.of(readAtom(b, pos, keyType));
            default:
                Object[] atoms = new Object[count];
                for (int k = 0; k < count; k++) {
                    atoms[k] = readAtom(b, pos, keyType);
                    pos = skipAtom(b, pos, keyType);
                }
                return Set.of(atoms);
        }
    }

    static Object readAtom(byte[] b, int pos, AtomicType type) {
        return switch (type) {
            case INTEGER -> {
                long z = varlong(b, pos);
                yield (z >>> 1) ^ -(z & 1);
            }
            case REAL -> Double.longBitsToDouble(fixed64(b, pos));
            case BOOLEAN -> b[pos] != 0;
            case STRING -> readString(b, pos);
            case UUID -> b[pos] == UUID_PLAIN ? new UUID(fixed64(b, pos + 1), fixed64(b, pos + 9))
                    : new NamedUuid(readString(b, pos + 1));
        };
    }

    private static String readString(byte[] b, int pos) {
        int h = varint(b, pos);
        int length = h >>> 2;
        int at = pos + varintWidth(h);
        switch (h & 3) {
            case FORM_LATIN1:
                return new String(b, at, length, StandardCharsets.ISO_8859_1);
            case FORM_UTF16:
                char[] units = new char[length];
                for (int i = 0; i < length; i++) {
                    units[i] = (char) (((b[at + 2 * i] & 0xFF) << 8) | (b[at + 2 * i + 1] & 0xFF));
                }
                return new String(units);
            default:
                byte[] chars = new byte[length];
                for (int i = 0; i < length; i++) {
                    chars[i] = nibbleChar(b, at, i);
                }
                return new String(chars, StandardCharsets.ISO_8859_1);
        }
    }

    private static byte nibbleChar(byte[] b, int at, int i) {
        int two = b[at + (i >>> 1)];
        return NIBBLE_CHARS[(i & 1) == 0 ? (two >>> 4) & 0xF : two & 0xF];
    }

    /**
     * Whether the string atom at {@code pos} equals {@code s}, compared in place.
     *
     * @param b packed bytes
     * @param pos where the atom starts
     * @param s the string
     * @return true if equal
     */
    static boolean stringEquals(byte[] b, int pos, String s) {
        int h = varint(b, pos);
        int length = h >>> 2;
        int at = pos + varintWidth(h);
        switch (h & 3) {
            case FORM_LATIN1:
                if (length != s.length()) {
                    return false;
                }
                for (int i = 0; i < length; i++) {
                    if ((b[at + i] & 0xFF) != s.charAt(i)) {
                        return false;
                    }
                }
                return true;
            case FORM_UTF16:
                if (length != s.length()) {
                    return false;
                }
                for (int i = 0; i < length; i++) {
                    if ((char) (((b[at + 2 * i] & 0xFF) << 8) | (b[at + 2 * i + 1] & 0xFF)) != s.charAt(i)) {
                        return false;
                    }
                }
                return true;
            default:
                if (length != s.length()) {
                    return false;
                }
                for (int i = 0; i < length; i++) {
                    if (nibbleChar(b, at, i) != s.charAt(i)) {
                        return false;
                    }
                }
                return true;
        }
    }

    private static int varint(byte[] b, int pos) {
        return (int) varlong(b, pos);
    }

    private static long varlong(byte[] b, int pos) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte x = b[pos++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
    }

    /** The bytes the varint encoding of {@code v} (a non-negative int) takes. */
    static int varintWidth(int v) {
        int width = 1;
        for (int rest = v >>> 7; rest != 0; rest >>>= 7) {
            width++;
        }
        return width;
    }

    private static long fixed64(byte[] b, int pos) {
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (b[pos + k] & 0xFF);
        }
        return v;
    }

    // ------------------------------------------------------------------ buffers

    /** An output buffer of the measured size, with the objects that values refer to. */
    static final class Sink {
        byte[] bytes;
        int size;
        Object[] objects;
        int objectCount;

        Sink(int capacity) {
            bytes = new byte[capacity];
        }

        void write(int b) {
            bytes[size++] = (byte) b;
        }

        void varint(int v) {
            varlong(v & 0xFFFF_FFFFL);
        }

        void varlong(long v) {
            while ((v & ~0x7FL) != 0) {
                bytes[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[size++] = (byte) v;
        }

        void zigzag(long v) {
            varlong((v << 1) ^ (v >> 63));
        }

        void fixed64(long v) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[size++] = (byte) (v >>> shift);
            }
        }

        /** Keeps an object beside the bytes; returns its index. */
        int keep(Object value) {
            if (objects == null) {
                objects = new Object[2];
            } else if (objectCount == objects.length) {
                objects = Arrays.copyOf(objects, objectCount * 2);
            }
            objects[objectCount] = value;
            return objectCount++;
        }
    }
}
