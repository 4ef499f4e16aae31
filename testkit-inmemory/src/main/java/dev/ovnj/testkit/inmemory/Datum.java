package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * One column value as ovsdb-server holds it: a sorted set of atoms, or a sorted map of atoms to
 * atoms. Atoms are {@link Long}, {@link Double}, {@link Boolean}, {@link String} and
 * {@link UUID}; they sort as ovsdb-server sorts them (UUIDs by their text, which is the order of
 * their four 32-bit parts), so encoded sets and maps come out in the same order.
 */
final class Datum {
    static final Comparator<Object> ATOM_ORDER = Datum::compareAtoms;
    private static final UUID ZERO = new UUID(0, 0);
    private static final long UINT_MAX = 4294967295L;

    private final NavigableMap<Object, Object> entries;
    private final boolean map;

    private Datum(NavigableMap<Object, Object> entries, boolean map) {
        this.entries = Collections.unmodifiableNavigableMap(entries);
        this.map = map;
    }

    static Datum ofSet(Iterable<?> atoms) {
        TreeMap<Object, Object> m = new TreeMap<>(ATOM_ORDER);
        for (Object a : atoms) {
            m.put(a, null);
        }
        return new Datum(m, false);
    }

    static Datum ofMap(Map<?, ?> pairs) {
        TreeMap<Object, Object> m = new TreeMap<>(ATOM_ORDER);
        m.putAll(pairs);
        return new Datum(m, true);
    }

    static Datum atom(Object atom) {
        return ofSet(List.of(atom));
    }

    /** The value a column has when nothing was written to it (ovsdb_datum_init_default). */
    static Datum defaultOf(ColumnType type) {
        if (type.min() == 0) {
            return type.isMap() ? ofMap(Map.of()) : ofSet(List.of());
        }
        Object key = defaultAtom(type.key().type());
        return type.isMap() ? ofMap(Map.of(key, defaultAtom(type.value().orElseThrow().type()))) : atom(key);
    }

    private static Object defaultAtom(AtomicType t) {
        return t == AtomicType.UUID ? ZERO : t.defaultAtom();
    }

    boolean isMap() {
        return map;
    }

    int size() {
        return entries.size();
    }

    NavigableMap<Object, Object> entries() {
        return entries;
    }

    Object single() {
        return entries.firstKey();
    }

    boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    /**
     * Decodes a JSON value of a column type, resolving named UUIDs through {@code names} and
     * checking the atoms' constraints, with ovsdb-server's error texts.
     */
    static Datum fromJson(ColumnType type, JsonNode json, Function<String, UUID> names) throws OvsdbError {
        boolean isMap = type.isMap();
        boolean tagged = json.isArray() && json.size() > 0 && json.get(0).isTextual() && "set".equals(json.get(0).textValue());
        TreeMap<Object, Object> m = new TreeMap<>(ATOM_ORDER);
        if (isMap || tagged) {
            String cls = isMap ? "map" : "set";
            if (!json.isArray() || json.size() != 2 || !cls.equals(json.get(0).textValue())) {
                throw OvsdbError.syntax(json, json.isArray() && json.size() != 2 ? "expected 2-element array"
                        : "expected [\"" + cls + "\", <array>]");
            }
            JsonNode inner = json.get(1);
            if (!inner.isArray()) {
                throw OvsdbError.syntax(json, "expected [\"" + cls + "\", <array>]");
            }
            int n = inner.size();
            if (n < type.min() || n > type.max()) {
                if (type.min() == 1 && type.max() == 1) {
                    throw OvsdbError.syntax(json, cls + " must have exactly one member but " + n + " are present");
                }
                throw OvsdbError.syntax(json, cls + " must have " + type.min() + " to " + maxText(type.max())
                        + " members but " + n + " are present");
            }
            // ovsdb-server parses (and checks) every element before it sorts them and looks for
            // duplicates, so a bad element further on is reported ahead of a duplicate.
            boolean duplicate = false;
            for (JsonNode element : inner) {
                if (isMap) {
                    if (!element.isArray() || element.size() != 2) {
                        throw OvsdbError.syntax(element, "expected 2-element array");
                    }
                    Object k = atomFromJson(type.key(), element.get(0), names);
                    Object v = atomFromJson(type.value().orElseThrow(), element.get(1), names);
                    duplicate |= m.containsKey(k);
                    m.put(k, v);
                } else {
                    Object k = atomFromJson(type.key(), element, names);
                    duplicate |= m.containsKey(k);
                    m.put(k, null);
                }
            }
            if (duplicate) {
                throw new OvsdbError("ovsdb error", isMap ? "map contains duplicate key" : "set contains duplicate");
            }
        } else {
            if (type.min() > 1 || type.max() < 1) {
                throw OvsdbError.syntax(json, "set must have " + type.min() + " to " + maxText(type.max())
                        + " members but 1 are present");
            }
            m.put(atomFromJson(type.key(), json, names), null);
        }
        return new Datum(m, isMap);
    }

