package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.eip.RouterNetworks;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The networks of every router's ports, read once from the cache, to tell whether a VIP is an
 * EIP that OVN will answer ARP/ND for on that router.
 */
final class EipCheck {
    private final RouterNetworks networks;

    private EipCheck(RouterNetworks networks) {
        this.networks = networks;
    }

    private static EipCheck read(RowCache cache) {
        return new EipCheck(RouterNetworks.read(cache));
    }

    /**
     * The last check read, kept until a router or router port changes: every pass (every change)
     * needs one, and reading it parses the networks of every router's ports, which a platform
     * with a router per tenant has hundreds of. Any thread.
     */
    static final class Memo {
        private record Held(long routers, long ports, EipCheck check) {
        }

        private final RowCache cache;
        private final AtomicReference<Held> held = new AtomicReference<>();

        Memo(RowCache cache) {
            this.cache = cache;
        }

        /** The check for the routers in the cache now. */
        EipCheck current() {
            return cache.read(() -> {
                long routers = version("Logical_Router");
                long ports = version("Logical_Router_Port");
                Held h = held.get();
                if (h != null && h.routers == routers && h.ports == ports) {
                    return h.check;
                }
                EipCheck check = read(cache);
                held.set(new Held(routers, ports, check));
                return check;
            });
        }

        private long version(String table) {
            return cache.findTable(table).map(TableCache::version).orElse(-1L);
        }
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
