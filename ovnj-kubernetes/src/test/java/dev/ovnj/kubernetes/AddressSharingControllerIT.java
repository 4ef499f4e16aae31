package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Shared addresses ({@value ServiceAnnotations#SHARED_IP}) and addresses that never move: the
 * sharing rule, restarts and deletions while no controller ran, each with every kept address
 * watched on every Northbound update, never only sampled.
 */
@EnableKubernetesMockClient(crud = true)
class AddressSharingControllerIT extends ControllerTestBase {
    private static final String GROUP = NAMESPACE + "/allow-shared-ip=dns";

    /** A Service with one port and a sharing key; the names sort in creation order, so ties of creationTimestamp agree. */
    private static Service shared(String name, String key, String protocol, int port) {
        Service s = loadBalancer(name);
        s.getSpec().setPorts(List.of(new ServicePortBuilder().withName("p").withProtocol(protocol).withPort(port).build()));
        if (key != null) {
            s.getMetadata().setAnnotations(Map.of(ServiceAnnotations.SHARED_IP, key));
        }
        return s;
    }

    private boolean served(String name, String ip) {
        return ingress(name).equals(List.of(ip)) && condition(name).map(c -> c.getStatus().equals("True")).orElse(false);
    }

    @Test
    void servicesWithOneKeyShareAnAddressUntilAPortCollidesAndTheLastOneReleasesIt() {
        controller(settings(), b -> b);
        kube.resource(shared("a-tcp", "dns", "TCP", 53)).create();
        Await.until(WAIT, "a-tcp served", () -> served("a-tcp", FIRST_EIP));
        kube.resource(shared("b-udp", "dns", "UDP", 53)).create();
        kube.resource(shared("c-dup", "dns", "TCP", 53)).create();
        kube.resource(shared("d-other", "other", "UDP", 53)).create();

        Await.until(WAIT, "b-udp on the shared address", () -> served("b-udp", FIRST_EIP));
        Await.until(WAIT, "c-dup refused, naming the port and the holder", () -> condition("c-dup")
                .map(c -> c.getReason().equals("AddressConflict") && c.getMessage().contains("TCP/53")
                        && c.getMessage().contains("shop/a-tcp")).orElse(false)
                && events("c-dup").stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("AddressConflict")));
        Await.until(WAIT, "another key, another address", () -> served("d-other", SECOND_EIP));
        assertThat(ingress("c-dup")).isEmpty();
        assertThat(claims()).isEqualTo("{ovnj.eip." + FIRST_EIP + "=\"" + GROUP + "\", ovnj.eip." + SECOND_EIP
                + "=\"shop/allow-shared-ip=other\"}");
        awaitVips("shop/a-tcp-tcp", "{\"" + FIRST_EIP + ":53\"=\"\"}");
        awaitVips("shop/b-udp-udp", "{\"" + FIRST_EIP + ":53\"=\"\"}");

        // The holder of TCP/53 goes: the newer one gets the port, on the same address.
        kube.resource(service("a-tcp")).delete();
        Await.until(WAIT, "c-dup served once the port is free", () -> served("c-dup", FIRST_EIP));
        assertThat(ingress("b-udp")).containsExactly(FIRST_EIP);
        assertThat(claims()).contains(FIRST_EIP + "=\"" + GROUP + "\"");

        // The address is released only with the last sharer.
        kube.resource(service("b-udp")).delete();
        Await.until(WAIT, "b-udp gone", () -> service("b-udp") == null);
        assertThat(claims()).contains(FIRST_EIP + "=\"" + GROUP + "\"");
        kube.resource(service("c-dup")).delete();
        Await.until(WAIT, "the group's claim released with its last Service", () -> service("c-dup") == null
                && !claims().contains(GROUP));
        assertThat(ingress("d-other")).containsExactly(SECOND_EIP);
    }

    /**
     * Cilium #30700 (sharing lost on restart) and a sharer deleted while no controller ran: the
     * restart writes nothing to the Northbound database and moves no address; the deletion
     * changes nothing for the others; the group's address goes only with its last Service, even
     * when that one is deleted while no controller runs (the sweep releases it).
     */
    @Test
    void sharingSurvivesRestartsAndDeletionsWhileNoControllerRuns() throws Exception {
        Replica first = replica(settings(), b -> b);
        kube.resource(shared("a-tcp", "dns", "TCP", 53)).create();
        kube.resource(shared("b-udp", "dns", "UDP", 53)).create();
        kube.resource(shared("c-http", "dns", "TCP", 80)).create();
        kube.resource(shared("solo", null, "TCP", 80)).create();
        Await.until(WAIT, "all served", () -> served("a-tcp", FIRST_EIP) && served("b-udp", FIRST_EIP) && served("c-http", FIRST_EIP)
                && served("solo", SECOND_EIP));
        String claims = claims();
        first.close();

        try (ClaimWatch watch = new ClaimWatch(Map.of(FIRST_EIP, GROUP, SECOND_EIP, "shop/solo"))) {
            // A plain restart: the claims are read, none written.
            Replica second = replica(settings(), b -> b);
            Await.until(WAIT, "the restarted engine applied all four", () -> second.engine().status(settings().owner()).values().stream()
                    .filter(s -> s.state() == dev.ovnj.lb.SpecStatus.State.APPLIED).count() == 4);
            System.out.printf("MEASURE restart with 4 Services (3 sharing): %d Northbound transactions%n",
                    second.client().stats().transactions());
            assertThat(claims()).isEqualTo(claims);
            second.close();

            // While no controller runs: b-udp is deleted (its finalizer waits), c-http deleted with its finalizer taken off.
            kube.services().inNamespace(NAMESPACE).withName("b-udp").delete();
            editService("c-http", s -> {
                s.getMetadata().getFinalizers().clear();
                return s;
            });
            kube.services().inNamespace(NAMESPACE).withName("c-http").delete();
            Await.until(WAIT, "c-http gone", () -> service("c-http") == null);

            Replica third = replica(settings(), b -> b);
            Await.until(WAIT, "b-udp cleaned up, c-http swept", () -> service("b-udp") == null
                    && !lbNames().contains("shop/b-udp-udp") && !lbNames().contains("shop/c-http-tcp"));
            assertThat(third.controller().lastSweep().join()).contains("shop/c-http");
            assertThat(claims()).isEqualTo(claims);
            assertThat(ingress("a-tcp")).containsExactly(FIRST_EIP);
            assertThat(ingress("solo")).containsExactly(SECOND_EIP);
            assertThat(watch.violations()).isEmpty();
            third.close();
        }

        // The last sharer deleted while no controller runs: the next one's sweep releases the address.
        editService("a-tcp", s -> {
            s.getMetadata().getFinalizers().clear();
            return s;
        });
        kube.services().inNamespace(NAMESPACE).withName("a-tcp").delete();
        Await.until(WAIT, "a-tcp gone", () -> service("a-tcp") == null);
        replica(settings(), b -> b);
        Await.until(WAIT, "the group's address released", () -> !claims().contains(GROUP));
        assertThat(claims()).isEqualTo("{ovnj.eip." + SECOND_EIP + "=\"shop/solo\"}");
    }

    /**
     * MetalLB #1774 and #2443 (a one-address pool, a held requested address, pending Services and
     * a restart: the address was handed to a second Service), MetalLB #2723 (deleting one Service
     * changed another's), Cilium #43131 (Services created while the controller restarts got
     * addresses that others held). The watch fails the test on any update that moves a kept address.
     */
    @Test
    void peersReportedFailuresMoveNoAddressAndGiveNoneTwice() throws Exception {
        nbctl.run("lrp-add", ROUTER, "tiny-ext", "02:00:00:00:00:09", "192.0.2.1/30");
        ControllerSettings tiny = ControllerSettings.of(ROUTER, "tiny-ext").withSwitch(SWITCH).withServerSideApply(false)
                .withRetryAfter(java.time.Duration.ofSeconds(1));
        Replica first = replica(tiny, b -> b);
        Service pinned = shared("pinned", null, "TCP", 80);
        pinned.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, "192.0.2.2"));
        kube.resource(pinned).create();
        Await.until(WAIT, "pinned served", () -> served("pinned", "192.0.2.2"));
        kube.resource(shared("pending-1", null, "TCP", 80)).create();
        kube.resource(shared("pending-2", null, "TCP", 80)).create();
        Await.until(WAIT, "both pending, the pool exhausted", () -> condition("pending-1").map(c -> c.getReason().equals("AddressUnavailable"))
                .orElse(false) && condition("pending-2").map(c -> c.getReason().equals("AddressUnavailable")).orElse(false));

        try (ClaimWatch watch = new ClaimWatch("tiny-ext", Map.of("192.0.2.2", "shop/pinned"))) {
            for (int restart = 0; restart < 2; restart++) {
                first.close();
                first = replica(tiny, b -> b);
                Replica current = first;
                Await.until(WAIT, "pinned applied again", () -> current.engine().status(tiny.owner()).size() == 1
                        && current.engine().status(tiny.owner()).values().iterator().next().state() == dev.ovnj.lb.SpecStatus.State.APPLIED);
            }
            assertThat(ingress("pending-1")).isEmpty();
            assertThat(ingress("pending-2")).isEmpty();
            assertThat(ingress("pinned")).containsExactly("192.0.2.2");
            assertThat(watch.violations()).isEmpty();
        }
        first.close();

        // On the wide port (which now serves pending-1 and pending-2 as well): three more Services,
        // one deleted; then a restart with Services created meanwhile.
        Replica wide = replica(settings(), b -> b);
        for (String name : List.of("s1", "s2", "s3")) {
            kube.resource(shared(name, null, "TCP", 80)).create();
        }
        Await.until(WAIT, "three served", () -> List.of("s1", "s2", "s3").stream().allMatch(n -> ingress(n).size() == 1
                && condition(n).map(c -> c.getStatus().equals("True")).orElse(false)));
        String s2 = ingress("s2").get(0);
        String s3 = ingress("s3").get(0);
        try (ClaimWatch watch = new ClaimWatch(Map.of(s2, "shop/s2", s3, "shop/s3"))) {
            kube.resource(service("s1")).delete();
            Await.until(WAIT, "s1 released", () -> service("s1") == null && !claims().contains("shop/s1"));
            wide.close();
            List<String> fresh = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                kube.resource(shared("new-" + i, null, "TCP", 80)).create();
                fresh.add("new-" + i);
            }
            replica(settings(), b -> b);
            Await.until(WAIT, "the new ones served", () -> fresh.stream().allMatch(n -> ingress(n).size() == 1
                    && condition(n).map(c -> c.getStatus().equals("True")).orElse(false)));
            assertThat(ingress("s2")).containsExactly(s2);
            assertThat(ingress("s3")).containsExactly(s3);
            Map<String, String> byIp = new HashMap<>();
            for (Service svc : kube.services().inNamespace(NAMESPACE).list().getItems()) {
                for (String ip : ingress(svc.getMetadata().getName())) {
                    assertThat(byIp.put(ip, svc.getMetadata().getName())).as("%s given twice", ip).isNull();
                }
            }
            assertThat(byIp).containsKeys(s2, s3).hasSizeGreaterThanOrEqualTo(6);
            assertThat(watch.violations()).isEmpty();
        }
    }

    /**
     * A requested address several waiting Services want goes to the oldest, whichever is
     * reconciled first: both are created before any controller runs, the younger one sorting
     * first by name.
     */
    @Test
    void aContendedRequestedAddressGoesToTheOldestService() {
        Service old = shared("z-old", null, "TCP", 80);
        old.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, SECOND_EIP));
        kube.resource(old).create();
        // The API server stamps creationTimestamp in whole seconds: the younger one is created in a later one.
        java.time.Instant created = java.time.Instant.parse(service("z-old").getMetadata().getCreationTimestamp());
        Await.until(WAIT, "the next second", () -> java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .isAfter(created));
        Service young = shared("a-young", null, "TCP", 80);
        young.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, SECOND_EIP));
        kube.resource(young).create();
        assertThat(AddressSharing.AGE.compare(service("z-old"), service("a-young"))).as("z-old is the older").isNegative();

        controller(settings(), b -> b);
        Await.until(WAIT, "the oldest served on the address", () -> served("z-old", SECOND_EIP));
        Await.until(WAIT, "the younger refused, naming the holder", () -> condition("a-young")
                .map(c -> c.getReason().equals("AddressConflict") && c.getMessage().contains("shop/z-old")).orElse(false));
        assertThat(claims()).isEqualTo("{ovnj.eip." + SECOND_EIP + "=\"shop/z-old\"}");
    }

    /** A port renumbered under a held address: reported on the Service, the address kept. */
    @Test
    void aNetworkShrunkUnderAnAddressIsReportedAndTheAddressKept() {
        controller(settings(), b -> b);
        kube.resource(shared("web", null, "TCP", 80)).create();
        Await.until(WAIT, "web served", () -> served("web", FIRST_EIP));
        nbctl.run("set", "Logical_Router_Port", EXTERNAL_PORT, "networks=\"192.0.2.1/24\"");
        editService("web", s -> {
            s.getMetadata().setLabels(Map.of("touched", "yes"));
            return s;
        });
        Await.until(WAIT, "AddressOutsideNetwork and a Warning", () -> condition("web")
                .map(c -> c.getStatus().equals("False") && c.getReason().equals("AddressOutsideNetwork")
                        && c.getMessage().contains(FIRST_EIP)).orElse(false)
                && events("web").stream().anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("AddressOutsideNetwork")));
        assertThat(claims()).isEqualTo("{ovnj.eip." + FIRST_EIP + "=\"shop/web\"}");
        assertThat(ingress("web")).containsExactly(FIRST_EIP);
    }

    /**
     * Follows the claims of a port on every Northbound update (its own client's cache listener)
     * and records each update where an expected address is not claimed by its owner.
     */
    private final class ClaimWatch implements AutoCloseable {
        private final OvsdbClient client;
        private final List<String> violations = new CopyOnWriteArrayList<>();

        ClaimWatch(Map<String, String> expected) {
            this(EXTERNAL_PORT, expected);
        }

        ClaimWatch(String port, Map<String, String> expected) {
            client = OvsdbClient.builder().remotes(server.remote()).monitor(MonitorRequest.tables("Logical_Router_Port")).build();
            client.cache().addListener(events -> check(port, expected));
            client.startAndWait(WAIT);
            check(port, expected);
        }

        private void check(String port, Map<String, String> expected) {
            client.cache().read(() -> {
                client.cache().table(LogicalRouterPort.TABLE.name()).rows().stream().map(LogicalRouterPort::fromRow)
                        .filter(p -> p.name().equals(port)).forEach(p -> expected.forEach((ip, owner) -> {
                            if (!owner.equals(p.externalIds().get("ovnj.eip." + ip))) {
                                violations.add(ip + " claimed by " + p.externalIds().get("ovnj.eip." + ip) + ", not " + owner);
                            }
                        }));
                return null;
            });
        }

        List<String> violations() {
            return List.copyOf(violations);
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
