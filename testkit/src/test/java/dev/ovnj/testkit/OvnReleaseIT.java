package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OvnReleaseIT {

    @Test
    void serversAndToolsRunTheCurrentRelease() {
        OvnRelease release = OvnRelease.current();
        try (OvsdbServer server = OvsdbServer.start()) {
            // The running daemon reports the same OVS version as the release's own binary.
            String running = server.appctl("version");
            assertThat(running).contains(release.ovsVersion());
            assertThat(release.ovnVersion()).matches("\\d+\\.\\d+\\.\\d+");
        }
    }

    @Test
    void hostCommandsAreLeftAlone() {
        assertThat(OvnRelease.host().resolve(java.util.List.of("ovsdb-tool", "--version"))).containsExactly("ovsdb-tool", "--version");
        assertThat(OvnRelease.current().resolve(java.util.List.of("openssl", "version"))).containsExactly("openssl", "version");
    }

    @Test
    void aRootWithoutBinariesIsRejectedByName(@TempDir Path dir) {
        assertThatThrownBy(() -> OvnRelease.ofRoot(dir)).isInstanceOf(TestkitException.class).hasMessageContaining(dir.toString());
    }
}
