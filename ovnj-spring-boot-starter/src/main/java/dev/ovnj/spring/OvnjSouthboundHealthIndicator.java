package dev.ovnj.spring;

import dev.ovnj.ovsdb.client.OvsdbClient;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of the Southbound connection, its own component ({@code ovnjSouthbound}): DOWN
 * while the Southbound client is not connected and synced, UP otherwise, with the remote it is
 * connected to. The engine only reads backend health from the Southbound, and writes without it,
 * so this component is left out of the {@code readiness} group that {@link OvnjHealthGroups} sets
 * up (a Southbound outage must not take the application out of rotation); it counts in
 * {@code /actuator/health} and can be added to a group with
 * {@code management.endpoint.health.group.readiness.include}. Reads only non-blocking snapshots.
 */
public class OvnjSouthboundHealthIndicator extends AbstractHealthIndicator {
    private final OvsdbClient southbound;

    /**
     * Creates the indicator.
     *
     * @param southbound the Southbound client
     */
    public OvnjSouthboundHealthIndicator(OvsdbClient southbound) {
        super("ovnj Southbound health check failed");
        this.southbound = Objects.requireNonNull(southbound, "southbound");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean synced = southbound.isSynced();
        builder.status(synced ? "UP" : "DOWN").withDetail("database", southbound.options().database())
                .withDetail("synced", synced);
        southbound.connectedRemote().ifPresent(r -> builder.withDetail("remote", r.toString()));
    }
}
