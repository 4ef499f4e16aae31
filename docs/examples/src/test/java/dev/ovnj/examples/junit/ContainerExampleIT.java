package dev.ovnj.examples.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.container.EnabledIfContainersRun;
import dev.ovnj.testkit.container.OvsdbContainer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A controller's test against ovsdb-server in a container, Testcontainers style: the
 * {@code @Container} field is started once for the class and removed afterwards. The image is
 * {@code ovnj/ovsdb-server:bookworm} from {@code scripts/build-ovsdb-image.sh} unless
 * {@code -Dovnj.ovsdb.image=IMAGE} names another (any image with ovsdb-server works).
 * {@code @EnabledIfContainersRun} skips the class, saying exactly why, where no Docker engine or
 * no image is available.
 */
@EnabledIfContainersRun
@Testcontainers
class ContainerExampleIT {

    @Container
    static final OvsdbContainer OVSDB = new OvsdbContainer(OvsdbContainer.imageOrDefault());

    @Test
    void theEngineWritesThroughTheContainersMappedPort() throws Exception {
        try (OvsdbClient client = OvsdbClient.builder().remotes(OVSDB.remote())
                     .monitor(LoadBalancerEngine.monitorRequest()).build();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
            engine.start();
            client.startAndWait(Duration.ofSeconds(20));

            LoadBalancerSpec web = LoadBalancerSpec.builder("web").tcp("10.0.0.10:80", "10.1.0.1:8080").build();
            ApplyResult result = engine.apply("team-a", List.of(web)).get(20, TimeUnit.SECONDS);

            assertThat(result.allApplied()).as(result.toString()).isTrue();
            assertThat(client.isSynced()).isTrue();
            assertThat(engine.status("team-a")).containsKey("web");
        }
    }
}
