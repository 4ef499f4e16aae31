package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.data.Row;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the string bound ({@link FrameLimits#maxStringLength()}, 4 Mi characters) must never
 * refuse, end to end: a real ovsdb-server with the OVN Southbound schema holding 100,000
 * {@code Load_Balancer} rows, one of them a VIP with 20,000 backends (one string of about 330 KB),
 * synced by a client with the default limits (those of every client ovnj builds: the CLI, the
 * engine and the Spring starter set none). Every row's content is checked. Time and heap are
 * printed (MEASURE), never asserted.
 *
 * <p>The rows are written through the server in ten transactions of 10,000 inserts. A database
 * file generated in ovsdb-server's log format is not faster: the server's own ingestion of the
 * rows dominates either way (OVS 3.1 took 22 s to open such a file on a loaded machine).
 */
class SouthboundDumpIT {
    private static final int BALANCERS = 100_000;
    private static final int BATCH = 10_000;
    private static final int BIG_VIP_BACKENDS = 20_000;
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void aSouthboundOf100000LoadBalancersSyncsWithTheDefaultLimits(@TempDir Path dir) throws IOException {
        String bigVipBackends = backends(BIG_VIP_BACKENDS);
        assertThat(bigVipBackends.length()).as("the large VIP's backends").isGreaterThan(300_000);
        Path schema = Schemas.ovnSouthbound(Files.createDirectories(dir.resolve("schema")));
        try (OvsdbServer server = OvsdbServer.builder().schema(schema).inMemory(false).start()) {
            long writeStart = System.nanoTime();
            try (OvsdbClient writer = OvsdbClient.builder().remotes(server.remote()).database("OVN_Southbound")
                    .monitor(MonitorRequest.tables("SB_Global")).requestTimeout(WAIT).build().startAndWait(WAIT)) {
                for (int from = 0; from < BALANCERS; from += BATCH) {
                    Transaction.Builder tx = writer.transaction();
                    for (int i = from; i < from + BATCH; i++) {
                        tx.add(Operations.insert("Load_Balancer").value("name", name(i)).value("protocol", Set.of("tcp"))
                                .value("vips", vips(i, bigVipBackends)).value("external_ids", externalIds(i)));
                    }
                    writer.transactAndWait(tx.build(), WAIT);
                }
            }
            double writeSeconds = (System.nanoTime() - writeStart) / 1e9;

            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            System.gc();
            long heapBefore = memory.getHeapMemoryUsage().getUsed();
            long syncStart = System.nanoTime();
            try (OvsdbClient reader = OvsdbClient.builder().remotes(server.remote()).database("OVN_Southbound")
                    .requestTimeout(WAIT).build().startAndWait(WAIT)) {
                double syncSeconds = (System.nanoTime() - syncStart) / 1e9;
                assertThat(reader.options().frameLimits()).isEqualTo(FrameLimits.defaults());

                Map<String, Row> byName = new HashMap<>();
                reader.cache().table("Load_Balancer").rows().forEach(r -> byName.put((String) r.get("name"), r));
                assertThat(byName).hasSize(BALANCERS);
                for (int i = 0; i < BALANCERS; i++) {
                    Row row = byName.get(name(i));
                    assertThat(row).as(name(i)).isNotNull();
                    assertThat(row.get("protocol")).as(name(i)).isEqualTo(Set.of("tcp"));
                    assertThat(row.get("vips")).as(name(i)).isEqualTo(vips(i, bigVipBackends));
                    assertThat(row.get("external_ids")).as(name(i)).isEqualTo(externalIds(i));
                }
                assertThat(reader.stats().connects()).as("synced on the first connection, never dropped").isEqualTo(1);

                System.gc();
                long heapAfter = memory.getHeapMemoryUsage().getUsed();
                System.out.printf("MEASURE Southbound dump: %d Load_Balancer rows (one VIP of %d backends, %d chars), database file"
                                + " %.1f MB; written in %d transactions in %.1f s; first sync %.1f s; live heap of the synced cache %.0f MB"
                                + " (max heap %.0f MB)%n", BALANCERS, BIG_VIP_BACKENDS, bigVipBackends.length(),
                        Files.size(server.databaseFile()) / 1e6, BALANCERS / BATCH, writeSeconds, syncSeconds,
                        (heapAfter - heapBefore) / 1e6, memory.getHeapMemoryUsage().getMax() / 1e6);
            }
        }
    }

    private static String name(int i) {
        return String.format("lb-%06d", i);
    }

    /** One VIP per balancer, two backends; balancer 0's VIP has the large backend list. */
    private static Map<String, String> vips(int i, String bigVipBackends) {
        String vip = "172.30." + (i / 250 % 250) + "." + (i % 250) + ":" + (80 + i / 62_500);
        String backends = i == 0 ? bigVipBackends
                : "10.1." + (i / 250 % 250) + "." + (i % 250) + ":8080,10.2." + (i / 250 % 250) + "." + (i % 250) + ":8080";
        return Map.of(vip, backends);
    }

    private static Map<String, String> externalIds(int i) {
        return Map.of("lb_id", String.format("%08x-0000-4000-8000-%012x", i, i));
    }

    private static String backends(int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : ",").append("10.").append(i / 65536).append('.').append(i / 256 % 256).append('.')
                    .append(i % 256).append(":8080");
        }
        return b.toString();
    }
}
