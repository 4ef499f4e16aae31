package dev.ovnj.kubernetes;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Whether each selector of an {@code ovnj.dev/adopt} annotation matches a load balancer in the
 * Northbound database, read from the client's cache. A selector that matches nothing (a
 * misspelt owner, a row name of another cluster) would otherwise adopt nothing and leave the
 * Service a silent {@code CONFLICT}; this names it and the closest markers that do exist: the
 * owner names {@code owner:} knows ({@link Adoption#ownerNames}: {@code ovnj.owner}, Kube-OVN's
 * {@code vendor}, kube-dc) and the rows' names.
 */
final class AdoptionSelectors {
    /** How many candidates a message lists. */
    private static final int CANDIDATES = 3;

    private final OvsdbClient nb;

    AdoptionSelectors(OvsdbClient nb) {
        this.nb = nb;
    }

    /**
     * What an adoption's selectors fail to match.
     *
     * @param adoption the Service's adoption
     * @param owner the controller's owner
     * @param spec the Service's spec name
     * @return empty when every selector matches a row, or when the spec has rows of its own
     *     already (the adoption is done: the rows it covered are the spec's now); else the
     *     selectors that match nothing and the closest candidates
     */
    Optional<String> unmatched(Adoption adoption, String owner, String spec) {
        return nb.cache().read(() -> {
            Map<String, Integer> owners = new TreeMap<>();
            List<String> names = new ArrayList<>();
            Set<String> uuids = new java.util.HashSet<>();
            int unowned = 0;
            for (Row row : nb.cache().table(LoadBalancer.TABLE.name()).rows()) {
                LoadBalancer lb = LoadBalancer.fromRow(row);
                Map<String, String> ids = lb.externalIds();
                if (owner.equals(ids.get(DesiredRow.OWNER_KEY)) && spec.equals(ids.get(DesiredRow.SPEC_KEY))) {
                    return Optional.<String>empty();
                }
                Optional<String> ovnjOwner = Optional.ofNullable(ids.get(DesiredRow.OWNER_KEY));
                if (ovnjOwner.isEmpty()) {
                    unowned++;
                }
                for (String name : Adoption.ownerNames(ovnjOwner, ids)) {
                    owners.merge(name, 1, Integer::sum);
                }
                names.add(lb.name());
                uuids.add(row.uuid().toString());
            }
            List<String> problems = new ArrayList<>();
            for (String o : adoption.owners()) {
                if (!owners.containsKey(o)) {
                    problems.add(Adoption.OWNER_PREFIX + o + " matches no load balancer"
                            + closest(o, owners.keySet(), c -> Adoption.OWNER_PREFIX + c + " (" + owners.get(c) + " rows)"));
                }
            }
            for (String r : adoption.rows()) {
                if (!names.contains(r) && !uuids.contains(r)) {
                    problems.add("row " + r + " matches no load balancer" + closest(r, names, c -> c));
                }
            }
            if (adoption.unowned() && unowned == 0) {
                problems.add(Adoption.UNOWNED + " matches no load balancer (every one has an ovnj.owner)"
                        + closest("", owners.keySet(), c -> Adoption.OWNER_PREFIX + c + " (" + owners.get(c) + " rows)"));
            }
            return problems.isEmpty() ? Optional.<String>empty()
                    : Optional.of(ServiceAnnotations.ADOPT + ": " + String.join("; ", problems));
        });
    }

    /** {@code "; closest: a, b, c"} by edit distance to {@code wanted}, or a note that there is none. */
    private static String closest(String wanted, java.util.Collection<String> candidates, java.util.function.Function<String, String> show) {
        List<String> sorted = candidates.stream().distinct()
                .sorted(Comparator.comparingInt((String c) -> distance(wanted, c)).thenComparing(c -> c)).limit(CANDIDATES).toList();
        return sorted.isEmpty() ? "; there are no load balancers to adopt"
                : "; closest: " + String.join(", ", sorted.stream().map(show).toList());
    }

    /** Levenshtein distance, case-insensitive. */
    static int distance(String a, String b) {
        String x = a.toLowerCase(java.util.Locale.ROOT);
        String y = b.toLowerCase(java.util.Locale.ROOT);
        int[] prev = new int[y.length() + 1];
        int[] cur = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[y.length()];
    }
}
