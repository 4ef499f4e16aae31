package dev.ovnj.bench.jmh;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.diagnosis.Diagnosis;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.NorthboundFacts;
import dev.ovnj.lb.diagnosis.SouthboundFacts;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.testkit.Schemas;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code ovnj doctor}'s work once both caches are synced: reading the NB and SB facts and
 * diagnosing N healthy load balancers (one VIP and three backends each, on a gateway router with a
 * bound {@code cr-} port and on a switch holding a port per backend), with every check but
 * {@code ovn-trace}. The SB holds what ovn-northd 23.03 writes for them: a Load_Balancer row per
 * load balancer naming the switch through a datapath group, and a router and a switch flow per VIP.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DiagnosisBench {
    private static final DatabaseSchema SB = DatabaseSchema.parse(Schemas.ovnSouthboundJson());

    /** Load balancers diagnosed. */
    @Param({"10000"})
    public int n;

    private RowCache nb;
    private RowCache sb;
    private List<LoadBalancerSpec> specs;
    private Diagnosis diagnosis;

    /** Fills both caches with a healthy setup of N load balancers. */
    @Setup
    public void setup() {
        specs = new ArrayList<>();
        UUID router = BenchData.uuid(2, 0);
        UUID sw = BenchData.uuid(3, 0);
        UUID gwPort = BenchData.uuid(4, 0);
        UUID intPort = BenchData.uuid(4, 1);
        Map<UUID, ObjectNode> lbs = new LinkedHashMap<>();
        Map<UUID, ObjectNode> lsps = new LinkedHashMap<>();
        List<UUID> lbIds = new ArrayList<>();
        List<UUID> lspIds = new ArrayList<>();
        Map<UUID, ObjectNode> sbLbs = new LinkedHashMap<>();
        Map<UUID, ObjectNode> flows = new LinkedHashMap<>();
        UUID routerDp = BenchData.uuid(20, 0);
        UUID switchDp = BenchData.uuid(20, 1);
        UUID switchGroup = BenchData.uuid(21, 0);
        for (int i = 0; i < n; i++) {
            LoadBalancerSpec s = BenchData.spec(i, 3);
            specs.add(s);
            UUID u = BenchData.uuid(1, i);
            lbIds.add(u);
            lbs.put(u, BenchData.lbRow("bench", s));
            String vip = s.vips().get(0).vip();
            List<String> backends = s.vips().get(0).backends();
            for (int k = 0; k < backends.size(); k++) {
                UUID p = BenchData.uuid(5, i * 3 + k);
                lspIds.add(p);
                String ip = backends.get(k).substring(0, backends.get(k).indexOf(':'));
                lsps.put(p, row(BenchData.NB.table("Logical_Switch_Port"), Map.of("name", "p-" + i + "-" + k,
                        "addresses", Set.of(String.format("0a:00:00:%02x:%02x:%02x %s", (i >> 8) & 0xff, i & 0xff, k, ip)))));
            }
            String csv = String.join(",", backends);
            sbLbs.put(BenchData.uuid(22, i), row(SB.table("Load_Balancer"), Map.of("name", s.name() + "-tcp",
                    "vips", Map.of(vip, csv), "protocol", Set.of("tcp"), "datapath_group", Set.of(switchGroup),
                    "external_ids", Map.of("lb_id", u.toString()))));
            String host = vip.substring(0, vip.indexOf(':'));
            flows.put(BenchData.uuid(23, 2 * i), row(SB.table("Logical_Flow"), Map.of("logical_datapath", Set.of(routerDp),
                    "pipeline", "ingress", "table_id", 7L, "priority", 120L,
                    "match", "ct.new && !ct.rel && ip4 && ip4.dst == " + host + " && tcp && tcp.dst == 80 && is_chassis_resident(\"cr-gw\")",
                    "actions", "ct_lb_mark(backends=" + csv + ");")));
            flows.put(BenchData.uuid(23, 2 * i + 1), row(SB.table("Logical_Flow"), Map.of("logical_datapath", Set.of(switchDp),
                    "pipeline", "ingress", "table_id", 12L, "priority", 120L,
                    "match", "ct.new && ip4.dst == " + host + " && tcp.dst == 80",
                    "actions", "reg0[1] = 0; ct_lb_mark(backends=" + csv + ");")));
        }
        Map<String, Map<UUID, ObjectNode>> nbTables = new LinkedHashMap<>();
        nbTables.put("Load_Balancer", lbs);
        nbTables.put("Logical_Router", Map.of(router, row(BenchData.NB.table("Logical_Router"), Map.of("name", "r",
                "load_balancer", Set.copyOf(lbIds), "ports", Set.of(gwPort, intPort)))));
        nbTables.put("Logical_Router_Port", Map.of(
                gwPort, row(BenchData.NB.table("Logical_Router_Port"), Map.of("name", "gw", "mac", "02:00:00:00:00:01",
                        "networks", Set.of("172.20.0.1/16"), "gateway_chassis", Set.of(BenchData.uuid(6, 0)))),
                intPort, row(BenchData.NB.table("Logical_Router_Port"), Map.of("name", "int", "mac", "02:00:00:00:00:02",
                        "networks", Set.of("10.0.0.1/8")))));
        nbTables.put("Logical_Switch", Map.of(sw, row(BenchData.NB.table("Logical_Switch"), Map.of("name", "s",
                "load_balancer", Set.copyOf(lbIds), "ports", Set.copyOf(lspIds)))));
        nbTables.put("Logical_Switch_Port", lsps);
        nbTables.put("Gateway_Chassis", Map.of(BenchData.uuid(6, 0), row(BenchData.NB.table("Gateway_Chassis"),
                Map.of("name", "gw-ch1", "chassis_name", "ch1", "priority", 10L))));
        nb = new RowCache();
        nb.replace(BenchData.NB, List.of("Load_Balancer", "Load_Balancer_Group", "Logical_Router", "Logical_Router_Port",
                "Logical_Switch", "Logical_Switch_Port", "Gateway_Chassis"),
                UpdateBatch.fromUpdates2(BenchData.initial(nbTables), Optional.empty()));

        UUID chassis = BenchData.uuid(24, 0);
        Map<String, Map<UUID, ObjectNode>> sbTables = new LinkedHashMap<>();
        sbTables.put("Datapath_Binding", Map.of(
                routerDp, row(SB.table("Datapath_Binding"), Map.of("tunnel_key", 1L,
                        "external_ids", Map.of("logical-router", router.toString(), "name", "r"))),
                switchDp, row(SB.table("Datapath_Binding"), Map.of("tunnel_key", 2L,
                        "external_ids", Map.of("logical-switch", sw.toString(), "name", "s")))));
        sbTables.put("Logical_DP_Group", Map.of(switchGroup, row(SB.table("Logical_DP_Group"), Map.of("datapaths", Set.of(switchDp)))));
        sbTables.put("Load_Balancer", sbLbs);
        sbTables.put("Logical_Flow", flows);
        sbTables.put("Chassis", Map.of(chassis, row(SB.table("Chassis"), Map.of("name", "ch1", "hostname", "ch1"))));
        sbTables.put("Port_Binding", Map.of(BenchData.uuid(25, 0), row(SB.table("Port_Binding"), Map.of("logical_port", "cr-gw",
                "type", "chassisredirect", "datapath", routerDp, "tunnel_key", 3L, "chassis", Set.of(chassis)))));
        sb = new RowCache();
        sb.replace(SB, List.of("Datapath_Binding", "Load_Balancer", "Logical_DP_Group", "Port_Binding", "Service_Monitor",
                "Logical_Flow", "Chassis"), UpdateBatch.fromUpdates2(BenchData.initial(sbTables), Optional.empty()));

        diagnosis = Diagnosis.builder().owner("bench").specs(specs).build();
        DiagnosisReport r = diagnose();
        if (r.checked() != n || !r.findings().isEmpty()) {
            throw new IllegalStateException("the synthetic setup is not healthy: " + r.checked() + " checked, "
                    + r.findings().stream().limit(3).toList());
        }
    }

    private static ObjectNode row(TableSchema t, Map<String, Object> values) {
        ObjectNode row = BenchData.F.objectNode();
        values.forEach((column, value) -> row.set(column, ValueCodec.toJson(t.column(column).type(), value)));
        return row;
    }

    /**
     * Reads both caches and diagnoses every load balancer once.
     *
     * @return the (empty) report
     */
    @Benchmark
    public DiagnosisReport diagnose() {
        return diagnosis.run(NorthboundFacts.read(nb), Optional.of(SouthboundFacts.read(sb)));
    }
}
