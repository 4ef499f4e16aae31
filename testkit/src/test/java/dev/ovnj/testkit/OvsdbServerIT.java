package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.tls.TestCertificates;
import org.junit.jupiter.api.Test;

class OvsdbServerIT {

    /** The ovn-nbctl round trip every launcher mode must pass: a router and switch with one LB on both. */
    static void writeAndReadTopology(Nbctl nbctl) {
        nbctl.run("ls-add", "sw0");
        nbctl.run("lr-add", "lr0");
        nbctl.run("lb-add", "lb0", "168.119.17.55:6443", "10.1.0.40:6443,10.1.0.41:6443");
        nbctl.run("lr-lb-add", "lr0", "lb0");
        nbctl.run("ls-lb-add", "sw0", "lb0");
        assertThat(nbctl.run("lr-lb-list", "lr0")).contains("lb0").contains("168.119.17.55:6443")
                .contains("10.1.0.40:6443,10.1.0.41:6443");
        assertThat(nbctl.run("ls-lb-list", "sw0")).contains("lb0");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Logical_Router")).isEqualTo("lr0");
    }

    @Test
    void tcpRemoteServesTheBundledNorthboundSchema() {
        try (OvsdbServer server = OvsdbServer.start()) {
            assertThat(server.remote()).matches("tcp:127\\.0\\.0\\.1:\\d+");
            assertThat(server.databaseName()).isEqualTo(Schemas.NB_DATABASE);
            writeAndReadTopology(Nbctl.of(server));
            String version = Command.of("ovsdb-client", "get-schema-version", server.remote(), "OVN_Northbound").check().trim();
            // Another release's servers run that release's own schema, which its ovn-northd expects.
            String expected = OvnRelease.current().root().isEmpty() ? Schemas.NB_VERSION
                    : Command.of("ovsdb-tool", "schema-version", Schemas.ovnNorthbound(server.directory()).toString()).check().trim();
            assertThat(version).isEqualTo(expected);
            assertThat(server.log()).contains("ovsdb-server");
        }
    }

    @Test
    void unixSocketRemote() {
        try (OvsdbServer server = OvsdbServer.builder().unixSocket(true).start()) {
            String unix = server.unixRemote().orElseThrow();
            assertThat(unix).startsWith("unix:");
            writeAndReadTopology(Nbctl.of(unix));
        }
    }

    @Test
    void sslRemoteWithMutualAuthentication() {
        try (OvsdbServer server = OvsdbServer.builder().ssl(true).start()) {
            TestCertificates certs = server.certificates().orElseThrow();
            String ssl = server.sslRemote().orElseThrow();
            writeAndReadTopology(Nbctl.of(ssl).withTls(certs));
            // A client without the right CA must not get in: proves the remote is really TLS.
            TestCertificates stranger = TestCertificates.generate(server.directory().resolve("stranger"));
            assertThatThrownBy(() -> Nbctl.of(ssl).withTls(stranger).run("--timeout=3", "ls-list"))
                    .isInstanceOf(NbctlException.class);
        }
    }

    @Test
    void killThenRestartKeepsTheData() {
        try (OvsdbServer server = OvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lb-add", "keep-me", "10.0.0.10:80", "10.0.0.2:80");
            long pid = server.pid();
            server.kill();
            assertThat(server.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            server.restart();
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).isEqualTo("keep-me");
        }
    }

    @Test
    void pauseStopsAnswersUntilResume() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); RawRpc rpc = new RawRpc(server.port())) {
            assertThat(rpc.echo(2000)).isTrue();
            server.pause();
            assertThat(rpc.echo(700)).as("echo answered while paused").isFalse();
            server.resume();
            assertThat(rpc.awaitText("probe-2", 5000)).as("queued echo answered after resume").isTrue();
            assertThat(rpc.echo(2000)).isTrue();
        }
    }

    @Test
    void badSchemaFailsWithTheToolsMessage() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("ovnj-bad-schema");
        java.nio.file.Path schema = dir.resolve("bad.ovsschema");
        java.nio.file.Files.writeString(schema, "{\"name\": \"x\", \"tables\": {\"T\": {\"columns\": {\"c\": {\"type\": \"nope\"}}}}}");
        assertThatThrownBy(() -> OvsdbServer.builder().schema(schema).start())
                .isInstanceOf(TestkitException.class)
                .hasMessageContaining("ovsdb-tool create");
        OvsdbServer.deleteTree(dir);
    }
}