    private static String maxText(long max) {
        return max == ColumnType.UNLIMITED ? Long.toString(UINT_MAX) : Long.toString(max);
    }

    static Object atomFromJson(BaseType base, JsonNode json, Function<String, UUID> names) throws OvsdbError {
        AtomicType t = base.type();
        Object atom;
        if (t == AtomicType.UUID) {
            atom = uuidFromJson(json, names);
        } else if (t == AtomicType.REAL && json.isNumber()) {
            atom = json.doubleValue();
        } else if (t == AtomicType.INTEGER && json.isIntegralNumber() && json.canConvertToLong()) {
            atom = json.longValue();
        } else if (t == AtomicType.BOOLEAN && json.isBoolean()) {
            atom = json.booleanValue();
        } else if (t == AtomicType.STRING && json.isTextual()) {
            atom = json.textValue();
        } else {
            throw OvsdbError.syntax(json, "expected " + t.jsonName());
        }
        checkConstraints(base, atom);
        return atom;
    }

    private static UUID uuidFromJson(JsonNode json, Function<String, UUID> names) throws OvsdbError {
        if (json.isArray() && json.size() == 2 && json.get(0).isTextual()) {
            String tag = json.get(0).textValue();
            JsonNode v = json.get(1);
            if ("uuid".equals(tag) && v.isTextual()) {
                Optional<UUID> u = parseUuid(v.textValue());
                if (u.isEmpty()) {
                    throw OvsdbError.syntax(json, "\"" + v.textValue() + "\" is not a valid UUID");
                }
                return u.get();
            }
            if ("named-uuid".equals(tag) && v.isTextual()) {
                if (names == null || !v.textValue().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw OvsdbError.syntax(json, "named-uuid string is not a valid <id>");
                }
                return names.apply(v.textValue());
            }
        }
        throw OvsdbError.syntax(json, "expected uuid");
    }

    static Optional<UUID> parseUuid(String text) {
        if (text == null || !text.matches("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")) {
            return Optional.empty();
        }
        return Optional.of(UUID.fromString(text));
    }

