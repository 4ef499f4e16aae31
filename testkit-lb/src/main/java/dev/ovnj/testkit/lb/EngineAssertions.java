package dev.ovnj.testkit.lb;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;

/**
 * Entry point of the assertions on what a {@link LoadBalancerEngine} wrote, for tests against a
 * real database (e.g. an {@code OvsdbServer} from the testkit):
 *
 * <pre>{@code
 * import static dev.ovnj.testkit.lb.EngineAssertions.assertThatSpec;
 *
 * engine.apply("team-a", List.of(LoadBalancerSpec.builder("web").routers("r1").switches("ls1")
 *         .tcp("10.0.0.10:80", "10.1.0.1:8080").build())).get(30, TimeUnit.SECONDS);
 *
 * assertThatSpec(engine, northbound, "team-a", "web")
 *         .isApplied()
 *         .hasRowNames("web-tcp")
 *         .hasVip("10.0.0.10:80", "10.1.0.1:8080")
 *         .isAttachedToRouters("r1")
 *         .isAttachedToSwitches("ls1");
 * }</pre>
 *
 * A failure says what was expected and shows the whole snapshot ({@link WrittenSpec}): status,
 * rows, VIPs, options and attachments.
 */
public final class EngineAssertions {
    private EngineAssertions() {
    }

    /**
     * Reads what the engine wrote for a spec ({@link WrittenSpec#read}) and starts asserting on it.
     *
     * @param engine the engine
     * @param northbound a Northbound client replicating the engine's tables, usually the engine's own
     * @param owner the spec's owner
     * @param spec the spec's name
     * @return the assertion
     */
    public static WrittenSpecAssert assertThatSpec(LoadBalancerEngine engine, OvsdbClient northbound, String owner, String spec) {
        return new WrittenSpecAssert(WrittenSpec.read(engine, northbound, owner, spec));
    }

    /**
     * Starts asserting on a snapshot already read.
     *
     * @param written the snapshot
     * @return the assertion
     */
    public static WrittenSpecAssert assertThat(WrittenSpec written) {
        return new WrittenSpecAssert(written);
    }
}
