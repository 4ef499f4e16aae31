package dev.ovnj.bench.jmh;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.schema.TableSchema;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** {@link Row#fromJson} of one engine-owned Load_Balancer row with 10 backends. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RowDecodeBench {
    private TableSchema table;
    private ObjectNode json;
    private UUID uuid;

    /** Builds the row JSON and the schema. */
    @Setup
    public void setup() {
        table = BenchData.NB.table("Load_Balancer");
        json = BenchData.lbRow("bench", BenchData.spec(7, 10));
        uuid = BenchData.uuid(1, 7);
    }

    /**
     * Decodes the row once.
     *
     * @return the row
     */
    @Benchmark
    public Row fromJson() {
        return Row.fromJson(table, uuid, json);
    }
}
