package dev.ovnj.kubernetes;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LoadBalancerGroup;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Where a Service's load balancer rows are attached now, read from the Northbound cache: what
 * keeps a Service whose pool is gone where it was (its address stays, so its router and switch do).
 */
final class CurrentAttachment {
    private CurrentAttachment() {
    }

    /**
     * The router, switch and group the spec's rows are attached to.
     *
     * @param nb the client
     * @param owner the engine owner
     * @param spec the spec's name
     * @return the attachment, empty when no router carries the rows
     */
    static Optional<ServiceAnnotations.Attachment> read(OvsdbClient nb, String owner, String spec) {
        return nb.cache().read(() -> {
            Set<Object> rows = new HashSet<>();
            for (Row r : nb.cache().table(LoadBalancer.TABLE.name()).rows()) {
                var ids = LoadBalancer.fromRow(r).externalIds();
                if (owner.equals(ids.get(DesiredRow.OWNER_KEY)) && spec.equals(ids.get(DesiredRow.SPEC_KEY))) {
                    rows.add(r.uuid());
                }
            }
            if (rows.isEmpty()) {
                return Optional.<ServiceAnnotations.Attachment>empty();
            }
            Optional<String> router = attached(nb, LogicalRouter.TABLE.name(), LogicalRouter.LOAD_BALANCER.name(), rows);
            if (router.isEmpty()) {
                return Optional.<ServiceAnnotations.Attachment>empty();
            }
            return Optional.of(new ServiceAnnotations.Attachment(router.get(),
                    attached(nb, LogicalSwitch.TABLE.name(), LogicalSwitch.LOAD_BALANCER.name(), rows),
                    nb.cache().findTable(LoadBalancerGroup.TABLE.name()).isPresent()
                            ? attached(nb, LoadBalancerGroup.TABLE.name(), LoadBalancerGroup.LOAD_BALANCER.name(), rows)
                            : Optional.<String>empty()));
        });
    }

    /** The first row (by name) of a table whose load balancer column holds one of the rows. */
    private static Optional<String> attached(OvsdbClient nb, String table, String column, Set<Object> rows) {
        return nb.cache().table(table).rows().stream()
                .filter(r -> ((Set<?>) r.get(column)).stream().anyMatch(rows::contains))
                .map(r -> String.valueOf(r.get("name"))).sorted().findFirst();
    }
}
