package dev.ovnj.testkit.inmemory.upstream.idl;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Text as OVS's Python test driver prints it: Python's {@code str()} of the values the Python
 * IDL returns (lists, sorted tuples, {@code UUID('...')}), the driver's regular-expression
 * clean-up of a printed row, and {@code ovs.json.to_string} (compact, sorted keys, ASCII).
 * Reals read from the wire are integers when integral, as OVS's JSON parser makes them.
 */
final class PyText {
    private static final Pattern NOISE = Pattern.compile("\"\"|,|u?'");
    private static final Pattern UUID_CALL = Pattern.compile("UUID\\(([^)]+)\\)");
    private static final Pattern BARE_BA = Pattern.compile("(ba)=([^\\[][^ ]*) ");

    private PyText() {
    }

    /**
     * What {@code get_simple_printable_row_string} makes of {@code column=value} pairs.
     *
     * @param pairs the columns and their Python values, in order
     */
    static String cleanRow(Map<String, Object> pairs) {
        StringBuilder s = new StringBuilder();
        pairs.forEach((column, value) -> s.append(column).append('=').append(str(value)).append(' '));
        String out = s.toString().strip();
        out = NOISE.matcher(out).replaceAll("");
        out = UUID_CALL.matcher(out).replaceAll("$1");
        out = out.replace("False", "false").replace("True", "true");
        return BARE_BA.matcher(out).replaceAll("$1=[$2] ");
    }

    /** Python's {@code str()}: lists and tuples show their elements' {@code repr()}. */
    static String str(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof UUID u) {
            return u.toString();
        }
        return repr(v);
    }

    /** Python's {@code repr()} of an atom, a list (Java {@link List}) or a tuple ({@link Tuple}). */
    static String repr(Object v) {
        if (v instanceof List<?> list) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(repr(list.get(i)));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Tuple t) {
            return "(" + repr(t.a()) + ", " + repr(t.b()) + ")";
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (v instanceof Double d) {
            return real(d);
        }
        if (v instanceof UUID u) {
            return "UUID('" + u + "')";
        }
        if (v instanceof String s) {
            return stringRepr(s);
        }
        return String.valueOf(v);
    }

    /** A Python 2-tuple, what the driver makes of a map entry. */
    record Tuple(Object a, Object b) {
    }

    /** A real as the Python IDL holds it: an int when integral (OVS's JSON parser), else repr(float). */
    static String real(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 9.2e18) {
            return Long.toString((long) d);
        }
        for (int p = 1; p <= 17; p++) {
            String g = String.format("%." + p + "g", d);
            if (Double.parseDouble(g) == d) {
                BigDecimal x = new BigDecimal(g).stripTrailingZeros();
                int exponent = x.precision() - x.scale() - 1;
                if (exponent < -4 || exponent >= 16) {
                    String digits = x.unscaledValue().abs().toString();
                    String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
                    return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                            + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
                }
                return x.toPlainString();
            }
        }
        return Double.toString(d);
    }

    private static String stringRepr(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder sb = new StringBuilder().append(quote);
        s.codePoints().forEach(c -> {
            if (c == quote || c == '\\') {
                sb.append('\\').appendCodePoint(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.append(quote).toString();
    }

    /** {@code ovs.json.to_string}: compact, object keys sorted, non-ASCII escaped, integral numbers as ints. */
    static String json(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        json(node, sb);
        return sb.toString();
    }

    private static void json(JsonNode node, StringBuilder sb) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            node.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
            sb.append('{');
            Iterator<Map.Entry<String, JsonNode>> it = sorted.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                jsonString(e.getKey(), sb);
                sb.append(':');
                json(e.getValue(), sb);
                sb.append(it.hasNext() ? "," : "");
            }
            sb.append('}');
        } else if (node.isArray()) {
            sb.append('[');
            for (int i = 0; i < node.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                json(node.get(i), sb);
            }
            sb.append(']');
        } else if (node.isTextual()) {
            jsonString(node.asText(), sb);
        } else if (node.isFloatingPointNumber()) {
            sb.append(real(node.doubleValue()));
        } else {
            sb.append(node.toString());
        }
    }

    private static void jsonString(String s, StringBuilder sb) {
        sb.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        sb.append('"');
    }

    /** Sorted the way Python sorts a list of one atom type (UUIDs by their text, as by their int value). */
    static List<Object> sorted(Iterable<?> values) {
        List<Object> out = new ArrayList<>();
        values.forEach(out::add);
        out.sort(PyText::compare);
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (a instanceof Tuple x && b instanceof Tuple y) {
            int c = compare(x.a(), y.a());
            return c != 0 ? c : compare(x.b(), y.b());
        }
        if (a instanceof UUID || b instanceof UUID) {
            return a.toString().compareTo(b.toString());
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        return ((Comparable) a).compareTo(b);
    }
}
