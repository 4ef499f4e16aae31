package dev.ovnj.bench.jmh;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.testkit.Schemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Synthetic OVN Northbound rows shaped like the engine's, for the micro-benchmarks. */
final class BenchData {
    static final DatabaseSchema NB = DatabaseSchema.parse(Schemas.ovnNorthboundJson());
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private BenchData() {
    }

    static LoadBalancerSpec spec(int i, int backends) {
        List<String> b = new ArrayList<>();
        for (int k = 1; k <= backends; k++) {
            b.add("10." + (i / 250) + "." + (i % 250) + "." + k + ":8080");
        }
        return LoadBalancerSpec.builder("svc-" + i).routers("r").switches("s")
                .tcp("172.20." + (i / 250) + "." + (i % 250 + 1) + ":80", b.toArray(String[]::new)).build();
    }

    /** The JSON {@code <row>} of the owned Load_Balancer row the engine writes for a spec. */
    static ObjectNode lbRow(String owner, LoadBalancerSpec spec) {
        DesiredRow d = DesiredRow.of(owner, spec).get(0);
        TableSchema t = NB.table("Load_Balancer");
        ObjectNode row = F.objectNode();
        row.set("name", ValueCodec.toJson(t.column("name").type(), d.rowName()));
        row.set("vips", ValueCodec.toJson(t.column("vips").type(), d.vips()));
        row.set("protocol", ValueCodec.toJson(t.column("protocol").type(), Set.of(d.protocol().wireValue())));
        row.set("options", ValueCodec.toJson(t.column("options").type(), d.options()));
        row.set("selection_fields", ValueCodec.toJson(t.column("selection_fields").type(), d.selectionFields()));
        row.set("external_ids", ValueCodec.toJson(t.column("external_ids").type(), d.externalIds()));
        return row;
    }

    /** A {@code Logical_Router} or {@code Logical_Switch} row holding the given load balancers. */
    static ObjectNode holder(String table, String name, List<UUID> lbs) {
        TableSchema t = NB.table(table);
        ObjectNode row = F.objectNode();
        row.set("name", ValueCodec.toJson(t.column("name").type(), name));
        row.set("load_balancer", ValueCodec.toJson(t.column("load_balancer").type(), Set.copyOf(lbs)));
        return row;
    }

    /** {@code table-updates2} with every row as "initial". */
    static ObjectNode initial(Map<String, Map<UUID, ObjectNode>> tables) {
        ObjectNode updates = F.objectNode();
        tables.forEach((table, rows) -> {
            ObjectNode t = updates.putObject(table);
            rows.forEach((uuid, row) -> t.putObject(uuid.toString()).set("initial", row));
        });
        return updates;
    }

    /**
     * A fixed UUID per (table, i) that looks random, as ovsdb-server's version-4 UUIDs do: sequential
     * ones would sit in consecutive hash slots and flatter every hash structure the bench walks.
     */
    static UUID uuid(int table, int i) {
        long key = ((long) table << 32) | (i & 0xffffffffL);
        long msb = (mix(key) & ~0xf000L) | 0x4000L;
        long lsb = (mix(key ^ 0x9e3779b97f4a7c15L) & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** The 64-bit finaliser of MurmurHash3: a bijection, so distinct keys keep distinct UUIDs. */
    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
