package dev.ovnj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code ovnj status --output json}: the owned load balancers as the database holds them.
 * Shape (version 1): {@code {kind:"status", version, owner, problems, loadBalancers:[{name,
 * owner, spec, protocol, vips:{VIP:[BACKEND...]}, routers, switches, groups, options, problems}],
 * pending:{SPEC:[REASON...]}, conflicts:[TEXT...]}}; {@code owner} is null when every owner's were
 * listed; {@code conflicts} names, per conflicting spec of a desired-state file, the VIP and the other row;
 * with {@code --sb}, each load balancer's {@code health} maps a checked VIP to its backends' health
 * as OVN's service monitor reports it (e.g. {@code "10.0.0.2:80 offline, 10.0.0.3:80 online"}).
 * Each load balancer's {@code operatingStatus} is the worst of its VIPs' and {@code vipOperatingStatus}
 * maps each VIP to its own ({@code online}, {@code degraded}, {@code error}, {@code no_monitor},
 * {@code offline}, {@code unknown}; a checked VIP is {@code unknown} without {@code --sb}).
 * {@code healthCheckSources} maps each backend address of the row's {@code ip_port_mappings} to the
 * port OVN's service monitor probes it on and the source address it probes from
 * ({@code {"10.0.0.2":{"port":"web1","source":"10.0.0.254"}}}).
 */
final class StatusJson {

    private StatusJson() {
    }

    /**
     * Builds the document.
     *
     * @param snapshot the database
     * @param owner one owner, or null for every owner
     * @param pending spec name to why it waits, from planning a desired-state file (may be empty)
     * @param conflicts one line per conflict found planning a desired-state file (may be empty)
     * @param health row name to its VIPs' operating status and (with {@code --sb}) backend health
     * @return the document
     */
    static ObjectNode of(NorthboundSnapshot snapshot, String owner, Map<String, List<String>> pending, List<String> conflicts,
                         Map<String, BackendHealthReport.RowHealth> health) {
        ObjectNode root = JsonDocument.start("status");
        root.put("owner", owner);
        int problems = 0;
        ArrayNode lbs = root.putArray("loadBalancers");
        for (OwnedLoadBalancer lb : snapshot.ownedBy(owner)) {
            ObjectNode o = lbs.addObject();
            o.put("name", lb.name());
            o.put("owner", lb.owner());
            o.put("spec", lb.spec().isEmpty() ? null : lb.spec());
            o.put("protocol", lb.protocol());
            ObjectNode vips = o.putObject("vips");
            new TreeMap<>(lb.vips()).forEach((vip, backends) -> {
                ArrayNode list = vips.putArray(vip);
                for (String b : backends.split(",")) {
                    if (!b.isBlank()) {
                        list.add(b.strip());
                    }
                }
            });
            JsonDocument.strings(o, "routers", new TreeSet<>(lb.routers()));
            JsonDocument.strings(o, "switches", new TreeSet<>(lb.switches()));
            JsonDocument.strings(o, "groups", new TreeSet<>(lb.groups()));
            ObjectNode options = o.putObject("options");
            new TreeMap<>(lb.options()).forEach(options::put);
            List<String> lbProblems = StatusReport.problems(snapshot, lb);
            BackendHealthReport.RowHealth rowHealth = health.getOrDefault(lb.name(), BackendHealthReport.RowHealth.NONE);
            ObjectNode checked = o.putObject("health");
            rowHealth.health().forEach(checked::put);
            ObjectNode sources = o.putObject("healthCheckSources");
            rowHealth.mappings().forEach((backend, value) -> {
                String[] ps = BackendHealthReport.RowHealth.portAndSource(value);
                sources.putObject(backend).put("port", ps[0]).put("source", ps[1]);
            });
            o.put("operatingStatus", rowHealth.overall().word());
            ObjectNode vipStatus = o.putObject("vipOperatingStatus");
            rowHealth.operating().forEach((vip, st) -> vipStatus.put(vip, st.word()));
            JsonDocument.strings(o, "problems", lbProblems);
            problems += lbProblems.size();
        }
        JsonDocument.stringLists(root, "pending", pending);
        problems += pending.values().stream().mapToInt(List::size).sum();
        JsonDocument.strings(root, "conflicts", conflicts);
        problems += conflicts.size();
        root.put("problems", problems);
        return root;
    }
}