    static void checkConstraints(BaseType base, Object atom) throws OvsdbError {
        if (base.enumValues().isPresent()) {
            boolean found = base.enumValues().get().stream().anyMatch(e -> compareAtoms(e, atom) == 0);
            if (!found) {
                List<Object> valid = new ArrayList<>(base.enumValues().get());
                valid.sort(ATOM_ORDER);
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0; i < valid.size(); i++) {
                    sb.append(i > 0 ? ", " : "").append(atomToString(valid.get(i)));
                }
                throw OvsdbError.constraint(atomToString(atom) + " is not one of the allowed values (" + sb + "])");
            }
        }
        if (atom instanceof Long l) {
            long min = base.minInteger();
            long max = base.maxInteger();
            if (l < min || l > max) {
                if (min != Long.MIN_VALUE && max != Long.MAX_VALUE) {
                    throw OvsdbError.constraint(l + " is not in the valid range " + min + " to " + max + " (inclusive)");
                } else if (min != Long.MIN_VALUE) {
                    throw OvsdbError.constraint(l + " is less than minimum allowed value " + min);
                }
                throw OvsdbError.constraint(l + " is greater than maximum allowed value " + max);
            }
        } else if (atom instanceof String s) {
            long len = s.codePointCount(0, s.length());
            if (len < base.minLength()) {
                throw OvsdbError.constraint("\"" + s + "\" length " + len + " is less than minimum allowed length "
                        + base.minLength());
            }
            if (len > base.maxLength()) {
                throw OvsdbError.constraint("\"" + s + "\" length " + len + " is greater than maximum allowed length "
                        + base.maxLength());
            }
        } else if (atom instanceof Double d) {
            double min = base.minReal();
            double max = base.maxReal();
            if (d < min || d > max) {
                if (min != -Double.MAX_VALUE && max != Double.MAX_VALUE) {
                    throw OvsdbError.constraint(real(d) + " is not in the valid range " + real(min) + " to " + real(max)
                            + " (inclusive)");
                } else if (min != -Double.MAX_VALUE) {
                    throw OvsdbError.constraint(real(d) + " is less than minimum allowed value " + real(min));
                }
                throw OvsdbError.constraint(real(d) + " is greater than maximum allowed value " + real(max));
            }
        }
    }

    /** ovsdb_atom_to_string: strings that are not plain identifiers are quoted. */
    static String atomToString(Object atom) {
        if (atom instanceof String s) {
            boolean plain = !s.isEmpty() && (Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')
                    && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')
                    && !s.equals("true") && !s.equals("false");
            return plain ? s : JsonTrees.NODES.textNode(s).toString();
        }
        return atom instanceof Double d ? real(d) : String.valueOf(atom);
    }

    /** A real as ovsdb-server writes it in error texts: C's {@code %.15g} (DBL_DIG digits). */
    static String real(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(15, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String sign = v < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 15) {
            String digits = rounded.unscaledValue().abs().toString().replaceAll("0+$", "");
            String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            int e = Math.abs(exponent);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
        }
        return sign + rounded.abs().stripTrailingZeros().toPlainString();
    }

    /** ovsdb_datum_to_json: a map is tagged, a set of exactly one is the bare atom. */
    JsonNode toJson() {
        if (map) {
            ArrayNode pairs = JsonTrees.array();
            entries.forEach((k, v) -> pairs.add(JsonTrees.array().add(atomToJson(k)).add(atomToJson(v))));
            return JsonTrees.array().add("map").add(pairs);
        }
        if (entries.size() == 1) {
            return atomToJson(entries.firstKey());
        }
        ArrayNode atoms = JsonTrees.array();
        entries.keySet().forEach(k -> atoms.add(atomToJson(k)));
        return JsonTrees.array().add("set").add(atoms);
    }

    static JsonNode atomToJson(Object atom) {
        if (atom instanceof Long l) {
            return JsonTrees.NODES.numberNode(l);
        }
        if (atom instanceof Double d) {
            return JsonTrees.NODES.numberNode(d);
        }
        if (atom instanceof Boolean b) {
            return JsonTrees.NODES.booleanNode(b);
        }
        if (atom instanceof UUID u) {
            return JsonTrees.array().add("uuid").add(u.toString());
        }
        return JsonTrees.NODES.textNode((String) atom);
    }

    /** The datum ovsdb_datum_diff() sends in an update2 "modify": changed entries only. */
    Datum diff(Datum newer) {
        TreeMap<Object, Object> d = new TreeMap<>(ATOM_ORDER);
        if (map) {
            entries.forEach((k, v) -> {
                if (!newer.entries.containsKey(k)) {
                    d.put(k, v);
                }
            });
            newer.entries.forEach((k, v) -> {
                if (!entries.containsKey(k) || !Objects.equals(entries.get(k), v)) {
                    d.put(k, v);
                }
            });
        } else {
            entries.keySet().forEach(k -> {
                if (!newer.entries.containsKey(k)) {
                    d.put(k, null);
                }
            });
            newer.entries.keySet().forEach(k -> {
                if (!entries.containsKey(k)) {
                    d.put(k, null);
                }
            });
        }
        return new Datum(d, map);
    }

    /** A datum of the same kind (set or map) over these entries, which the caller hands over. */
    Datum with(TreeMap<Object, Object> newEntries) {
        return new Datum(newEntries, map);
    }

    /** ovsdb_datum_compare_3way(): by size, then keys, then values. */
    static int compare(Datum a, Datum b) {
        if (a.size() != b.size()) {
            return Integer.compare(a.size(), b.size());
        }
        Iterator<Object> i = a.entries().keySet().iterator();
        Iterator<Object> j = b.entries().keySet().iterator();
        while (i.hasNext()) {
            int cmp = Datum.compareAtoms(i.next(), j.next());
            if (cmp != 0) {
                return cmp;
            }
        }
        if (a.isMap()) {
            Iterator<Object> x = a.entries().values().iterator();
            Iterator<Object> y = b.entries().values().iterator();
            while (x.hasNext()) {
                int cmp = Datum.compareAtoms(x.next(), y.next());
                if (cmp != 0) {
                    return cmp;
                }
            }
        }
        return 0;
    }

    static int compareAtoms(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return compareUtf8(x, y);
        }
        if (a instanceof UUID x && b instanceof UUID y) {
            return x.toString().compareTo(y.toString());
        }
        return a.getClass().getName().compareTo(b.getClass().getName());
    }

    private static int compareUtf8(String x, String y) {
        int n = Math.min(x.length(), y.length());
        for (int i = 0; i < n; i++) {
            char a = x.charAt(i);
            char b = y.charAt(i);
            if (a != b) {
                // Surrogates (supplementary characters) sort after the rest of the BMP in UTF-8.
                boolean sa = Character.isSurrogate(a);
                boolean sb = Character.isSurrogate(b);
                if (sa != sb) {
                    return sa ? (b >= 0xE000 ? -1 : 1) : (a >= 0xE000 ? 1 : -1);
                }
                return Character.compare(a, b);
            }
        }
        return Integer.compare(x.length(), y.length());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Datum d) || d.map != map || d.entries.size() != entries.size()) {
            return false;
        }
        var i = entries.entrySet().iterator();
        var j = d.entries.entrySet().iterator();
        while (i.hasNext()) {
            var a = i.next();
            var b = j.next();
            if (compareAtoms(a.getKey(), b.getKey()) != 0) {
                return false;
            }
            if (map && compareAtoms(a.getValue(), b.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return entries.keySet().hashCode();
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
