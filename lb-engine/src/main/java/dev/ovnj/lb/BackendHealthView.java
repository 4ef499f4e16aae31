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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 *
 * <p><b>Stale verdicts.</b> A monitor's {@code status} is only as fresh as the ovn-controller that
 * probes the backend: the one on the chassis its {@code logical_port} is bound to. When that
 * ovn-controller is gone, nobody updates the row and its last word stays, so the backend is
 * {@link BackendHealth#UNKNOWN} whatever the row says when the Southbound shows any of: no
 * {@code Port_Binding} for the monitor's port, the binding's {@code chassis} empty (the port is
 * unbound, or its {@code Chassis} row was deleted, which empties this weak reference), or no
 * {@code Chassis_Private} row of that chassis' name (ovn-controller creates it at start and deletes it
 * with the {@code Chassis} row on a clean exit, {@code ovn-sbctl chassis-del} deletes both). The bound:
 * the backend turns UNKNOWN with the Southbound update that shows it, nothing waits on a timer. Not
 * detected: an ovn-controller that died without its rows being removed (they stay until it comes back
 * or an operator deletes the chassis); OVN itself has no liveness record of a chassis to read. These
 * checks apply only to the tables the cache holds ({@link LoadBalancerEngine#southboundMonitorRequest()}
 * asks for all of them).
 */
public final class BackendHealthView {
    /** Service monitors by backend address; the engine adds it to the Southbound cache. */
    public static final IndexSpec MONITOR_BY_IP = IndexSpec.of("Service_Monitor", "ip");
    /** Port bindings by logical port: where a monitored backend's port is bound. */
    public static final IndexSpec BINDING_BY_PORT = IndexSpec.of("Port_Binding", "logical_port");
    /** Chassis_Private rows by chassis name: whether that chassis' ovn-controller is there. */
    public static final IndexSpec CHASSIS_PRIVATE_BY_NAME = IndexSpec.of("Chassis_Private", "name");
    /** Every index {@link #of} reads through; add them all to the Southbound cache. */
    public static final List<IndexSpec> INDEXES = List.of(MONITOR_BY_IP, BINDING_BY_PORT, CHASSIS_PRIVATE_BY_NAME);
    /** The Southbound tables a backend's health depends on. */
    public static final Set<String> TABLES = Set.of("Service_Monitor", "Port_Binding", "Chassis", "Chassis_Private");

    private BackendHealthView() {
    }

    /**
     * The health of every backend of the spec's checked VIPs.
     *
     * @param spec the spec (only VIPs with a health check count)
     * @param sb a Southbound cache holding {@code Service_Monitor} (and, to tell stale verdicts,
     *     {@code Port_Binding}, {@code Chassis}, {@code Chassis_Private}), with {@link #INDEXES} added
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
                                h = reporterGone(m, sb) ? BackendHealth.UNKNOWN : health(m);
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

    /** Whether the ovn-controller that would update this monitor is gone (see the class comment). */
    private static boolean reporterGone(Row monitor, RowCache sb) {
        Optional<TableCache> bindings = sb.findTable("Port_Binding");
        if (bindings.isEmpty()) {
            return false;
        }
        String port = ServiceMonitor.fromRow(monitor).logicalPort();
        List<Row> found = bindings.get().lookup(BINDING_BY_PORT, port);
        // An optional column: a set of at most one reference.
        if (found.isEmpty() || !(found.get(0).get("chassis") instanceof Set<?> refs) || refs.isEmpty()
                || !(refs.iterator().next() instanceof java.util.UUID chassis)) {
            return true;
        }
        Optional<TableCache> chassisTable = sb.findTable("Chassis");
        Optional<TableCache> privates = sb.findTable("Chassis_Private");
        if (chassisTable.isEmpty() || privates.isEmpty()) {
            return false;
        }
        Optional<Row> c = chassisTable.get().get(chassis);
        return c.isEmpty() || privates.get().lookup(CHASSIS_PRIVATE_BY_NAME, c.get().get("name")).isEmpty();
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
