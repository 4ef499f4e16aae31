package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Where traffic from outside enters a router: its gateway ports, and the one a VIP's clients use. */
final class RouterEntry {
    private RouterEntry() {
    }

    /** The router's distributed gateway ports (gateway_chassis, ha_chassis_group or redirect-chassis). */
    static List<LogicalRouterPort> gatewayPorts(NorthboundFacts nb, LogicalRouter router) {
        List<LogicalRouterPort> out = new ArrayList<>();
        for (LogicalRouterPort p : nb.portsOf(router)) {
            if (isGateway(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Whether the port is a distributed gateway port, so that a {@code cr-} port stands for it on one chassis. */
    static boolean isGateway(LogicalRouterPort p) {
        return !p.gatewayChassis().isEmpty() || p.haChassisGroup().isPresent() || p.options().containsKey("redirect-chassis");
    }

    /** The port outside traffic for the VIP enters by: a gateway port, else the port whose network holds the VIP. */
    static Optional<LogicalRouterPort> ingressPort(NorthboundFacts nb, LogicalRouter router, Endpoint vip) {
        List<LogicalRouterPort> gateways = gatewayPorts(nb, router);
        List<LogicalRouterPort> candidates = gateways.isEmpty() ? nb.portsOf(router) : gateways;
        for (LogicalRouterPort p : candidates) {
            for (String cidr : p.networks()) {
                try {
                    if (IpNetwork.parse(cidr).contains(vip.address())) {
                        return Optional.of(p);
                    }
                } catch (IllegalArgumentException malformed) {
                    // skip another client's malformed network
                }
            }
        }
        return candidates.stream().findFirst();
    }
}
