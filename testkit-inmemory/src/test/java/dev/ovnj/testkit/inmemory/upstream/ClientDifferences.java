package dev.ovnj.testkit.inmemory.upstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines OVS's IDL cases expect that ovnj's client, by design, does not print, each with why
 * (docs/testing.md lists them with both outputs). A case's output that differs from the
 * expected text only by these lines is a documented difference; any other difference fails.
 */
final class ClientDifferences {
    /** A documented difference: the expected lines it accounts for, and why ovnj prints none. */
    record Rule(String name, String reason) {
    }

    static final Rule SERVER_ROWS = new Rule("_Server rows",
            "the Python IDL's notify hook also reports the rows of the _Server database it monitors on the same"
                    + " connection (row={}); ovnj's client watches _Server itself and its cache holds only the"
                    + " database asked for, as the C IDL's does");
    static final Rule RESYNC = new Rule("full resync",
            "after `reconnect` to a server without transaction history both OVS IDLs report every row again as"
                    + " created; ovnj's cache replaces its contents and reports only what differs (nothing here)");

    private static final Pattern SERVER_ROW = Pattern.compile("(?m)^\\d{3}: event:create, row=\\{\\}, uuid=<\\d+>, updates=None\n");
    private static final Pattern RECONNECT = Pattern.compile("(?m)^(\\d{3}): reconnect$");
    private static final Pattern MARKER = Pattern.compile("<(\\d+)>");

    private ClientDifferences() {
    }

    /**
     * The rules that make {@code expected} equal to {@code got}, or empty when the outputs differ
     * otherwise (or not at all).
     */
    static List<Rule> explain(String expected, String got) {
        if (expected.equals(got)) {
            return List.of();
        }
        List<Rule> used = new ArrayList<>();
        String e = expected;
        String withoutServerRows = SERVER_ROW.matcher(e).replaceAll("");
        if (!withoutServerRows.equals(e)) {
            used.add(SERVER_ROWS);
            e = withoutServerRows;
        }
        Matcher r = RECONNECT.matcher(e);
        while (r.find()) {
            String next = String.format("%03d", Integer.parseInt(r.group(1)) + 1);
            String without = e.replaceAll("(?m)^" + next + ": event:create, .*\n", "");
            if (!without.equals(e)) {
                if (!used.contains(RESYNC)) {
                    used.add(RESYNC);
                }
                e = without;
            }
        }
        return !used.isEmpty() && renumbered(e).equals(renumbered(got)) ? used : List.of();
    }

    /** uuidfilt's markers numbered again in order of first appearance, after lines were taken out. */
    static String renumbered(String text) {
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = MARKER.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, "<" + seen.computeIfAbsent(m.group(1), k -> seen.size()) + ">");
        }
        return m.appendTail(sb).toString();
    }
}
