package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What {@code skipSnat} does on the spec's routers. OVN (23.03 to 26.03) applies a router's
 * {@code lb_force_snat_ip} only on a gateway router ({@code options:chassis}); on a distributed
 * router with a gateway port it SNATs no load-balanced traffic, so the backends see the client's
 * address without {@code skip_snat}, and with it northd writes the replies' un-DNAT as
 * {@code flags.skip_snat_for_lb = 1; next;}: the replies leave with the backend's address and
 * every connection through the VIP fails (proven on a real data plane by the CLI's
 * {@code DoctorDataPlaneIT}). The engine therefore refuses such a spec (INVALID, nothing written);
 * on a gateway router it is allowed. A router or port change re-judges the specs on that router
 * ({@link EventMapper}); {@code ovnj doctor} reports such a load balancer written by someone else.
 */
final class SkipSnatRouters {
    private SkipSnatRouters() {
    }

    /**
     * Why a spec with {@code skipSnat} may not be written on its routers: distributed routers with a
     * gateway port among them, if any. Call inside a cache read.
     *
     * @param spec the spec
     * @param cache the client's cache
     * @return the reason, naming the routers
     */
    static Optional<String> problem(LoadBalancerSpec spec, RowCache cache) {
        if (!spec.options().skipSnat() || spec.routers().isEmpty()) {
            return Optional.empty();
        }
        Optional<TableCache> ports = cache.findTable("Logical_Router_Port");
        Optional<TableCache> routers = cache.findTable("Logical_Router");
        if (ports.isEmpty() || routers.isEmpty()) {
            return Optional.empty();
        }
        TreeSet<String> distributed = new TreeSet<>();
        for (Row r : routers.get().rows()) {
            LogicalRouter router = LogicalRouter.fromRow(r);
            if (!spec.routers().contains(router.name()) || router.options().containsKey("chassis")) {
                continue;
            }
            List<String> gateways = new ArrayList<>();
            for (UUID p : router.ports()) {
                ports.get().get(p).map(LogicalRouterPort::fromRow).filter(SkipSnatRouters::isGateway)
                        .ifPresent(port -> gateways.add(port.name()));
            }
            if (!gateways.isEmpty()) {
                distributed.add(router.name() + " (gateway port " + String.join(", ", gateways) + ")");
            }
        }
        if (distributed.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("options.skipSnat on distributed router" + (distributed.size() == 1 ? " " : "s ")
                + String.join(", ", distributed) + ": OVN applies lb_force_snat_ip only on gateway routers (options:chassis),"
                + " so the backends see the client's address there without skip_snat (it is not needed), and with it OVN would"
                + " not un-DNAT the replies: they would leave with the backend's address and every connection through the VIPs"
                + " would fail; not written: leave skipSnat off on such a router");
    }

    private static boolean isGateway(LogicalRouterPort p) {
        return !p.gatewayChassis().isEmpty() || p.haChassisGroup().isPresent() || p.options().containsKey("redirect-chassis");
    }
}
