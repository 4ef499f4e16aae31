package dev.ovnj.cli;

import dev.ovnj.lb.BackendHealth;
import dev.ovnj.lb.BackendHealthView;
import dev.ovnj.lb.OperatingStatus;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * For {@code ovnj status}: per load balancer row and VIP, its operating status and, for a checked
 * VIP (one with a {@code Load_Balancer_Health_Check}) and {@code --sb}, what OVN's service monitor
 * says about each backend.
 */
final class BackendHealthReport {
    /**
     * One row's VIPs.
     *
     * @param health checked VIP to one line of its backends' health, e.g. {@code 10.0.0.2:80 offline, 10.0.0.3:80 online}
     *     (only with {@code --sb})
     * @param operating every VIP to its operating status
     * @param mappings the row's {@code ip_port_mappings}: backend address ({@code [IPv6]} in brackets) to
     *     {@code port:source}, the port OVN's service monitor probes the backend on and the address it probes from
     */
    record RowHealth(Map<String, String> health, Map<String, OperatingStatus> operating, Map<String, String> mappings) {
        static final RowHealth NONE = new RowHealth(Map.of(), Map.of(), Map.of());

        /**
         * The port and the source of one {@code ip_port_mappings} value.
         *
         * @param value {@code port:source} or {@code port:[source]}
         * @return {port, source}; the source empty when the value has none
         */
        static String[] portAndSource(String value) {
            int colon = value.indexOf(':');
            if (colon < 0) {
                return new String[] {value, ""};
            }
            String source = value.substring(colon + 1);
            if (source.startsWith("[") && source.indexOf(']') > 0) {
                source = source.substring(1, source.indexOf(']'));
            }
            return new String[] {value.substring(0, colon), source};
        }

        /**
         * The row's operating status: the worst of its VIPs'.
         *
         * @return the status
         */
        OperatingStatus overall() {
            return OperatingStatus.worst(operating.values());
        }
    }

    private BackendHealthReport() {
    }

    /**
     * Reads the VIPs and their health checks from the NB cache and their backends' health from the SB cache.
     *
     * @param nb the Northbound cache (Load_Balancer, Load_Balancer_Health_Check)
     * @param sb the Southbound cache ({@code LoadBalancerEngine.southboundMonitorRequest()}, indexes added), or null without
     *     {@code --sb}: a checked VIP is then UNKNOWN
     * @return row name to its VIPs
     */
    static Map<String, RowHealth> read(RowCache nb, RowCache sb) {
        Map<String, RowHealth> out = new TreeMap<>();
        nb.read(() -> {
            var checks = nb.findTable("Load_Balancer_Health_Check");
            for (Row lb : nb.table("Load_Balancer").rows()) {
                if (!(lb.get("vips") instanceof Map<?, ?> vips)) {
                    continue;
                }
                Set<String> checked = new HashSet<>();
                if (checks.isPresent() && lb.get("health_check") instanceof Set<?> refs) {
                    for (Object ref : refs) {
                        checks.get().get((java.util.UUID) ref).ifPresent(hc -> checked.add(String.valueOf(hc.get("vip"))));
                    }
                }
                Protocol protocol = lb.get("protocol") instanceof Set<?> p && !p.isEmpty()
                        ? Protocol.parse(String.valueOf(p.iterator().next())) : Protocol.TCP;
                Map<String, String> lines = new TreeMap<>();
                Map<String, OperatingStatus> operating = new TreeMap<>();
                vips.forEach((vip, backends) -> {
                    List<String> list = Arrays.stream(String.valueOf(backends).split(",")).map(String::strip)
                            .filter(s -> !s.isEmpty()).toList();
                    String v = String.valueOf(vip);
                    if (!checked.contains(v)) {
                        operating.put(v, OperatingStatus.ofVip(false, Collections.nCopies(list.size(), BackendHealth.UNKNOWN)));
                        return;
                    }
                    if (sb == null) {
                        operating.put(v, OperatingStatus.ofVip(true, Collections.nCopies(list.size(), BackendHealth.UNKNOWN)));
                        return;
                    }
                    Map<String, BackendHealth> health;
                    try {
                        health = BackendHealthView.of(LoadBalancerSpec.builder("status")
                                .vip(VipSpec.of(protocol, v, list).withHealthCheck(HealthCheck.DEFAULTS)).build(), sb);
                    } catch (IllegalArgumentException e) {
                        // A VIP the engine could not have written: not judged.
                        return;
                    }
                    List<String> parts = new ArrayList<>();
                    health.forEach((b, h) -> parts.add(b + " " + h.word()));
                    lines.put(v, String.join(", ", parts));
                    operating.put(v, OperatingStatus.ofVip(true, health.values()));
                });
                Map<String, String> mappings = new TreeMap<>();
                if (lb.get("ip_port_mappings") instanceof Map<?, ?> m) {
                    m.forEach((k, val) -> mappings.put(String.valueOf(k), String.valueOf(val)));
                }
                out.put(String.valueOf(lb.get("name")), new RowHealth(lines, operating, mappings));
            }
            return null;
        });
        return out;
    }
}
