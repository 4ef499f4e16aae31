package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OvsdbRelayIT {

    @Test
    void relayServesTheSourceAndForwardsWritesToIt() {
        try (OvsdbServer source = OvsdbServer.start()) {
            Path dir;
            try (OvsdbRelay relay = OvsdbRelay.start(source)) {
                dir = relay.directory();
                assertThat(relay.remote()).matches("tcp:127\\.0\\.0\\.1:\\d+");
                assertThat(relay.source()).isEqualTo(source.remote());
                String serverRow = Command.of("ovsdb-client", "dump", relay.remote(), "_Server", "Database", "name", "model", "connected")
                        .check();
                assertThat(serverRow).contains("OVN_Northbound").contains("relay").contains("true");
                // Written through the relay, read on the source, and the other way round. ovn-nbctl's IDL
                // refuses a relay unless told --no-leader-only (anyMember), as it does a cluster follower.
                OvsdbServerIT.writeAndReadTopology(Nbctl.of(relay.remote()).anyMember());
                assertThat(Nbctl.of(source).run("--bare", "--columns=name", "list", "Logical_Router")).isEqualTo("lr0");
                Nbctl.of(source).run("ls-add", "on-source");
                assertThat(Nbctl.of(relay.remote()).anyMember().run("--bare", "--columns=name", "find", "Logical_Switch", "name=on-source"))
                        .isEqualTo("on-source");

                relay.kill();
                assertThat(relay.isRunning()).isFalse();
                relay.restart();
                assertThat(relay.isRunning()).isTrue();
                assertThat(Nbctl.of(relay.remote()).anyMember().run("--bare", "--columns=name", "list", "Logical_Router")).isEqualTo("lr0");
                assertThat(relay.log()).contains("relay");
            }
            assertThat(Files.exists(dir)).as("close removes the relay's directory").isFalse();
        }
    }
}
