package dev.ovnj.cli;

import dev.ovnj.lb.OperatingStatus;
import dev.ovnj.lb.spec.Endpoint;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The text of {@code ovnj status}: each owned load balancer with its VIPs, backends, protocol and
 * attachments, and the problems that keep it from working.
 *
 * @param lines the report
 * @param problems how many problems it lists
 */
record StatusReport(List<String> lines, int problems) {

    /** Copies the lines. */
    StatusReport {
        lines = List.copyOf(lines);
    }

    /**
     * Builds the report.
     *
     * @param snapshot the database
     * @param owner one owner, or null for every owner
     * @param pending spec name to why it waits, from planning a desired-state file (may be empty)
     * @param conflicts conflicts found planning a desired-state file (may be empty)
     * @return the report
     */
    static StatusReport of(NorthboundSnapshot snapshot, String owner, Map<String, List<String>> pending, List<String> conflicts) {
        return of(snapshot, owner, pending, conflicts, Map.of());
    }

    /**
     * Builds the report with backend health from the Southbound database.
     *
     * @param snapshot the database
     * @param owner one owner, or null for every owner
     * @param pending spec name to why it waits
     * @param conflicts conflicts found planning a desired-state file
     * @param health row name to its VIPs' operating status and backend health
     * @return the report
     */
    static StatusReport of(NorthboundSnapshot snapshot, String owner, Map<String, List<String>> pending, List<String> conflicts,
                           Map<String, BackendHealthReport.RowHealth> health) {
        List<String> out = new ArrayList<>();
        int problems = 0;
        String currentOwner = null;
        List<OwnedLoadBalancer> rows = snapshot.ownedBy(owner);
        if (rows.isEmpty()) {
            out.add(owner == null ? "no load balancers owned by ovnj" : "no load balancers owned by " + owner);
        }
        for (OwnedLoadBalancer lb : rows) {
            if (!lb.owner().equals(currentOwner)) {
                currentOwner = lb.owner();
                out.add("owner " + currentOwner);
            }
            BackendHealthReport.RowHealth rowHealth = health.getOrDefault(lb.name(), BackendHealthReport.RowHealth.NONE);
            out.add("  " + lb.name() + " (spec " + (lb.spec().isEmpty() ? "?" : lb.spec()) + ", " + lb.protocol() + ")"
                    + (rowHealth.operating().isEmpty() ? "" : " " + rowHealth.overall().word()));
            lb.vips().forEach((vip, backends) -> {
                OperatingStatus op = rowHealth.operating().get(vip);
                out.add("    " + vip + " -> " + (backends.isBlank() ? "(no backends)" : backends) + (op == null ? "" : "  [" + op.word() + "]"));
                String h = rowHealth.health().get(vip);
                if (h != null) {
                    out.add("      health: " + (h.isEmpty() ? "(no backends)" : h));
                }
            });
            if (!rowHealth.mappings().isEmpty()) {
                List<String> probes = new ArrayList<>();
                rowHealth.mappings().forEach((backend, value) -> {
                    String[] ps = BackendHealthReport.RowHealth.portAndSource(value);
                    probes.add(backend + " on " + ps[0] + " from " + ps[1]);
                });
                out.add("    health-check sources: " + String.join(", ", probes));
            }
            out.add("    routers: " + names(lb.routers()) + "  switches: " + names(lb.switches()) + "  groups: " + groups(snapshot, lb));
            if (!lb.options().isEmpty()) {
                out.add("    options: " + new java.util.TreeMap<>(lb.options()));
            }
            for (String problem : problems(snapshot, lb)) {
                out.add("    problem: " + problem);
                problems++;
            }
        }
        for (Map.Entry<String, List<String>> e : pending.entrySet()) {
            for (String reason : e.getValue()) {
                out.add("problem: spec " + e.getKey() + " is pending: " + reason);
                problems++;
            }
        }
        for (String c : conflicts) {
            out.add("conflict: " + c);
            problems++;
        }
        return new StatusReport(out, problems);
    }

    /** VIPs a router serves but will not receive traffic for: no port of the router is on their network. */
    static List<String> problems(NorthboundSnapshot snapshot, OwnedLoadBalancer lb) {
        List<String> out = new ArrayList<>();
        for (String router : snapshot.effectiveRouters(lb)) {
            for (String vip : lb.vips().keySet()) {
                Optional<InetAddress> ip = address(vip);
                if (ip.isPresent() && !snapshot.routerNetworks().routes(router, ip.get())) {
                    List<String> networks = snapshot.routerNetworks().networks(router);
                    out.add("VIP " + vip + " is in no network of router " + router
                            + (networks.isEmpty() ? " (it has no ports)" : " (" + String.join(", ", networks) + ")"));
                }
            }
        }
        return out;
    }

    private static Optional<InetAddress> address(String vip) {
        try {
            return Optional.of(Endpoint.parse(vip).address());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String groups(NorthboundSnapshot snapshot, OwnedLoadBalancer lb) {
        if (lb.groups().isEmpty()) {
            return "-";
        }
        List<String> out = new ArrayList<>();
        for (String g : lb.groups()) {
            out.add(g + " (routers: " + names(snapshot.groupRouters().getOrDefault(g, Set.of()))
                    + "; switches: " + names(snapshot.groupSwitches().getOrDefault(g, Set.of())) + ")");
        }
        return String.join(", ", out);
    }

    private static String names(Set<String> names) {
        if (names.size() <= 1) {
            return names.isEmpty() ? "-" : names.iterator().next(); // most rows: one router, one switch
        }
        return String.join(",", new java.util.TreeSet<>(names));
    }
}
