package dev.ovnj.testkit.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.PullImageResultCallback;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.dockerclient.TransportConfig;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.ImageNameSubstitutor;
import org.testcontainers.utility.ResourceReaper;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * Settles, before the first container of a JVM starts, how Testcontainers behaves on a machine
 * without an image registry.
 *
 * <p>Testcontainers first starts its Ryuk reaper container and runs start-up checks in a tiny
 * Alpine container, pulling both images when they are not present locally; with no registry those
 * pulls retry for minutes and no container ever starts. So when Ryuk is enabled and its image is
 * absent, one pull is tried, bounded by {@value #PULL_TIMEOUT_PROPERTY} seconds (default 30); if it
 * fails, Ryuk is switched off for this JVM (Testcontainers' own JVM-exit cleanup removes the
 * containers instead), and when the checks' image is absent too the checks are skipped; one WARN
 * line each says so and why. {@code TESTCONTAINERS_RYUK_DISABLED=true} keeps Ryuk off without a
 * pull. Nothing is remembered here: Testcontainers' own state says whether it is set up already.
 */
final class ReaperPolicy {
    /** System property bounding the one pull of Ryuk's image, in seconds. */
    static final String PULL_TIMEOUT_PROPERTY = "ovnj.container.ryuk-pull-timeout-seconds";

    private static final Logger LOG = LoggerFactory.getLogger(ReaperPolicy.class);
    private static final String JVM_HOOK_CLASS = "org.testcontainers.utility.JVMHookResourceReaper";

    private ReaperPolicy() {}

    /** Makes sure starting a container will not wait on Testcontainers' own images that cannot be had. */
    @SuppressWarnings("deprecation") // getRyukImage()/getTinyImage() are where Testcontainers 1.20 resolves them
    static void ensureUsable() {
        // ResourceReaper.instance() synchronizes on its class: holding the same lock keeps a
        // concurrent first start from seeing a half-made decision.
        synchronized (ResourceReaper.class) {
            Field instance = reaperField();
            if (currentReaper(instance) != null) {
                return; // Testcontainers is set up already: decided before, or by its own defaults
            }
            // DockerClientFactory.client() starts Ryuk and runs its checks at once, so images are
            // looked up with a client of our own made from the same transport Testcontainers found.
            TransportConfig transport;
            try {
                transport = DockerClientFactory.instance().getTransportConfig();
            } catch (RuntimeException noEngine) {
                return; // Testcontainers reports the missing engine itself, with its own words
            }
            TestcontainersConfiguration config = TestcontainersConfiguration.getInstance();
            try (DockerClient docker = DockerClientProviderStrategy.getClientForConfig(transport)) {
                Optional<String> noRegistry = Optional.empty();
                if (!Boolean.parseBoolean(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
                    String ryuk = substituted(config.getRyukImage());
                    noRegistry = presentOrPulled(docker, ryuk, Optional.empty());
                    if (noRegistry.isPresent()) {
                        useJvmExitCleanup(instance, ryuk, noRegistry.get());
                        LOG.warn("Testcontainers' Ryuk reaper disabled for this JVM: its image {} is not present and"
                                + " could not be pulled ({}); containers are removed when the JVM exits instead"
                                + " (set TESTCONTAINERS_RYUK_DISABLED=true to skip this check)", ryuk, noRegistry.get());
                    }
                }
                if (!config.isDisableChecks()) {
                    String tiny = substituted(config.getTinyImage());
                    Optional<String> failure = presentOrPulled(docker, tiny, noRegistry);
                    if (failure.isPresent()) {
                        config.getUserProperties().setProperty("checks.disable", "true");
                        LOG.warn("Testcontainers' start-up checks skipped for this JVM: they run in {}, which is not"
                                + " present and could not be pulled ({})", tiny, failure.get());
                    }
                }
                useLocalhostWhenTheEngineIsLocal(docker, config, transport, noRegistry);
            } catch (java.io.IOException closing) {
                LOG.debug("closing the Docker client used to look for Testcontainers' images failed", closing);
            }
        }
    }

    /*
     * Inside a container (/.dockerenv), Testcontainers finds the address of mapped ports by running
     * its tiny image to read the default gateway, assuming the engine is the outer host's. When the
     * engine runs right here (its docker0 bridge is in this network namespace) the ports are on
     * localhost, and with no registry that lookup could never run anyway.
     */
    @SuppressWarnings("deprecation")
    private static void useLocalhostWhenTheEngineIsLocal(
            DockerClient docker, TestcontainersConfiguration config, TransportConfig transport,
            Optional<String> noRegistry) {
        boolean inAContainer = Files.exists(Path.of("/.dockerenv"));
        boolean engineHere = Files.exists(Path.of("/sys/class/net/docker0"));
        String override = System.getenv("TESTCONTAINERS_HOST_OVERRIDE");
        if (!inAContainer || !engineHere || (override != null && !override.isBlank())
                || !"unix".equals(transport.getDockerHost().getScheme())) {
            return;
        }
        String tiny = substituted(config.getTinyImage());
        Optional<String> failure = presentOrPulled(docker, tiny, noRegistry);
        if (failure.isEmpty()) {
            return;
        }
        try {
            Field strategyField = DockerClientFactory.class.getDeclaredField("strategy");
            strategyField.setAccessible(true);
            Object strategy = strategyField.get(DockerClientFactory.instance());
            Field address = DockerClientProviderStrategy.class.getDeclaredField("dockerHostIpAddress");
            address.setAccessible(true);
            address.set(strategy, "localhost");
            LOG.warn("Testcontainers reaches containers through localhost: the Docker engine runs in this network"
                    + " namespace, and its gateway lookup needs {}, which could not be had ({})", tiny, failure.get());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Testcontainers would look up the Docker host's address by running " + tiny
                    + ", which could not be had (" + failure.get() + "); set TESTCONTAINERS_HOST_OVERRIDE=localhost", e);
        }
    }

    private static String substituted(String image) {
        return ImageNameSubstitutor.instance().apply(DockerImageName.parse(image)).asCanonicalNameString();
    }

    /** Empty when the image (any tag of it) is present or was pulled now; else why it could not be had. */
    private static Optional<String> presentOrPulled(DockerClient docker, String image, Optional<String> knownFailure) {
        String repository = DockerImageName.parse(image).getUnversionedPart();
        try {
            if (!docker.listImagesCmd().withImageNameFilter(repository).exec().isEmpty()) {
                return Optional.empty();
            }
        } catch (RuntimeException engineTrouble) {
            // The engine does not answer as it should: leave everything to Testcontainers, whose
            // own error then names the problem.
            LOG.debug("could not list images of {}", repository, engineTrouble);
            return Optional.empty();
        }
        if (knownFailure.isPresent()) {
            return knownFailure; // one failed pull is enough to know no registry answers
        }
        Optional<String> failure = pull(docker, image, pullTimeout());
        if (failure.isEmpty()) {
            LOG.info("pulled {} for Testcontainers", image);
        }
        return failure;
    }

    private static Optional<String> pull(DockerClient docker, String image, Duration bound) {
        PullImageResultCallback callback = docker.pullImageCmd(image).exec(new PullImageResultCallback());
        try {
            if (callback.awaitCompletion(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.empty();
            }
            return Optional.of("no answer within " + bound.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        } catch (RuntimeException e) {
            return Optional.of(String.valueOf(e.getMessage()).strip());
        } finally {
            try {
                callback.close();
            } catch (java.io.IOException | RuntimeException ignored) {
                // the pull is abandoned either way
            }
        }
    }

    private static Duration pullTimeout() {
        String value = System.getProperty(PULL_TIMEOUT_PROPERTY, "30");
        try {
            return Duration.ofSeconds(Math.max(1, Long.parseLong(value.strip())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PULL_TIMEOUT_PROPERTY + " must be a number of seconds, not '" + value + "'", e);
        }
    }

    // Testcontainers 1.20 reads the switch only from the environment, which a running JVM cannot
    // change; installing its JVM-exit reaper before the first one is made has the same effect.
    @SuppressWarnings("deprecation") // init() is what DockerClientFactory itself calls on a new reaper
    private static void useJvmExitCleanup(Field instance, String image, String failure) {
        try {
            Constructor<?> constructor = Class.forName(JVM_HOOK_CLASS).getDeclaredConstructor();
            constructor.setAccessible(true);
            ResourceReaper hook = (ResourceReaper) constructor.newInstance();
            hook.init();
            instance.set(null, hook);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw cannotSwitch(image, failure, e);
        }
    }

    private static Field reaperField() {
        try {
            Field instance = ResourceReaper.class.getDeclaredField("instance");
            instance.setAccessible(true);
            return instance;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw cannotSwitch("(unknown)", "not checked", e);
        }
    }

    private static Object currentReaper(Field instance) {
        try {
            return instance.get(null);
        } catch (IllegalAccessException e) {
            throw cannotSwitch("(unknown)", "not checked", e);
        }
    }

    private static IllegalStateException cannotSwitch(String image, String failure, Exception cause) {
        return new IllegalStateException("this Testcontainers version does not let ovnj check Testcontainers' Ryuk"
                + " image " + image + " (" + failure + ") or switch Ryuk off; set TESTCONTAINERS_RYUK_DISABLED=true in"
                + " the environment on a machine without an image registry", cause);
    }
}
