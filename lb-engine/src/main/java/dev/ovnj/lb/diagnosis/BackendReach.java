package dev.ovnj.lb.diagnosis;

import dev.ovnj.nb.ip.IpAddresses;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Whether a router a load balancer is on can send the VIP's traffic to a backend that is a logical
 * switch port: the router DNATs the request to the backend's address and then routes it like any
 * packet, so the backend must lie in a network of one of its ports or behind one of its specific
 * static routes. A router that has only its default route for the address (a load balancer attached
 * to another project's router, say) sends the request out of its gateway, away from the backend,
 * and the backend's reply would not come back through the router that DNATed it either.
 */
final class BackendReach {
    private BackendReach() {
    }

    /**
     * Why the router cannot reach the backend, or empty when it can or when that cannot be told
     * (the Northbound facts were read without the static routes).
     *
     * @param nb the Northbound facts
     * @param router the router's name
     * @param backend the backend's address
     * @return the reason, naming the router's default route and the router whose network holds the address
     */
    static Optional<String> unreachable(NorthboundFacts nb, String router, InetAddress backend) {
        if (nb.networks().routes(router, backend)) {
            return Optional.empty();
        }
        Optional<List<NorthboundFacts.StaticRoute>> routes = nb.staticRoutes(router);
        if (routes.isEmpty() || routes.get().stream().anyMatch(r -> r.coversSpecifically(backend))) {
            return Optional.empty();
        }
        String host = IpAddresses.format(backend);
        List<String> defaults = routes.get().stream().filter(r -> r.isDefaultFor(backend)).map(NorthboundFacts.StaticRoute::text).toList();
        List<String> holders = nb.routerNames().stream().filter(r -> !r.equals(router) && nb.networks().routes(r, backend)).toList();
        return Optional.of("router " + router + " has no port on a network holding " + host + " and no route to it"
                + (defaults.isEmpty() ? "" : " but its default route (" + String.join(", ", defaults) + "), which leads away from it")
                + (holders.isEmpty() ? "" : "; " + host + " is on the network of router " + String.join(", ", holders)));
    }

    /** What to do about it: attach the load balancer where its backends are, or route to them. */
    static String fix(NorthboundFacts nb, String router, String loadBalancer, InetAddress backend) {
        List<String> holders = nb.routerNames().stream().filter(r -> !r.equals(router) && nb.networks().routes(r, backend)).toList();
        String where = holders.isEmpty() ? "ROUTER" : holders.get(0);
        return "attach the load balancer to the router whose network holds its backends (ovn-nbctl lr-lb-del " + router + " "
                + loadBalancer + " -- lr-lb-add " + where + " " + loadBalancer + "), or give the backends on " + router
                + "'s networks";
    }
}
