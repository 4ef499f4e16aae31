package dev.ovnj.testkit.container;

import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Says exactly why a container test cannot run on this machine, so a skip names its cause: the
 * Docker engine could not be started or the image not built (as CI reports through
 * {@value #UNAVAILABLE_ENV}), no engine is reachable, or the image is not there.
 */
public final class ContainerPrerequisites {
    /**
     * Environment variable in which CI reports why containers cannot run here: what
     * {@code scripts/docker-up.sh} or {@code scripts/build-ovsdb-image.sh} said when it failed.
     */
    public static final String UNAVAILABLE_ENV = "OVNJ_CONTAINERS_UNAVAILABLE";

    private ContainerPrerequisites() {}

    /**
     * What is missing to run {@code image} here, if anything.
     *
     * @param image the image a test would start
     * @return the reason a container cannot run, or empty when it can
     */
    public static Optional<String> missing(String image) {
        String reported = System.getenv(UNAVAILABLE_ENV);
        if (reported != null && !reported.isBlank()) {
            return Optional.of(reported.strip());
        }
        ReaperPolicy.ensureUsable(); // asking Testcontainers for its client starts its reaper
        DockerClientFactory docker = DockerClientFactory.instance();
        if (!docker.isDockerAvailable()) {
            return Optional.of("no Docker engine reachable (Testcontainers tried DOCKER_HOST, ~/.testcontainers.properties"
                    + " and /var/run/docker.sock); start one, e.g. scripts/docker-up.sh");
        }
        try {
            docker.client().inspectImageCmd(image).exec();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("image " + image + " is not present in the local Docker engine ("
                    + String.valueOf(e.getMessage()).strip() + "); build it with scripts/build-ovsdb-image.sh or name"
                    + " another with -D" + OvsdbContainer.IMAGE_PROPERTY + "=IMAGE");
        }
    }
}
