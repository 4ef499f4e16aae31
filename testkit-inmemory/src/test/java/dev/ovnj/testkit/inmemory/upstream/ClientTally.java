package dev.ovnj.testkit.inmemory.upstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How ovnj's client fared on OVS's IDL cases: run, same as expected, different, excluded and why. */
final class ClientTally {
    private int same;
    private final List<String> different = new ArrayList<>();
    private final Map<String, List<String>> documented = new LinkedHashMap<>();
    private final Map<String, List<String>> excluded = new LinkedHashMap<>();

    /** A case that ran: printed what was expected, differed only as {@code rules} document, or differed. */
    synchronized void ran(String where, boolean matched, List<ClientDifferences.Rule> rules) {
        if (matched) {
            same++;
        } else if (!rules.isEmpty()) {
            rules.forEach(r -> documented.computeIfAbsent(r.name() + ": " + r.reason(), k -> new ArrayList<>()).add(where));
            documentedCases++;
        } else {
            different.add(where);
        }
    }

    private int documentedCases;

    synchronized void excluded(String where, String reason) {
        excluded.computeIfAbsent(reason, r -> new ArrayList<>()).add(where);
    }

    synchronized boolean any() {
        return same + documentedCases + different.size() + excluded.size() > 0;
    }

    /** One line: cases run, same, different (which), excluded with the reason. */
    synchronized String summary() {
        StringBuilder sb = new StringBuilder("ovnj client (scripts/test-ovsdb) on ovsdb-idl.at against ovsdb-server: ")
                .append(same + documentedCases + different.size()).append(" run, ").append(same).append(" same, ")
                .append(documentedCases + different.size()).append(" different: ").append(documentedCases)
                .append(" only as documented");
        documented.forEach((rule, cases) -> sb.append(" (").append(rule).append(": ").append(cases).append(")"));
        sb.append(", ").append(different.size()).append(" not explained");
        if (!different.isEmpty()) {
            sb.append(" ").append(different);
        }
        int n = excluded.values().stream().mapToInt(List::size).sum();
        sb.append(", ").append(n).append(" excluded");
        excluded.forEach((reason, cases) -> sb.append(" (").append(cases.size()).append(": ").append(reason).append(")"));
        return sb.toString();
    }
}
