package dev.ovnj.testkit.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Schemas;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * The container path against a real Docker engine: CI builds the image with
 * scripts/build-ovsdb-image.sh and starts dockerd with scripts/docker-up.sh; where that cannot
 * happen the tests skip with the exact reason.
 */
@EnabledIfContainersRun
class OvsdbContainerIT {
    /** The root filesystem the build script imports, before its layer adds /run/openvswitch. */
    private static final String BASE_IMAGE = System.getProperty("ovnj.ovsdb.base-image", "ovnj/ovsdb-base:bookworm");

    private static OvsdbContainer shared;

    @BeforeAll
    static void startShared() {
        shared = new OvsdbContainer(OvsdbContainer.imageOrDefault());
        shared.start();
    }

    @AfterAll
    static void stopShared() {
        if (shared != null) {
            shared.stop();
        }
    }

    @Test
    void servesTheNorthboundDatabaseOfTheBundledSchema() {
        assertThat(Command.of("ovsdb-client", "list-dbs", shared.remote()).check()).contains(Schemas.NB_DATABASE);
        assertThat(Command.of("ovsdb-client", "get-schema-version", shared.remote(), Schemas.NB_DATABASE).check().strip())
                .isEqualTo(Schemas.NB_VERSION);
    }

    @Test
    void ovnNbctlOnTheHostWritesAndReadsThroughTheMappedPort() {
        String db = "--db=" + shared.remote();
        Command.of("ovn-nbctl", db, "lb-add", "lb-container", "10.0.0.1:80", "10.0.0.2:8080").check();
        assertThat(Command.of("ovn-nbctl", db, "lb-list").check()).contains("lb-container").contains("10.0.0.2:8080");
    }

    @Test
    void aPlainDebianImageWithoutTheRunDirectoryWorks() {
        Optional<String> missing = ContainerPrerequisites.missing(BASE_IMAGE);
        assumeTrue(missing.isEmpty(), () -> "skipped: " + missing.orElseThrow());
        assertThat(Command.of("docker", "run", "--rm", "--entrypoint", "test", BASE_IMAGE, "-d", "/run/openvswitch")
                .run().exitCode()).as("the base image lacks /run/openvswitch, as a plain image does").isNotZero();
        try (OvsdbContainer plain = new OvsdbContainer(BASE_IMAGE)) {
            plain.start();
            assertThat(Command.of("ovsdb-client", "list-dbs", plain.remote()).check()).contains(Schemas.NB_DATABASE);
        }
    }

    @Test
    void aStoppedContainerIsRemoved() {
        String id;
        try (OvsdbContainer own = new OvsdbContainer(OvsdbContainer.imageOrDefault())) {
            own.start();
            id = own.getContainerId();
            assertThat(DockerClientFactory.instance().client().inspectContainerCmd(id).exec().getState().getRunning())
                    .isTrue();
        }
        assertThat(Command.of("docker", "ps", "-a", "-q", "--no-trunc", "--filter", "id=" + id).check().strip())
                .as("container %s is gone after stop", id).isEmpty();
    }
}
