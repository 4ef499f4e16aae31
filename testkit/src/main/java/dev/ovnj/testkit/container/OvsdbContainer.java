package dev.ovnj.testkit.container;

import dev.ovnj.testkit.Schemas;
import java.time.Duration;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * An {@code ovsdb-server} serving the OVN Northbound database in a container, for machines with a
 * Docker engine. Any image with {@code ovsdb-tool} and {@code ovsdb-server} on its PATH works (the
 * one {@code scripts/build-ovsdb-image.sh} builds, or a distribution's OVN image): the container's
 * entrypoint is replaced by a shell that creates the run directory ovsdb-server needs, creates the
 * database from the Northbound schema ovnj's model was generated from (copied in, so the image's
 * own OVN version does not matter), and serves it on {@value #PORT}.
 *
 * <p>Before the first start in a JVM, {@link ReaperPolicy} makes sure Testcontainers' Ryuk reaper
 * can run, or switches to removing containers at JVM exit, with a log line saying so, when Ryuk's
 * image is absent and cannot be pulled (a machine without an image registry).
 */
public final class OvsdbContainer extends GenericContainer<OvsdbContainer> {
    /** System property naming the image. */
    public static final String IMAGE_PROPERTY = "ovnj.ovsdb.image";
    /** Environment variable naming the image, used when the property is not set. */
    public static final String IMAGE_ENV = "OVNJ_OVSDB_IMAGE";
    /** The image {@code scripts/build-ovsdb-image.sh} builds by default. */
    public static final String DEFAULT_IMAGE = "ovnj/ovsdb-server:bookworm";
    /** Port ovsdb-server listens on inside the container. */
    public static final int PORT = 6641;

    private static final String SCHEMA_PATH = "/tmp/ovnj-ovn-nb.ovsschema";
    // ovsdb-server refuses to start when its run directory is missing, which it is in any image whose
    // packages create it from service units; the control socket and pid file go to /tmp regardless.
    private static final String SERVE = "mkdir -p /run/openvswitch /var/run/openvswitch 2>/dev/null;"
            + " ovsdb-tool create /tmp/ovnj-nb.db " + SCHEMA_PATH
            + " && exec ovsdb-server /tmp/ovnj-nb.db --remote=ptcp:" + PORT
            + " --unixctl=/tmp/ovnj-nb.ctl --pidfile=/tmp/ovnj-nb.pid -vconsole:info -vfile:off";

    /**
     * Creates the container from an image.
     *
     * @param image an image with ovsdb-tool and ovsdb-server, e.g. {@value #DEFAULT_IMAGE}
     */
    public OvsdbContainer(String image) {
        this(DockerImageName.parse(image));
    }

    /**
     * Creates the container from an image.
     *
     * @param image an image with ovsdb-tool and ovsdb-server
     */
    public OvsdbContainer(DockerImageName image) {
        super(image);
        withCopyToContainer(Transferable.of(Schemas.ovnNorthboundJson()), SCHEMA_PATH);
        withExposedPorts(PORT);
        withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/bin/sh", "-c", SERVE));
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
     * The configured image, or {@value #DEFAULT_IMAGE} when none is configured.
     *
     * @return the image name to use
     */
    public static String imageOrDefault() {
        return configuredImage().orElse(DEFAULT_IMAGE);
    }

    /** Starts the container, first settling how Testcontainers will remove it ({@link ReaperPolicy}). */
    @Override
    public void start() {
        ReaperPolicy.ensureUsable();
        super.start();
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
