package dev.ovnj.spring;

import dev.ovnj.lb.EngineMetrics;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of ovnj: DOWN while the Northbound client is not connected and synced (with
 * {@code gaveUp} and {@code reason} details when it stopped connecting for good, e.g. its remotes
 * serve {@code OVN_Southbound}: the reason names the remote and what it serves, and nothing but a
 * corrected configuration brings it UP); UP otherwise, with the engine's availability in words ({@code lock ... held by another replica}
 * for a healthy standby), whether it can write, and its specs by state and by operating status
 * ({@code operating}: how many serve on all backends, are degraded, in error, unmonitored, offline
 * or unknown; of the configured owner, else of all owners). A load balancer that serves badly does
 * not make the application DOWN: the operating status is a detail, for dashboards and alerts
 * (restarting the application would not bring a backend back). Reads only non-blocking snapshots.
 */
public class OvnjHealthIndicator extends AbstractHealthIndicator {
    private final OvsdbClient northbound;
    private final LoadBalancerEngine engine;
    private final String owner;

    /**
     * Creates the indicator.
     *
     * @param northbound the Northbound client
     * @param engine the engine, or null when there is none
     * @param owner the owner whose specs to count, or null for all
     */
    public OvnjHealthIndicator(OvsdbClient northbound, LoadBalancerEngine engine, String owner) {
        super("ovnj health check failed");
        this.northbound = northbound;
        this.engine = engine;
        this.owner = owner;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean synced = northbound.isSynced();
        builder.status(synced ? "UP" : "DOWN").withDetail("synced", synced);
        northbound.connectedRemote().ifPresent(r -> builder.withDetail("remote", r.toString()));
        northbound.gaveUp().ifPresent(g -> {
            builder.withDetail("gaveUp", true).withDetail("reason", g.describe());
            g.remote().ifPresent(r -> builder.withDetail("remote", r.toString()));
        });
        if (engine == null) {
            return;
        }
        builder.withDetail("writing", engine.isAvailable()).withDetail("availability", engine.availability());
        Map<String, Integer> byState = new TreeMap<>();
        Map<String, Integer> byOperating = new TreeMap<>();
        if (owner != null && !owner.isBlank()) {
            builder.withDetail("owner", owner);
            for (SpecStatus s : engine.status(owner).values()) {
                byState.merge(s.state().name(), 1, Integer::sum);
                byOperating.merge(s.operatingStatus().name(), 1, Integer::sum);
            }
        } else {
            EngineMetrics m = engine.metrics();
            m.specsByState().forEach((state, n) -> {
                if (n > 0) {
                    byState.put(state.name(), n);
                }
            });
            m.specsByOperatingStatus().forEach((op, n) -> {
                if (n > 0) {
                    byOperating.put(op.name(), n);
                }
            });
        }
        builder.withDetail("specs", byState).withDetail("operating", byOperating);
    }
}
