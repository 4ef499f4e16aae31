package dev.ovnj.bench.odl;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import dev.ovnj.bench.JitWarmth;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.opendaylight.ovsdb.lib.MonitorCallBack;
import org.opendaylight.ovsdb.lib.OvsdbClient;
import org.opendaylight.ovsdb.lib.impl.NettyBootstrapFactory;
import org.opendaylight.ovsdb.lib.impl.OvsdbConnectionService;
import org.opendaylight.ovsdb.lib.message.MonitorRequest;
import org.opendaylight.ovsdb.lib.message.MonitorRequestBuilder;
import org.opendaylight.ovsdb.lib.message.MonitorSelect;
import org.opendaylight.ovsdb.lib.message.TableUpdate;
import org.opendaylight.ovsdb.lib.message.TableUpdates;
import org.opendaylight.ovsdb.lib.notation.Mutator;
import org.opendaylight.ovsdb.lib.notation.Row;
import org.opendaylight.ovsdb.lib.notation.UUID;
import org.opendaylight.ovsdb.lib.operations.Insert;
import org.opendaylight.ovsdb.lib.operations.Mutate;
import org.opendaylight.ovsdb.lib.operations.Operation;
import org.opendaylight.ovsdb.lib.operations.OperationResult;
import org.opendaylight.ovsdb.lib.schema.ColumnSchema;
import org.opendaylight.ovsdb.lib.schema.DatabaseSchema;
import org.opendaylight.ovsdb.lib.schema.GenericTableSchema;

/**
 * Peer driver: OpenDaylight's OVSDB library ({@code org.opendaylight.ovsdb:library}), the Java
 * client ovnj is compared with. Runs in its own JVM (the library's executors are not daemon
 * threads, and its heap must not mix with ovnj's) and prints one JSON object on stdout, like the
 * Python and ovn-nbctl drivers.
 *
 * <pre>
 *   OdlPeer bulk HOST:PORT WARM_HOST:PORT N WINDOW ROUTER SWITCH PREFIX MONITOR
 *       N single-load-balancer transactions (insert with uuid-name, attach to ROUTER and SWITCH),
 *       at most WINDOW in flight, after full-size warm-up passes on the warm-up server (until one
 *       compiles for under 2% of its wall time, at most 3), as the harness does for ovnj's clients.
 *       MONITOR=true keeps a monitor of the three tables with a row map updated from every
 *       update, as a cache-keeping controller would; false sends transactions only.
 *   OdlPeer sync HOST:PORT RUNS
 *       Time to connect and receive the monitor reply of the load-balancer tables (median, fastest
 *       and slowest of RUNS syncs, after full-size warm-up syncs until one compiles for under 2% of
 *       its wall time, at most 3), and the heap the first measured reply holds per Load_Balancer row.
 * </pre>
 *
 * <p>The library's defaults are changed where they would make it fail rather than be slow: the
 * JSON-RPC frame limit (100,000 bytes) and the 1,000 ms RPC timeout that cancels requests whose
 * transactions did commit.
 */
public final class OdlPeer {
    private static final String DB = "OVN_Northbound";
    private static final List<String> SYNC_TABLES = List.of("Load_Balancer", "Load_Balancer_Group", "Logical_Router",
            "Logical_Switch", "Logical_Router_Port", "NAT");

    private final OvsdbConnectionService service;

    private OdlPeer() {
        service = new OvsdbConnectionService(new NettyBootstrapFactory(), null);
        service.setJsonRpcDecoderMaxFrameLength(1 << 30);
        service.setOvsdbRpcTaskTimeout((int) TimeUnit.MINUTES.toMillis(10));
    }

