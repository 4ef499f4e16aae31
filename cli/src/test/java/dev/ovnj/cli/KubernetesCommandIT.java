package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ovnj kubernetes} as a process, against fabric8's CRUD mock API server and ovsdb-server. */
@EnableKubernetesMockClient(crud = true)
class KubernetesCommandIT {
    KubernetesClient kube;
    KubernetesMockServer mock;

    @Test
    void namesTheMissingOptionAndItsEnvironmentVariable() {
        OvnjProcess.Result r = OvnjProcess.run("kubernetes", "--db", "tcp:127.0.0.1:1", "--router", "r");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--external-port (or OVNJ_EXTERNAL_PORT) is required");
    }

    @Test
    void servesAServiceUntilTerminated(@TempDir Path dir) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "gw");
            nbctl.run("lrp-add", "gw", "gw-ext", "02:00:00:00:00:01", "168.119.17.51/28");
            nbctl.run("ls-add", "pods");
            Path kubeconfig = dir.resolve("kubeconfig");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                    users: [{name: mock, user: {token: test}}]
                    contexts: [{name: mock, context: {cluster: mock, user: mock, namespace: default}}]
                    current-context: mock
                    """.formatted(mock.url("/").replaceAll("/$", "")));
            try (OvnjProcess ovnj = OvnjProcess.start("kubernetes", "--kubeconfig", kubeconfig.toString(), "--db", server.remote(),
                    "--router", "gw", "--switch", "pods", "--external-port", "gw-ext", "--server-side-apply=false")) {
                try {
                    Await.until(Duration.ofSeconds(60), "ovnj kubernetes serving",
                            () -> ovnj.stdout().stream().anyMatch(l -> l.startsWith("serving Services of type LoadBalancer on router gw")));
                } catch (RuntimeException e) {
                    throw new AssertionError("not serving; stderr:\n" + String.join("\n", ovnj.stderr()), e);
                }
                kube.resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
                        .withNewSpec().withType("LoadBalancer").addNewPort().withName("http").withProtocol("TCP").withPort(80).endPort()
                        .endSpec().build()).create();
                Await.until(Duration.ofSeconds(30), "load balancer default/web-tcp", () -> {
                    try {
                        return nbctl.run("get", "Load_Balancer", "default/web-tcp", "vips").equals("{\"168.119.17.49:80\"=\"\"}");
                    } catch (NbctlException notYet) {
                        return false;
                    }
                });
                assertThat(nbctl.run("ls-lb-list", "pods")).contains("168.119.17.49:80");
                ovnj.terminate();
                assertThat(ovnj.await(Duration.ofSeconds(30)).exit()).isZero();
            }
        }
    }
}
