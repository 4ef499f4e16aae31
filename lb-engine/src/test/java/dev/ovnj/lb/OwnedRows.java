package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Nbctl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's rows as an independent client (ovn-nbctl) sees them, kept as a list so that a row
 * written twice shows up as a duplicate instead of being folded away by a map.
 */
final class OwnedRows {
    static final String OWNER = "kube-dc";

    private OwnedRows() {
    }

    /** Spec {@code i} in its {@code version}: one TCP VIP on the project's EIP network. */
    static LoadBalancerSpec spec(int i, int version) {
        return LoadBalancerSpec.builder("svc-" + i).routers("shalb-dev").switches("shalb-dev-default")
                .tcp("168.119.17." + (52 + i % 10) + ":" + (1000 + i), "10.1." + (version % 250) + "." + (1 + i % 250) + ":8080")
                .build();
    }

    /** {@code name=vip=backends} of every row the owner has, one entry per row, sorted. */
    static List<String> rows(Nbctl nbctl) {
        List<String> out = new ArrayList<>();
        String csv = nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips", "find", "Load_Balancer",
                "external_ids:ovnj.owner=" + OWNER);
        for (String line : csv.split("\n")) {
            if (!line.isBlank()) {
                String[] p = line.split(",", 2);
                out.add(p[0] + "=" + p[1].replace("\"", ""));
            }
        }
        out.sort(null);
        return out;
    }

    /** What {@link #rows} must return for these specs (single-VIP TCP specs). */
    static List<String> expected(Collection<LoadBalancerSpec> specs) {
        Map<String, String> out = new TreeMap<>();
        for (LoadBalancerSpec s : specs) {
            out.put(s.name() + "-tcp", s.vips().get(0).vip() + "=" + String.join(",", s.vips().get(0).backends()));
        }
        List<String> list = new ArrayList<>();
        out.forEach((k, v) -> list.add(k + "=" + v));
        return list;
    }

    /** Number of load balancers attached to the router and to the switch. */
    static int[] attachments(Nbctl nbctl) {
        return new int[] {count(nbctl.run("--bare", "get", "Logical_Router", "shalb-dev", "load_balancer")),
            count(nbctl.run("--bare", "get", "Logical_Switch", "shalb-dev-default", "load_balancer"))};
    }

    /** Number of UUIDs in {@code ovn-nbctl --bare get} output. */
    static int count(String bareUuids) {
        String s = bareUuids.trim();
        return s.isEmpty() ? 0 : s.split("\\s+").length;
    }
}
