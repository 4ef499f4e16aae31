package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
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
 *
 * <p>Backends are keyed as {@link #key} writes them: {@code IP:PORT} (or {@code [IPv6]:PORT}) for
 * a TCP VIP's backend, with {@code /udp} or {@code /sctp} appended for the other protocols, e.g.
 * {@code 10.0.0.5:53/udp}. A spec serving one backend over TCP and UDP (DNS on port 53) thus
 * reports both monitors, each with its own status.
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
     * @return backend, keyed as {@link #key} writes it, to health
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
                    out.put(key(be, v.protocol()), h);
                }
            }
            return out;
        });
    }

    /**
     * The key under which a backend's health is reported: {@code IP:PORT} or {@code [IPv6]:PORT}
     * as OVN writes it for TCP, the common case; {@code IP:PORT/udp} or {@code IP:PORT/sctp}
     * (e.g. {@code [fd00::5]:53/udp}) for the other protocols, so that one backend checked over TCP
     * and UDP has two entries.
     *
     * @param backend the backend's address and port
     * @param protocol the protocol of the VIP it serves
     * @return the key
     */
    public static String key(Endpoint backend, Protocol protocol) {
        return protocol == Protocol.TCP ? backend.toString() : backend + "/" + protocol.wireValue();
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
