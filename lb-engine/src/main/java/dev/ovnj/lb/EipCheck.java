package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.eip.RouterNetworks;
import dev.ovnj.ovsdb.cache.RowCache;
import java.util.ArrayList;
import java.util.List;

/**
 * The networks of every router's ports, read once from the cache, to tell whether a VIP is an
 * EIP that OVN will answer ARP/ND for on that router.
 */
final class EipCheck {
    private final RouterNetworks networks;

    private EipCheck(RouterNetworks networks) {
        this.networks = networks;
    }

    static EipCheck read(RowCache cache) {
        return new EipCheck(RouterNetworks.read(cache));
    }

    /**
     * Problems with a spec's VIPs on the routers it names, one line each; routers that do not
     * exist yet are the planner's business (pending), not a problem here.
     */
    List<String> problems(LoadBalancerSpec spec) {
        List<String> out = new ArrayList<>();
        for (String router : spec.routers()) {
            if (!networks.hasRouter(router)) {
                continue;
            }
            for (VipSpec vip : spec.vips()) {
                Endpoint e;
                try {
                    e = Endpoint.parse(vip.vip());
                } catch (IllegalArgumentException invalid) {
                    continue;
                }
                if (!networks.routes(router, e.address())) {
                    out.add("VIP " + vip.vip() + " lies in no network of router " + router
                            + "'s ports, so OVN will not answer ARP/ND for it");
                }
            }
        }
        return out;
    }
}
