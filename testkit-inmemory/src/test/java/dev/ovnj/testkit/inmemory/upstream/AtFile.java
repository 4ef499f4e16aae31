package dev.ovnj.testkit.inmemory.upstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of Open vSwitch's autotest files ({@code tests/*.at}), read the way m4 reads it as far as
 * the OVSDB test macros need: macro calls with {@code [...]} quoting, {@code dnl} comments, lists
 * for {@code m4_foreach}, and the schemas defined as shell functions in the file's
 * {@code PREPARE_TESTS} block. It does not expand macros; a test case is a call of one of the
 * {@code OVSDB_CHECK_*} macros with its arguments as m4 collects them.
 */
final class AtFile {
    /**
     * One macro call: which macro, its arguments after m4's argument collection, its line, and the
     * file's constant macros ({@code m4_define([OVSDB_MONITOR_TXNS], [...])}) an argument may name.
     */
    record Call(String macro, List<String> args, int line, Map<String, String> constants) {
        String arg(int oneBased) {
            String a = oneBased <= args.size() ? args.get(oneBased - 1) : "";
            return constants.getOrDefault(a.trim(), a);
        }

        String title() {
            return unquote(arg(1)).trim();
        }
    }

    private static final Pattern CALL = Pattern.compile("(?m)^[ \\t]*((?:OVSDB_CHECK|AT_SETUP)[A-Z0-9_]*)\\(");
    private static final Pattern DEFINE = Pattern.compile("(?m)^m4_define\\(\\[([A-Z][A-Z0-9_]*)\\],");
    private static final Pattern SCHEMA = Pattern.compile(
            "(?m)^(\\w+) \\(\\) \\{\\s*\\n\\s*cat <<\\s*'EOF'\\n(.*?)\\nEOF\\s*\\n\\}", Pattern.DOTALL);

    private final String text;

    private AtFile(String text) {
        this.text = text;
    }

    static AtFile read(Path file) {
        try {
            return new AtFile(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every call of an {@code OVSDB_CHECK*} macro and every hand-written {@code AT_SETUP}, in file
     * order, leaving out the macros' own definitions (they are quoted names, not calls).
     */
    List<Call> calls() {
        Map<String, String> constants = new LinkedHashMap<>();
        Matcher d = DEFINE.matcher(text);
        while (d.find()) {
            String body = collectArgs(text, d.end()).get(0);
            if (!body.contains("$")) {
                constants.put(d.group(1), body);
            }
        }
        List<Call> calls = new ArrayList<>();
        Matcher m = CALL.matcher(text);
        while (m.find()) {
            List<String> args = collectArgs(text, m.end());
            int line = 1 + (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count();
            calls.add(new Call(m.group(1), args, line, constants));
        }
        return calls;
    }

    /** The schemas the file's shell functions print ({@code ordinal_schema () { cat <<'EOF' ...}). */
    Map<String, String> schemas() {
        Map<String, String> schemas = new LinkedHashMap<>();
        Matcher m = SCHEMA.matcher(text);
        while (m.find()) {
            schemas.put(m.group(1), m.group(2));
        }
        return schemas;
    }

    /**
     * The arguments of a macro call starting just after its {@code (}, as m4 collects them:
     * leading white space dropped, one level of {@code [...]} quotes removed, {@code dnl} to the
     * end of the line dropped outside quotes, split at top-level commas.
     */
    static List<String> collectArgs(String s, int from) {
        List<String> args = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int quote = 0;
        int paren = 0;
        boolean leading = true;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote == 0) {
                if (leading && Character.isWhitespace(c)) {
                    continue;
                }
                leading = false;
                if (c == '[') {
                    quote = 1;
                } else if (s.startsWith("dnl", i) && (i + 3 >= s.length() || !Character.isLetterOrDigit(s.charAt(i + 3)))) {
                    int nl = s.indexOf('\n', i);
                    i = nl < 0 ? s.length() : nl;
                    leading = cur.isEmpty();
                } else if (c == ',' && paren == 0) {
                    args.add(cur.toString());
                    cur.setLength(0);
                    leading = true;
                } else if (c == ')' && paren == 0) {
                    args.add(cur.toString());
                    return args;
                } else {
                    if (c == '(') {
                        paren++;
                    } else if (c == ')') {
                        paren--;
                    }
                    cur.append(c);
                }
            } else if (c == '[') {
                quote++;
                cur.append(c);
            } else if (c == ']') {
                quote--;
                if (quote > 0) {
                    cur.append(c);
                }
            } else {
                cur.append(c);
            }
        }
        args.add(cur.toString());
        return args;
    }

    /** The elements of an {@code m4_foreach} list, each with its own quotes removed once more. */
    static List<String> list(String arg) {
        if (arg.isBlank()) {
            return List.of();
        }
        List<String> items = collectArgs(arg + ")", 0);
        List<String> out = new ArrayList<>();
        for (String item : items) {
            out.add(unquote(item));
        }
        return out;
    }

    /** The text after one more expansion: one level of quotes removed, {@code dnl} comments dropped. */
    static String unquote(String s) {
        StringBuilder out = new StringBuilder();
        int quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote == 0) {
                if (c == '[') {
                    quote = 1;
                } else if (s.startsWith("dnl", i) && (i + 3 >= s.length() || !Character.isLetterOrDigit(s.charAt(i + 3)))
                        && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)))) {
                    int nl = s.indexOf('\n', i);
                    i = nl < 0 ? s.length() : nl;
                } else {
                    out.append(c);
                }
            } else if (c == '[') {
                quote++;
                out.append(c);
            } else if (c == ']') {
                quote--;
                if (quote > 0) {
                    out.append(c);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