    /**
     * Runs one mode and exits the JVM (the library leaves non-daemon threads behind).
     *
     * @param args the mode and its arguments, see the class comment
     */
    public static void main(String[] args) {
        int status = 0;
        try {
            OdlPeer peer = new OdlPeer();
            String json = switch (args[0]) {
                case "bulk" -> peer.bulk(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5],
                        args[6], args[7], Boolean.parseBoolean(args[8]));
                case "sync" -> peer.sync(args[1], Integer.parseInt(args[2]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            };
            System.out.println(json);
        } catch (Throwable e) {
            e.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private OvsdbClient connect(String hostPort) throws Exception {
        int colon = hostPort.lastIndexOf(':');
        OvsdbClient client = service.connect(InetAddress.getByName(hostPort.substring(0, colon)),
                Integer.parseInt(hostPort.substring(colon + 1)));
        if (client == null) {
            throw new IllegalStateException("could not connect to " + hostPort);
        }
        return client;
    }

    /** The tables and columns one bulk transaction touches. */
    private record BulkSchema(DatabaseSchema db, GenericTableSchema lb, GenericTableSchema router,
                              GenericTableSchema sw) {
        static BulkSchema of(DatabaseSchema db) {
            return new BulkSchema(db, db.table("Load_Balancer", GenericTableSchema.class),
                    db.table("Logical_Router", GenericTableSchema.class), db.table("Logical_Switch", GenericTableSchema.class));
        }

        // The library's transact takes a raw List<Operation>.
        @SuppressWarnings("rawtypes")
        List<Operation> transaction(String prefix, int i, String router, String sw) {
            ColumnSchema<GenericTableSchema, String> name = lb.column("name", String.class);
            ColumnSchema<GenericTableSchema, Map<String, String>> vips = lb.multiValuedColumn("vips", String.class, String.class);
            ColumnSchema<GenericTableSchema, Set<String>> protocol = lb.multiValuedColumn("protocol", String.class);
            Insert<GenericTableSchema> insert = new Insert<>(lb).withId("lb")
                    .value(name, prefix + i)
                    .value(vips, Map.of(vip(i), backends(i)))
                    .value(protocol, Set.of("tcp"));
            Set<UUID> ref = Set.of(new UUID("lb"));
            return List.of(insert, attach(router, ref, this.router), attach(sw, ref, this.sw));
        }

        @SuppressWarnings("rawtypes")
        private static Operation attach(String target, Set<UUID> ref, GenericTableSchema table) {
            Mutate<GenericTableSchema> m = new Mutate<>(table)
                    .addMutation(table.multiValuedColumn("load_balancer", UUID.class), Mutator.INSERT, ref);
            return m.where(table.column("name", String.class).opEqual(target)).build();
        }
    }

    // Same addresses as the harness's ovnj and Python clients (VIP in 172.19/16: its own range).
    static String vip(int i) {
        return "172.19." + (i / 250) + "." + (i % 250 + 1) + ":80";
    }

    static String backends(int i) {
        String p = "10." + (i / 250) + "." + (i % 250) + ".";
        return p + "1:8080," + p + "2:8080," + p + "3:8080";
    }

    /** A cache-keeping monitor: one row map per table, updated from every update notification. */
    private static final class RowMaps implements MonitorCallBack {
        final Map<String, Map<UUID, Row<GenericTableSchema>>> tables = new ConcurrentHashMap<>();
        final AtomicLong updates = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        @Override
        @SuppressWarnings("unchecked")
        public void update(TableUpdates result, DatabaseSchema dbSchema) {
            updates.incrementAndGet();
            apply(result);
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        void apply(TableUpdates result) {
            for (Map.Entry<String, TableUpdate> t : result.getUpdates().entrySet()) {
                Map<UUID, Row<GenericTableSchema>> rows = tables.computeIfAbsent(t.getKey(), k -> new ConcurrentHashMap<>());
                Map<UUID, TableUpdate.RowUpdate<GenericTableSchema>> changed = t.getValue().getRows();
                changed.forEach((uuid, u) -> {
                    if (u.getNew() == null) {
                        rows.remove(uuid);
                    } else {
                        rows.put(uuid, u.getNew());
                    }
                });
            }
        }

        @Override
        public void exception(Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private static List<MonitorRequest> monitorRequests(DatabaseSchema db, List<String> tables) {
        List<MonitorRequest> requests = new ArrayList<>();
        for (String t : tables) {
            GenericTableSchema table = db.table(t, GenericTableSchema.class);
            requests.add(new MonitorRequestBuilder<>(table).addColumns(table.getColumnList())
                    .with(new MonitorSelect(true, true, true, true)).build());
        }
        return requests;
    }

    /** Outcome of one bulk pass. */
    private record Pass(double wallS, double cpuS, int failures, String firstError, long updates) {
    }

    private Pass bulkPass(String hostPort, int n, int window, String router, String sw, String prefix, boolean monitor)
            throws Exception {
        OvsdbClient client = connect(hostPort);
        try {
            DatabaseSchema db = client.getSchema(DB).get(60, TimeUnit.SECONDS);
            BulkSchema schema = BulkSchema.of(db);
            RowMaps maps = new RowMaps();
            if (monitor) {
                maps.apply(client.monitor(db, monitorRequests(db, List.of("Load_Balancer", "Logical_Router", "Logical_Switch")), maps));
            }
            Semaphore permits = new Semaphore(window);
            AtomicInteger failures = new AtomicInteger();
            AtomicReference<String> first = new AtomicReference<>();
            double cpu0 = cpuSeconds();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                permits.acquire();
                Futures.addCallback(client.transact(db, schema.transaction(prefix, i, router, sw)),
                        new FutureCallback<List<OperationResult>>() {
                            @Override
                            public void onSuccess(List<OperationResult> results) {
                                String error = errorOf(results);
                                if (error != null) {
                                    failures.incrementAndGet();
                                    first.compareAndSet(null, error);
                                }
                                permits.release();
                            }

                            @Override
                            public void onFailure(Throwable t) {
                                failures.incrementAndGet();
                                first.compareAndSet(null, t.toString());
                                permits.release();
                            }
                        }, MoreExecutors.directExecutor());
            }
            if (!permits.tryAcquire(window, 30, TimeUnit.MINUTES)) {
                throw new IllegalStateException("transactions still pending after 30 minutes");
            }
            if (monitor) {
                // A cache-keeping controller is done when its cache shows the writes.
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                while (maps.tables.getOrDefault("Load_Balancer", Map.of()).size() < n && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            double cpu = cpuSeconds() - cpu0;
            if (maps.failure.get() != null) {
                failures.incrementAndGet();
                first.compareAndSet(null, "monitor: " + maps.failure.get());
            }
            return new Pass(wall, cpu, failures.get(), first.get(), maps.updates.get());
        } finally {
            client.disconnect();
        }
    }

    private String bulk(String hostPort, String warmHostPort, int n, int window, String router, String sw, String prefix,
                        boolean monitor) throws Exception {
        // Warmed as the harness warms ovnj's clients: full-size passes until JitWarmth counts it warm.
        JitWarmth.warm(pass -> bulkPass(warmHostPort, n, window, router, sw, "warm" + pass + "-", monitor).wallS());
        Pass p = bulkPass(hostPort, n, window, router, sw, prefix, monitor);
        return String.format(Locale.ROOT, "{\"wall_s\": %.6f, \"cpu_s\": %.4f, \"failures\": %d, \"rows\": %d, \"updates\": %d, \"first_error\": %s}",
                p.wallS(), p.cpuS(), p.failures(), n, p.updates(), p.firstError() == null ? "null" : quote(p.firstError()));
    }

    private String sync(String hostPort, int runs) throws Exception {
        // Warmed as the harness warms ovnj's sync: full-size syncs until JitWarmth counts it warm.
        int passes = JitWarmth.warm(pass -> {
            long t0 = System.nanoTime();
            syncOnce(hostPort).client().disconnect();
            return (System.nanoTime() - t0) / 1e9;
        });
        // Then the measured syncs; each reply is dropped before the next baseline.
        double[] walls = new double[runs];
        double[] cpus = new double[runs];
        double heapPerRow = 0;
        int rows = 0;
        for (int k = 0; k < runs; k++) {
            long heap0 = usedHeapAfterGc();
            double cpu0 = cpuSeconds();
            long t0 = System.nanoTime();
            Synced s = syncOnce(hostPort);
            walls[k] = (System.nanoTime() - t0) / 1e9;
            cpus[k] = cpuSeconds() - cpu0;
            rows = s.reply().getUpdate(s.db().table("Load_Balancer", GenericTableSchema.class)).getRows().size();
            if (k == 0) {
                heapPerRow = (usedHeapAfterGc() - heap0) / (double) rows;
            }
            s.client().disconnect();
        }
        Arrays.sort(walls);
        Arrays.sort(cpus);
        return String.format(Locale.ROOT, "{\"sync_s\": %.6f, \"sync_s_min\": %.6f, \"sync_s_max\": %.6f, \"cpu_s\": %.4f, "
                        + "\"rows\": %d, \"heap_bytes_per_row\": %.1f, \"warm_passes\": %d, \"syncs\": %d}",
                walls[runs / 2], walls[0], walls[runs - 1], cpus[runs / 2], rows, heapPerRow, passes, passes + runs);
    }

    /** A connected client with its schema and its monitor reply. */
    private record Synced(OvsdbClient client, DatabaseSchema db, TableUpdates reply) {
    }

    private Synced syncOnce(String hostPort) throws Exception {
        OvsdbClient client = connect(hostPort);
        DatabaseSchema db = client.getSchema(DB).get(60, TimeUnit.SECONDS);
        RowMaps maps = new RowMaps();
        TableUpdates reply = client.monitor(db, monitorRequests(db, SYNC_TABLES), maps);
        if (reply == null) {
            throw new IllegalStateException("no monitor reply from " + hostPort);
        }
        return new Synced(client, db, reply);
    }

    static String errorOf(List<OperationResult> results) {
        if (results == null) {
            return "no result";
        }
        for (OperationResult r : results) {
            if (r != null && r.getError() != null) {
                return r.getError() + ": " + r.getDetails();
            }
        }
        return null;
    }

    static double cpuSeconds() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os.getProcessCpuTime() / 1e9;
    }

    static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ") + "\"";
    }
}
