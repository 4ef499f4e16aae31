package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.eip.IpNetwork;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The networks of every router's ports, read once from the cache, to tell whether a VIP is an
 * EIP that OVN will answer ARP/ND for on that router.
 */
final class EipCheck {
    private final Map<String, List<IpNetwork>> networksByRouter;

    private EipCheck(Map<String, List<IpNetwork>> networksByRouter) {
        this.networksByRouter = networksByRouter;
    }

    static EipCheck read(RowCache cache) {
        return cache.read(() -> {
            Map<String, List<IpNetwork>> out = new HashMap<>();
            TableCache ports = cache.findTable("Logical_Router_Port").orElse(null);
            TableCache routers = cache.findTable("Logical_Router").orElse(null);
            if (ports == null || routers == null) {
                return new EipCheck(out);
            }
            for (Row router : routers.rows()) {
                List<IpNetwork> nets = new ArrayList<>();
                for (Object portId : (Set<?>) router.get("ports")) {
                    ports.get((UUID) portId).ifPresent(port -> {
                        for (Object cidr : (Set<?>) port.get("networks")) {
                            try {
                                nets.add(IpNetwork.parse((String) cidr));
                            } catch (IllegalArgumentException malformed) {
                                // Another client's malformed network cannot make a VIP routable.
                            }
                        }
                    });
                }
                out.put((String) router.get("name"), nets);
            }
            return new EipCheck(out);
        });
    }

    /**
     * Problems with a spec's VIPs on the routers it names, one line each; routers that do not
     * exist yet are the planner's business (pending), not a problem here.
     */
    List<String> problems(LoadBalancerSpec spec) {
        List<String> out = new ArrayList<>();
        for (String router : spec.routers()) {
            List<IpNetwork> nets = networksByRouter.get(router);
            if (nets == null) {
                continue;
            }
            for (VipSpec vip : spec.vips()) {
                Endpoint e;
                try {
                    e = Endpoint.parse(vip.vip());
                } catch (IllegalArgumentException invalid) {
                    continue;
                }
                if (nets.stream().noneMatch(n -> n.contains(e.address()))) {
                    out.add("VIP " + vip.vip() + " lies in no network of router " + router
                            + "'s ports, so OVN will not answer ARP/ND for it");
                }
            }
        }
        return out;
    }
}
