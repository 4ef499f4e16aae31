package dev.ovnj.testkit.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ovnj.testkit.Command;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** The one test allowed to skip: it needs a Docker engine and a configured image. */
class OvsdbContainerIT {

    @Test
    void containerServesTheNorthboundDatabase() {
        String image = OvsdbContainer.configuredImage().orElse(null);
        assumeTrue(image != null, "skipped: no image configured (set -D" + OvsdbContainer.IMAGE_PROPERTY
                + "=IMAGE or " + OvsdbContainer.IMAGE_ENV + " to an image with ovsdb-server)");
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "skipped: no Docker engine reachable (Testcontainers found none), so " + image + " cannot run");
        try (OvsdbContainer c = new OvsdbContainer(image)) {
            c.start();
            String dbs = Command.of("ovsdb-client", "list-dbs", c.remote()).check();
            assertThat(dbs).contains("OVN_Northbound");
        }
    }
}
