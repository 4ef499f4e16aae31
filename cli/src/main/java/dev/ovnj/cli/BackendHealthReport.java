package dev.ovnj.cli;

import dev.ovnj.lb.BackendHealth;
import dev.ovnj.lb.BackendHealthView;
import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * For {@code ovnj status --sb}: per load balancer row and checked VIP (one with a
 * {@code Load_Balancer_Health_Check}), what OVN's service monitor says about each backend.
 */
final class BackendHealthReport {
    private BackendHealthReport() {
    }

    /**
     * Reads the checked VIPs from the NB cache and their backends' health from the SB cache.
     *
     * @param nb the Northbound cache (Load_Balancer, Load_Balancer_Health_Check)
     * @param sb the Southbound cache (Service_Monitor, index added)
     * @return row name to VIP to one line, e.g. {@code 10.0.0.2:80 offline, 10.0.0.3:80 online}
     */
    static Map<String, Map<String, String>> read(RowCache nb, RowCache sb) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        nb.read(() -> {
            var checks = nb.findTable("Load_Balancer_Health_Check");
            for (Row lb : nb.table("Load_Balancer").rows()) {
                if (checks.isEmpty() || !(lb.get("health_check") instanceof Set<?> refs) || refs.isEmpty()
                        || !(lb.get("vips") instanceof Map<?, ?> vips)) {
                    continue;
                }
                Protocol protocol = lb.get("protocol") instanceof Set<?> p && !p.isEmpty()
                        ? Protocol.parse(String.valueOf(p.iterator().next())) : Protocol.TCP;
                for (Object ref : refs) {
                    checks.get().get((java.util.UUID) ref).ifPresent(hc -> {
                        String vip = String.valueOf(hc.get("vip"));
                        Object backends = vips.get(vip);
                        if (backends == null) {
                            return;
                        }
                        List<String> list = Arrays.stream(String.valueOf(backends).split(",")).filter(s -> !s.isBlank()).toList();
                        Map<String, BackendHealth> health;
                        try {
                            health = BackendHealthView.of(LoadBalancerSpec.builder("status")
                                    .vip(VipSpec.of(protocol, vip, list).withHealthCheck(HealthCheck.DEFAULTS)).build(), sb);
                        } catch (IllegalArgumentException e) {
                            return;
                        }
                        List<String> parts = new ArrayList<>();
                        health.forEach((b, h) -> parts.add(b + " " + h.word()));
                        out.computeIfAbsent(String.valueOf(lb.get("name")), k -> new TreeMap<>()).put(vip, String.join(", ", parts));
                    });
                }
            }
            return null;
        });
        return out;
    }
}
