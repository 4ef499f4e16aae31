package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ovnj kubernetes} as a process, against fabric8's CRUD mock API server and ovsdb-server. */
@EnableKubernetesMockClient(crud = true)
class KubernetesCommandIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String EIP = "168.119.17.49";
    KubernetesClient kube;
    KubernetesMockServer mock;

    @Test
    void namesTheMissingOptionAndItsEnvironmentVariable() {
        OvnjProcess.Result r = OvnjProcess.run("kubernetes", "--db", "tcp:127.0.0.1:1", "--router", "r");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--external-port (or OVNJ_EXTERNAL_PORT) is required with --router");
    }

    @Test
    void readsOvnjVerboseFromTheEnvironmentLikeEveryOption() {
        String[] args = {"kubernetes", "--db", "tcp:127.0.0.1:1", "--timeout", "1", "--router", "r", "--external-port", "p"};
        OvnjProcess.Result quiet = OvnjProcess.run(args);
        OvnjProcess.Result verbose = OvnjProcess.run(Map.of("OVNJ_VERBOSE", "true"), args);
        assertThat(quiet.exit()).isEqualTo(2);
        assertThat(verbose.exit()).isEqualTo(2);
        // --verbose prints the failure's stack trace; without it, one line.
        assertThat(quiet.err()).doesNotContain("\tat ");
        assertThat(verbose.err()).contains("\tat dev.ovnj.");
    }

    @Test
    void servesAServiceWithProbesMetricsAndInfoLogsUntilTerminated(@TempDir Path dir) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = northbound(server);
            try (OvnjProcess ovnj = OvnjProcess.start(args(server, dir))) {
                int port = awaitServing(ovnj);
                kube.resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
                        .withNewSpec().withType("LoadBalancer").addNewPort().withName("http").withProtocol("TCP").withPort(80).endPort()
                        .endSpec().build()).create();
                awaitVips(nbctl, "{\"" + EIP + ":80\"=\"\"}");
                assertThat(nbctl.run("ls-lb-list", "pods")).contains(EIP + ":80");

                assertThat(get(port, "/healthz")).isEqualTo("200 ok: engine loop running\n");
                assertThat(get(port, "/readyz")).isEqualTo("200 ok: writing the load balancers\n");
                String metrics = get(port, "/metrics");
                assertThat(metrics).startsWith("200 ").contains("ovnj_kubernetes_reconcile_seconds_count")
                        .contains("ovnj_kubernetes_conditions_total{reason=").contains("jvm_memory_used_bytes");
                assertThat(get(port, "/nothing")).startsWith("404");
                // Every state change at INFO without --verbose: the Service's condition, the sync.
                Await.until(WAIT, "the condition logged", () -> ovnj.stderr().stream()
                        .anyMatch(l -> l.contains(" INFO ") && l.contains("Service default/web: ")));
                assertThat(ovnj.stderr()).anyMatch(l -> l.contains("informers synced"));

                ovnj.terminate();
                OvnjProcess.Result r = ovnj.await(Duration.ofSeconds(30));
                assertThat(r.exit()).as(r.toString()).isZero();
            }
        }
    }

    /**
     * Two replicas behind a Lease valid for 60 s: SIGTERM to the holder ends it with 0 and gives the
     * Lease up, so the standby serves a change well before the Lease could have expired; the stop
     * changes no row. The times are printed (MEASURE), never asserted.
     */
    @Test
    void theLeaseHolderGivesItUpOnSigtermAndTheStandbyServesTheNextChange(@TempDir Path dir) throws Exception {
        // fabric8's mock server has no authorizer: answer JOSDK's check of its Lease permissions.
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("create", "update", "get").endResourceRule().endStatus().build())
                .always();
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = northbound(server);
            String[] args = Stream.concat(Arrays.stream(args(server, dir)), Stream.of("--lease-namespace", "default",
                    "--lease-name", "ovnj", "--lease-duration", "60", "--lease-renew-deadline", "40", "--lease-retry-period", "1"))
                    .toArray(String[]::new);
            try (OvnjProcess a = OvnjProcess.start(Map.of("HOSTNAME", "a"), args);
                 OvnjProcess b = OvnjProcess.start(Map.of("HOSTNAME", "b"), args)) {
                int portA = awaitServing(a);
                int portB = awaitServing(b);
                Await.until(WAIT, "a Lease holder", () -> holder().isPresent());
                String first = holder().orElseThrow();
                boolean aLeads = first.startsWith("a-");
                OvnjProcess leader = aLeads ? a : b;
                OvnjProcess standby = aLeads ? b : a;
                int standbyPort = aLeads ? portB : portA;
                assertThat(get(standbyPort, "/readyz")).isEqualTo("200 ok: standing by with synced informers\n");

                kube.resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
                        .withNewSpec().withType("LoadBalancer").addNewPort().withName("http").withProtocol("TCP").withPort(80)
                        .endPort().endSpec().build()).create();
                kube.resource(slice("10.1.0.10")).create();
                awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.1.0.10:8080\"}");
                String rows = nbctl.run("list", "Load_Balancer");
                String uuids = nbctl.run("--bare", "--columns=_uuid", "list", "Load_Balancer");

                long signalled = System.nanoTime();
                leader.terminate();
                OvnjProcess.Result stopped = leader.await(Duration.ofSeconds(30));
                double stopSeconds = (System.nanoTime() - signalled) / 1e9;
                assertThat(stopped.exit()).as(stopped.toString()).isZero();
                assertThat(stopped.err()).contains("Lease default/ovnj released");
                assertThat(holder()).as("the Lease no longer names the stopped holder").isNotEqualTo(Optional.of(first));
                assertThat(nbctl.run("list", "Load_Balancer")).as("the stop touched no row").isEqualTo(rows);

                long changed = System.nanoTime();
                kube.resource(slice("10.1.0.10", "10.1.0.11")).update();
                // Well within the Lease's 60 s: only a released Lease lets the standby write this soon.
                awaitVips(nbctl, "{\"" + EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080\"}", Duration.ofSeconds(30));
                double serveSeconds = (System.nanoTime() - changed) / 1e9;
                assertThat(holder()).get().asString().startsWith(aLeads ? "b-" : "a-");
                assertThat(get(standbyPort, "/readyz")).isEqualTo("200 ok: writing the load balancers\n");
                assertThat(nbctl.run("--bare", "--columns=_uuid", "list", "Load_Balancer"))
                        .as("updated in place, never recreated").isEqualTo(uuids);
                System.out.printf("MEASURE hand-over: the holder exited %.2f s after SIGTERM; the standby served a change %.2f s after it"
                        + " was made%n", stopSeconds, serveSeconds);
                List<String> holderLines = stopped.err().lines().toList();
                System.out.println("MEASURE the holder's last lines:\n" + String.join("\n",
                        holderLines.subList(Math.max(0, holderLines.size() - 12), holderLines.size())));

                standby.terminate();
                OvnjProcess.Result last = standby.await(Duration.ofSeconds(30));
                assertThat(last.exit()).as(last.toString()).isZero();
                assertThat(last.err()).contains("Lease default/ovnj released");
                assertThat(holder()).isEmpty();
            }
        }
    }

    /**
     * {@code ovnj kubernetes ... adopt}: Kube-OVN's shared row (vendor=kube-ovn) split between the
     * Services that kube-dc published on its VIPs; a dry run lists it and changes nothing, the run
     * annotates the Services; a selector matching nothing exits 1 naming the closest.
     */
    @Test
    void adoptListsWhichServiceTakesWhichRowThenAnnotatesThem(@TempDir Path dir) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = northbound(server);
            nbctl.run("lb-add", "vpc-default-tcp-load", EIP + ":80", "10.1.0.10:8080", "tcp");
            nbctl.run("lb-add", "vpc-default-tcp-load", "10.96.0.10:80", "10.1.0.30:8080", "tcp");
            nbctl.run("set", "Load_Balancer", "vpc-default-tcp-load", "external_ids:vendor=kube-ovn");
            kube.resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
                    .withNewSpec().withType("LoadBalancer").addNewPort().withProtocol("TCP").withPort(80).endPort().endSpec().build()).create();
            var web = kube.services().inNamespace("default").withName("web").get();
            web.setStatus(new io.fabric8.kubernetes.api.model.ServiceStatusBuilder().withNewLoadBalancer().addNewIngress().withIp(EIP)
                    .endIngress().endLoadBalancer().build());
            kube.services().inNamespace("default").resource(web).updateStatus();
            String[] base = args(server, dir);

            OvnjProcess.Result typo = OvnjProcess.run(Stream.concat(Arrays.stream(base), Stream.of("adopt", "--dry-run", "owner:kubedc"))
                    .toArray(String[]::new));
            assertThat(typo.exit()).as(typo.err()).isEqualTo(1);
            assertThat(typo.out()).contains("owner:kubedc matches no load balancer").contains("closest: owner:kube-dc (1 rows)");

            OvnjProcess.Result dry = OvnjProcess.run(Stream.concat(Arrays.stream(base), Stream.of("adopt", "--dry-run", "owner:kube-dc"))
                    .toArray(String[]::new));
            assertThat(dry.exit()).as(dry.err()).isZero();
            assertThat(dry.out()).contains("default/web " + EIP + ": splits vpc-default-tcp-load (takes " + EIP + ":80)")
                    .contains("stays in vpc-default-tcp-load: 10.96.0.10:80");
            assertThat(kube.services().inNamespace("default").withName("web").get().getMetadata().getAnnotations()).isNullOrEmpty();

            OvnjProcess.Result run = OvnjProcess.run(Stream.concat(Arrays.stream(base), Stream.of("adopt", "owner:kube-dc"))
                    .toArray(String[]::new));
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).contains("annotated 1 Services");
            assertThat(kube.services().inNamespace("default").withName("web").get().getMetadata().getAnnotations())
                    .containsEntry("ovnj.dev/load-balancer-ips", EIP).containsEntry("ovnj.dev/adopt", "owner:kube-dc");
            assertThat(nbctl.run("get", "Load_Balancer", "vpc-default-tcp-load", "vips")).as("the controller moves the rows, not adopt")
                    .contains(EIP + ":80");
        }
    }

    private Optional<String> holder() {
        Lease lease = kube.leases().inNamespace("default").withName("ovnj").get();
        return lease == null || lease.getSpec() == null ? Optional.empty()
                : Optional.ofNullable(lease.getSpec().getHolderIdentity()).filter(h -> !h.isEmpty());
    }

    private String[] args(OvsdbServer server, Path dir) throws Exception {
        Path kubeconfig = MockApiServer.kubeconfig(mock, dir);
        return new String[] {"kubernetes", "--kubeconfig", kubeconfig.toString(), "--db", server.remote(),
                "--router", "gw", "--router-namespaces", "*", "--switch", "pods", "--external-port", "gw-ext", "--server-side-apply=false",
                "--metrics-port", "0"};
    }

    private static Nbctl northbound(OvsdbServer server) {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("lr-add", "gw");
        nbctl.run("lrp-add", "gw", "gw-ext", "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", "pods");
        return nbctl;
    }

    /** Waits for the line saying the controller serves and returns the port of its endpoints. */
    private static int awaitServing(OvnjProcess ovnj) {
        try {
            Await.until(WAIT, "ovnj kubernetes serving",
                    () -> ovnj.stdout().stream().anyMatch(l -> l.startsWith("serving Services of type LoadBalancer on router gw")));
        } catch (RuntimeException e) {
            throw new AssertionError("not serving; stderr:\n" + String.join("\n", ovnj.stderr()), e);
        }
        return MockApiServer.endpointsPort(ovnj);
    }

    private static void awaitVips(Nbctl nbctl, String vips) {
        awaitVips(nbctl, vips, Duration.ofSeconds(30));
    }

    private static void awaitVips(Nbctl nbctl, String vips, Duration bound) {
        Await.until(bound, "load balancer default/web-tcp with " + vips, () -> {
            try {
                return nbctl.run("get", "Load_Balancer", "default/web-tcp", "vips").equals(vips);
            } catch (NbctlException notYet) {
                return false;
            }
        });
    }

    private static EndpointSlice slice(String... ips) {
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withName("web-a").withNamespace("default")
                .addToLabels("kubernetes.io/service-name", "web").endMetadata().withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort();
        for (String ip : ips) {
            b.addNewEndpoint().withAddresses(List.of(ip)).withNewConditions().withReady(true).endConditions().endEndpoint();
        }
        return b.build();
    }

    /** An HTTP GET of the endpoints, as a probe or a scraper does: the status code, a space and the body. */
    private static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
