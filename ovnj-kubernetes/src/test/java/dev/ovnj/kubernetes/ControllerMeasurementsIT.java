package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;

import dev.ovnj.lb.SpecStatus;
import dev.ovnj.nb.eip.EipClaim;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Measurements for docs/kubernetes.md, printed, never asserted on time; run only when asked:
 * {@code mvn -pl ovnj-kubernetes -am verify -Dit.test=ControllerMeasurementsIT -Dovnj.measure=true ...}.
 */
@io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient(crud = true)
@EnabledIfSystemProperty(named = "ovnj.measure", matches = "true")
class ControllerMeasurementsIT extends ControllerTestBase {
    private static final int CHANGES = 1000;

    /** From the EndpointSlice update answered by the API server to the Load_Balancer row holding it, seen by another client. */
    @Test
    void endpointSliceChangeToOvnRow() throws Exception {
        controller(settings(), b -> b);
        kube.resource(loadBalancer("web")).create();
        kube.resource(slice("web-a", "web", "10.2.0.1")).create();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.2.0.1:8080\"}");
        try (OvsdbClient observer = OvsdbClient.builder().remotes(server.remote())
                .monitor(MonitorRequest.tables("Load_Balancer")).build().startAndWait(WAIT)) {
            long[] nanos = new long[CHANGES];
            for (int i = 0; i < CHANGES; i++) {
                String ip = "10.3." + (i / 250) + "." + (i % 250 + 1);
                String backend = ip + ":8080";
                long start = System.nanoTime();
                kube.resource(slice("web-a", "web", ip)).update();
                long deadline = start + TimeUnit.SECONDS.toNanos(30);
                while (!holds(observer, backend)) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("change " + i + " not in OVN within 30 s");
                    }
                    LockSupport.parkNanos(50_000);
                }
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            System.out.printf("MEASURE slice-to-row over %d changes: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n", CHANGES,
                    ms(nanos[CHANGES / 2]), ms(nanos[CHANGES * 9 / 10]), ms(nanos[CHANGES * 99 / 100]), ms(nanos[CHANGES - 1]));
        }
    }

    /**
     * The controller's heap (informer caches, engine, Northbound cache) for n Services with two
     * ready endpoints each: heap after a full GC with every Service applied, minus before the
     * controller started (the mock API server's own copy of the objects is in both). The EIP
     * claims are seeded as a previous run would have left them: allocating 10,000 addresses one
     * by one is a separate cost (ServiceBurstIT measures a burst of them).
     */
    @ParameterizedTest
    @ValueSource(ints = {1000, 10000})
    void heapPerService(int n) throws Exception {
        nbctl.run("lrp-add", ROUTER, "big-ext", "02:00:00:00:00:02", "10.100.0.1/16");
        Map<String, String> claims = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = "svc" + i;
            kube.resource(loadBalancer(name)).create();
            kube.resource(slice(name + "-a", name, "10.4." + (i / 250) % 250 + "." + (i % 250 + 1),
                    "10.5." + (i / 250) % 250 + "." + (i % 250 + 1))).create();
            claims.put(EipClaim.key(IpAddresses.parse("10.100." + (2 + i / 250) + "." + (i % 250 + 1))), NAMESPACE + "/" + name);
        }
        try (OvsdbClient seeder = OvsdbClient.builder().remotes(server.remote()).monitor(MonitorRequest.tables("Logical_Router_Port"))
                .build().startAndWait(WAIT)) {
            seeder.transact(seeder.transaction().add(Operations.mutate(LogicalRouterPort.TABLE.name())
                    .where(LogicalRouterPort.NAME.eq("big-ext")).mutation(LogicalRouterPort.EXTERNAL_IDS.insert(claims))).build())
                    .get(60, TimeUnit.SECONDS);
        }
        long before = usedHeap();
        long start = System.nanoTime();
        Replica r = replica(ControllerSettings.of(ROUTER, "big-ext").withSwitch(SWITCH).withServerSideApply(false)
                .withRetryAfter(Duration.ofSeconds(5)), b -> b);
        Await.until(Duration.ofMinutes(20), n + " applied", () -> r.engine().status(ControllerSettings.DEFAULT_OWNER).values().stream()
                .filter(s -> s.state() == SpecStatus.State.APPLIED).count() == n);
        double seconds = (System.nanoTime() - start) / 1e9;
        long after = usedHeap();
        System.out.printf("MEASURE %d Services: applied in %.1f s, controller heap %.1f MB (%.1f KB per Service)%n", n, seconds,
                (after - before) / 1e6, (after - before) / 1e3 / n);
    }

    private static boolean holds(OvsdbClient observer, String backend) {
        return observer.cache().read(() -> observer.cache().table(LoadBalancer.TABLE.name()).rows().stream()
                .map(LoadBalancer::fromRow).filter(lb -> lb.name().equals("shop/web-tcp"))
                .anyMatch(lb -> lb.vips().values().stream().anyMatch(v -> v.equals(backend))));
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
