package dev.ovnj.testkit.inmemory.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The filters OVS's test suite puts between a command's output and the expected text, written
 * again in Java with the same rules: {@code uuidfilt} (each distinct UUID becomes {@code <N>} in
 * order of first appearance, except those starting with {@code ffffffff}; sets of such markers
 * are sorted) and {@code ovsdb-monitor-sort} (the rows of each block of {@code ovsdb-client
 * monitor} output sorted, by what follows the UUID when a line starts with one).
 */
final class OutputFilters {
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}(?<!ffffffff)-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern LEADING_UUID = Pattern.compile(
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern UUID_SET = Pattern.compile("(\\[\"set\",\\[(,?\\[\"uuid\",\"<\\d+>\"\\])+\\]\\])");
    private static final Pattern NUMBER = Pattern.compile("\\d+");

    private OutputFilters() {
    }

    static String uuidfilt(String text) {
        Map<String, Integer> seen = new HashMap<>();
        StringBuilder out = new StringBuilder();
        for (String line : text.split("(?<=\n)")) {
            Matcher m = UUID.matcher(line);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                int n = seen.computeIfAbsent(m.group(), k -> seen.size());
                m.appendReplacement(sb, "<" + n + ">");
            }
            m.appendTail(sb);
            Matcher s = UUID_SET.matcher(sb.toString());
            StringBuilder sorted = new StringBuilder();
            while (s.find()) {
                List<Integer> ids = new ArrayList<>();
                Matcher d = NUMBER.matcher(s.group());
                while (d.find()) {
                    ids.add(Integer.parseInt(d.group()));
                }
                ids.sort(null);
                StringBuilder set = new StringBuilder("[\"set\",[");
                for (int i = 0; i < ids.size(); i++) {
                    set.append(i == 0 ? "" : ",").append("[\"uuid\",\"<").append(ids.get(i)).append(">\"]");
                }
                s.appendReplacement(sorted, Matcher.quoteReplacement(set.append("]]").toString()));
            }
            s.appendTail(sorted);
            out.append(sorted);
        }
        return out.toString();
    }

    /**
     * JSON as OVS's writer prints it: compact, object members sorted, reals with {@code %.15g}
     * (so a real 3.0 is {@code 3}, whichever way the server wrote it).
     */
    static String ovsJson(JsonNode json) {
        if (json.isObject()) {
            StringBuilder sb = new StringBuilder("{");
            new java.util.TreeMap<String, JsonNode>() { {
                    json.fields().forEachRemaining(e -> put(e.getKey(), e.getValue()));
                } }.forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "").append(JsonNodeFactory.instance.textNode(k))
                        .append(':').append(ovsJson(v)));
            return sb.append('}').toString();
        }
        if (json.isArray()) {
            StringBuilder sb = new StringBuilder("[");
            json.forEach(e -> sb.append(sb.length() > 1 ? "," : "").append(ovsJson(e)));
            return sb.append(']').toString();
        }
        if (json.isBigDecimal()) {
            return real(json.decimalValue());
        }
        if (json.isFloatingPointNumber()) {
            return real(json.doubleValue());
        }
        return json.toString();
    }

    /** C's {@code %.15g}. */
    private static String real(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        return real(new BigDecimal(v));
    }

    private static String real(BigDecimal v) {
        if (v.signum() == 0) {
            return "0";
        }
        BigDecimal rounded = v.round(new MathContext(15, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String sign = v.signum() < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 15) {
            String digits = rounded.unscaledValue().abs().toString().replaceAll("0+$", "");
            String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            int e = Math.abs(exponent);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
        }
        return sign + rounded.abs().stripTrailingZeros().toPlainString();
    }

    static String monitorSort(String text) {
        StringBuilder out = new StringBuilder();
        List<String> group = new ArrayList<>();
        for (String line : text.split("(?<=\n)")) {
            if (line.strip().isEmpty()) {
                flush(group, out);
                out.append(line);
            } else if (line.startsWith(",") && !group.isEmpty()) {
                group.set(group.size() - 1, group.get(group.size() - 1) + line);
            } else {
                group.add(line);
            }
        }
        flush(group, out);
        return out.toString();
    }

    private static void flush(List<String> group, StringBuilder out) {
        group.sort(OutputFilters::compareLines);
        group.forEach(out::append);
        group.clear();
    }

    private static int compareLines(String a, String b) {
        boolean ua = LEADING_UUID.matcher(a).find();
        boolean ub = LEADING_UUID.matcher(b).find();
        if (ua && ub) {
            return a.substring(36).compareTo(b.substring(36));
        }
        if (ua != ub) {
            return ua ? 1 : -1;
        }
        return a.compareTo(b);
    }
}
