package dev.ovnj.nb.command;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import dev.ovnj.ovsdb.schema.ColumnType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The text syntax of OVSDB values as {@code ovn-nbctl} (ovs-vsctl's database commands) reads and
 * prints them: atoms, {@code [a, b]} sets and {@code {k=v}} maps, strings quoted only when they
 * must be, and the "bare" form of {@code --bare}.
 */
final class DatumSyntax {
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    // Characters that end an unquoted token inside a set or map (lib/ovsdb-data.c's delimiters).
    private static final String DELIMITERS = ":=, []{}!<>";

    /** How a symbol such as {@code @name} resolves to a row's UUID, or null when unknown. */
    interface Symbols extends Function<String, UUID> {
    }

    private DatumSyntax() {
    }

    static boolean isUuid(String s) {
        return UUID_TEXT.matcher(s).matches();
    }

    /** Orders atoms as OVSDB does: numbers numerically, strings by bytes, UUIDs by their text. */
    static final Comparator<Object> ATOM_ORDER = (a, b) -> {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        return a.toString().compareTo(b.toString());
    };

    // ---- printing ----

    static String atomToString(Object atom) {
        if (atom instanceof String s) {
            return needsQuotes(s) ? quote(s) : s;
        }
        return atomToBare(atom);
    }

    static String atomToBare(Object atom) {
        if (atom instanceof Double d) {
            return formatReal(d);
        }
        return atom.toString();
    }

    private static String formatReal(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        String s = String.format("%.15g", d);
        if (s.contains(".") && !s.contains("e")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }

    static boolean needsQuotes(String s) {
        if (s.isEmpty()) {
            return true;
        }
        char c = s.charAt(0);
        if (!isAlpha(c) && c != '_') {
            return true;
        }
        for (int i = 1; i < s.length(); i++) {
            c = s.charAt(i);
            if (!isAlpha(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' && c != '.') {
                return true;
            }
        }
        return s.equals("true") || s.equals("false") || isUuid(s);
    }

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    static List<Object> sorted(Collection<?> atoms) {
        List<Object> list = new ArrayList<>(atoms);
        list.sort(ATOM_ORDER);
        return list;
    }

    static List<Map.Entry<Object, Object>> sortedEntries(Map<?, ?> map) {
        List<Map.Entry<Object, Object>> list = new ArrayList<>();
        map.forEach((k, v) -> list.add(Map.entry(k, v)));
        list.sort((x, y) -> ATOM_ORDER.compare(x.getKey(), y.getKey()));
        return list;
    }

    /** A column value as {@code list} and {@code get} print it. */
    static String toString(ColumnType type, Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder b = new StringBuilder("{");
            String sep = "";
            for (Map.Entry<Object, Object> e : sortedEntries(map)) {
                b.append(sep).append(atomToString(e.getKey())).append('=').append(atomToString(e.getValue()));
                sep = ", ";
            }
            return b.append('}').toString();
        }
        if (value instanceof Set<?> set) {
            if (type.max() > 1 || set.isEmpty()) {
                StringBuilder b = new StringBuilder("[");
                String sep = "";
                for (Object atom : sorted(set)) {
                    b.append(sep).append(atomToString(atom));
                    sep = ", ";
                }
                return b.append(']').toString();
            }
            return atomToString(set.iterator().next());
        }
        return atomToString(value);
    }

    /** A column value in {@code --bare} form: atoms space-separated, maps as {@code k=v}, strings unquoted. */
    static String toBare(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder b = new StringBuilder();
            for (Map.Entry<Object, Object> e : sortedEntries(map)) {
                if (!b.isEmpty()) {
                    b.append(' ');
                }
                b.append(atomToBare(e.getKey())).append('=').append(atomToBare(e.getValue()));
            }
            return b.toString();
        }
        if (value instanceof Set<?> set) {
            StringBuilder b = new StringBuilder();
            for (Object atom : sorted(set)) {
                if (!b.isEmpty()) {
                    b.append(' ');
                }
                b.append(atomToBare(atom));
            }
            return b.toString();
        }
        return atomToBare(value);
    }

    // ---- parsing ----

    /** Parses one atom from the whole of {@code text} (the value of {@code column:key=value}). */
    static Object parseAtom(BaseType base, String text, Symbols symbols) {
        String s = text;
        if (base.type() == AtomicType.STRING) {
            if (s.startsWith("\"")) {
                Cursor c = new Cursor(s);
                String v = c.quoted();
                if (!c.atEnd()) {
                    throw new NbctlException(text + ": trailing garbage after quoted string");
                }
                return checkEnum(base, v);
            }
            return checkEnum(base, s);
        }
        return parseNonString(base, s.strip(), symbols);
    }

    private static Object checkEnum(BaseType base, Object atom) {
        if (base.enumValues().isPresent() && !base.enumValues().get().contains(atom)) {
            StringBuilder b = new StringBuilder("[");
            for (Object allowedAtom : sorted(base.enumValues().get())) {
                b.append(b.length() > 1 ? ", " : "").append(atomToString(allowedAtom));
            }
            b.append(']');
            throw new NbctlException("constraint violation: " + atomToString(atom) + " is not one of the allowed values (" + b + ")");
        }
        if (atom instanceof Long l && (l < base.minInteger() || l > base.maxInteger())) {
            throw new NbctlException("constraint violation: " + l + " is not in the valid range " + base.minInteger() + " to " + base.maxInteger()
                    + " (inclusive)");
        }
        return atom;
    }

    private static Object parseNonString(BaseType base, String s, Symbols symbols) {
        switch (base.type()) {
            case INTEGER -> {
                try {
                    return checkEnum(base, Long.parseLong(s));
                } catch (NumberFormatException e) {
                    throw new NbctlException("\"" + s + "\" is not a valid integer");
                }
            }
            case REAL -> {
                try {
                    return checkEnum(base, Double.parseDouble(s));
                } catch (NumberFormatException e) {
                    throw new NbctlException("\"" + s + "\" is not a valid real number");
                }
            }
            case BOOLEAN -> {
                if (s.equals("true")) {
                    return true;
                }
                if (s.equals("false")) {
                    return false;
                }
                throw new NbctlException("\"" + s + "\" is not a valid boolean (use \"true\" or \"false\")");
            }
            case UUID -> {
                if (s.startsWith("@")) {
                    UUID u = symbols == null ? null : symbols.apply(s);
                    if (u == null) {
                        throw new NbctlException("\"" + s + "\" is not a valid UUID");
                    }
                    return u;
                }
                if (!isUuid(s)) {
                    throw new NbctlException("\"" + s + "\" is not a valid UUID");
                }
                return UUID.fromString(s);
            }
            default -> throw new IllegalStateException(base.type().toString());
        }
    }

    /** Parses a whole column value: {@code a,b}, {@code [a, b]}, {@code {k=v}} or one atom. */
    static Object parseDatum(ColumnType type, String text, Symbols symbols) {
        if (type.isScalar()) {
            return parseAtom(type.key(), text, symbols);
        }
        Cursor c = new Cursor(text);
        c.skipSpace();
        boolean map = type.isMap();
        char open = map ? '{' : '[';
        char close = map ? '}' : ']';
        boolean bracketed = c.peek() == open;
        if (bracketed) {
            c.next();
        }
        Map<Object, Object> entries = new LinkedHashMap<>();
        Set<Object> atoms = new LinkedHashSet<>();
        String what = map ? "map of " + pluralName(type.key()) + " to " + pluralName(type.value().orElseThrow())
                : "set of " + pluralName(type.key());
        c.skipSpace();
        while (!c.atEnd() && c.peek() != close) {
            Object key = c.atom(type.key(), symbols, what);
            if (map) {
                c.skipSpace();
                if (c.peek() != '=') {
                    throw new NbctlException(text + ": syntax error at \"" + c.rest() + "\" parsing " + what);
                }
                c.next();
                c.skipSpace();
                entries.put(key, c.atom(type.value().orElseThrow(), symbols, what));
            } else {
                atoms.add(key);
            }
            c.skipSpace();
            if (c.peek() == ',') {
                c.next();
                c.skipSpace();
            }
        }
        if (bracketed) {
            if (c.peek() != close) {
                throw new NbctlException(text + ": missing \"" + close + "\" at end of " + what);
            }
            c.next();
        }
        c.skipSpace();
        if (!c.atEnd()) {
            throw new NbctlException(text + ": trailing garbage after " + what);
        }
        long n = map ? entries.size() : atoms.size();
        if (n < type.min() || n > type.max()) {
            throw new NbctlException("\"" + text + "\" is not a valid value for a column with " + type.min()
                    + (type.max() == ColumnType.UNLIMITED ? " or more" : " to " + type.max()) + " elements");
        }
        return map ? Map.copyOf(entries) : Set.copyOf(atoms);
    }

    static String pluralName(BaseType base) {
        return switch (base.type()) {
            case INTEGER -> "integers";
            case REAL -> "reals";
            case BOOLEAN -> "booleans";
            case STRING -> "strings";
            case UUID -> "uuids";
        };
    }

    /** A reading position in a value's text. */
    private static final class Cursor {
        private final String s;
        private int i;

        Cursor(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return atEnd() ? '\0' : s.charAt(i);
        }

        void next() {
            i++;
        }

        String rest() {
            return s.substring(i);
        }

        void skipSpace() {
            while (!atEnd() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        String quoted() {
            StringBuilder b = new StringBuilder();
            i++;
            while (!atEnd() && s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\' && !atEnd()) {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case 'u' -> {
                            b.append((char) Integer.parseInt(s.substring(i, Math.min(i + 4, s.length())), 16));
                            i += 4;
                        }
                        default -> b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
            if (atEnd()) {
                throw new NbctlException(s + ": missing quote at end of quoted string");
            }
            i++;
            return b.toString();
        }

        Object atom(BaseType base, Symbols symbols, String what) {
            if (peek() == '"' && base.type() == AtomicType.STRING) {
                return checkEnum(base, quoted());
            }
            int start = i;
            while (!atEnd() && DELIMITERS.indexOf(s.charAt(i)) < 0 && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (start == i) {
                throw new NbctlException(s + ": unexpected \"" + peek() + "\" parsing " + what);
            }
            String token = s.substring(start, i);
            if (!atEnd() && s.charAt(i) == ':' ) {
                throw new NbctlException(s + ": unexpected \":\" parsing " + what);
            }
            return base.type() == AtomicType.STRING ? checkEnum(base, token) : parseNonString(base, token, symbols);
        }
    }
}
