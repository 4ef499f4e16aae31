package dev.ovnj.testkit.container;

import dev.ovnj.testkit.Schemas;
import java.time.Duration;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * An {@code ovsdb-server} in a container, for users who have a Docker engine but no local OVS
 * tools. Any image with {@code ovsdb-tool} and {@code ovsdb-server} on its PATH works; the
 * bundled OVN Northbound schema is copied in and the database created inside the container.
 * Testcontainers is an optional dependency of the testkit: add it to use this class.
 */
public final class OvsdbContainer extends GenericContainer<OvsdbContainer> {
    /** System property naming the image. */
    public static final String IMAGE_PROPERTY = "ovnj.ovsdb.image";
    /** Environment variable naming the image, used when the property is not set. */
    public static final String IMAGE_ENV = "OVNJ_OVSDB_IMAGE";
    /** Port ovsdb-server listens on inside the container. */
    public static final int PORT = 6641;

    /**
     * Creates the container from an image.
     *
     * @param image an image with ovsdb-tool and ovsdb-server
     */
    public OvsdbContainer(String image) {
        super(DockerImageName.parse(image));
        withCopyToContainer(Transferable.of(Schemas.ovnNorthboundJson()), "/tmp/ovn-nb.ovsschema");
        withExposedPorts(PORT);
        withCommand("sh", "-c", "ovsdb-tool create /tmp/nb.db /tmp/ovn-nb.ovsschema"
                + " && exec ovsdb-server /tmp/nb.db --remote=ptcp:" + PORT + " -vconsole:info");
        waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofSeconds(60)));
    }

    /**
     * The image configured through {@value #IMAGE_PROPERTY} or {@value #IMAGE_ENV}.
     *
     * @return the image name, if configured
     */
    public static Optional<String> configuredImage() {
        String image = System.getProperty(IMAGE_PROPERTY);
        if (image == null || image.isBlank()) {
            image = System.getenv(IMAGE_ENV);
        }
        return Optional.ofNullable(image).filter(s -> !s.isBlank());
    }

    /**
     * The remote a client on the host uses, {@code tcp:HOST:MAPPED_PORT}.
     *
     * @return the remote
     */
    public String remote() {
        return "tcp:" + getHost() + ":" + getMappedPort(PORT);
    }
}
