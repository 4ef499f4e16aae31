package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a test needs to point an {@code ovnj kubernetes} process at fabric8's mock API server and find its endpoints. */
final class MockApiServer {
    private static final Pattern PORT = Pattern.compile("metrics and probes on port (\\d+)");

    private MockApiServer() {
    }

    /** Writes a kubeconfig naming the mock server (token auth, TLS unchecked) and returns its path. */
    static Path kubeconfig(KubernetesMockServer mock, Path dir) throws IOException {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
                users: [{name: mock, user: {token: test}}]
                contexts: [{name: mock, context: {cluster: mock, user: mock, namespace: default}}]
                current-context: mock
                """.formatted(mock.url("/").replaceAll("/$", "")));
        return kubeconfig;
    }

    /** The port of the endpoints the serving line names (run with {@code --metrics-port}). */
    static int endpointsPort(OvnjProcess ovnj) {
        Matcher m = PORT.matcher(String.join("\n", ovnj.stdout()));
        assertThat(m.find()).as("the serving line names the endpoints' port").isTrue();
        return Integer.parseInt(m.group(1));
    }
}
