package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.cache.IndexSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.sb.model.ServiceMonitor;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Per-backend health of a spec's checked VIPs from the Southbound {@code Service_Monitor} table
 * (read through the typed {@code ovn-sb-model}):
 * the row with the backend's address, port and protocol (ovn-northd keeps one per mapped backend;
 * IPv6 addresses without brackets). Reads inside one Southbound cache read.
 */
public final class BackendHealthView {
    /** Service monitors by backend address; the engine adds it to the Southbound cache. */
    public static final IndexSpec MONITOR_BY_IP = IndexSpec.of("Service_Monitor", "ip");

    private BackendHealthView() {
    }

    /**
     * The health of every backend of the spec's checked VIPs.
     *
     * @param spec the spec (only VIPs with a health check count)
     * @param sb a Southbound cache holding {@code Service_Monitor}, with {@link #MONITOR_BY_IP} added
     * @return backend ({@code IP:PORT} as OVN writes it) to health
     */
    public static Map<String, BackendHealth> of(LoadBalancerSpec spec, RowCache sb) {
        return sb.read(() -> {
            Map<String, BackendHealth> out = new TreeMap<>();
            Optional<TableCache> monitors = sb.findTable("Service_Monitor");
            for (VipSpec v : spec.vips()) {
                if (v.healthCheck().isEmpty()) {
                    continue;
                }
                for (String b : v.backends()) {
                    Endpoint be;
                    try {
                        be = Endpoint.parse(b);
                    } catch (IllegalArgumentException e) {
                        continue;
                    }
                    BackendHealth h = BackendHealth.UNKNOWN;
                    if (monitors.isPresent()) {
                        for (Row m : monitors.get().lookup(MONITOR_BY_IP, be.host())) {
                            if (matches(m, be, v)) {
                                h = health(m);
                                break;
                            }
                        }
                    }
                    out.put(be.toString(), h);
                }
            }
            return out;
        });
    }

    private static boolean matches(Row row, Endpoint be, VipSpec v) {
        ServiceMonitor m = ServiceMonitor.fromRow(row);
        // An empty protocol means tcp (ovn-sb(5)).
        String protocol = m.protocol().map(ServiceMonitor.Protocol::wireValue).orElse("tcp");
        return m.port() == be.port() && protocol.equals(v.protocol().wireValue());
    }

    private static BackendHealth health(Row row) {
        return ServiceMonitor.fromRow(row).status().map(s -> switch (s.wireValue()) {
            case "online" -> BackendHealth.ONLINE;
            case "offline" -> BackendHealth.OFFLINE;
            case "error" -> BackendHealth.ERROR;
            default -> BackendHealth.UNKNOWN;
        }).orElse(BackendHealth.UNKNOWN);
    }
}
