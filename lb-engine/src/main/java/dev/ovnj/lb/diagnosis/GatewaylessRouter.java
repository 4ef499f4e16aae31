package dev.ovnj.lb.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A router without a gateway and the load balancers on it: one {@code no-gateway-chassis} finding
 * for the router, however many load balancers it holds (the cause is the router's, and one fix
 * mends them all).
 */
final class GatewaylessRouter {
    /** How many Load_Balancer rows the message names; {@link Finding#lbs()} has every spec. */
    private static final int NAMED_ROWS = 10;

    private final UUID uuid;
    private final String name;
    private final Set<String> specs = new LinkedHashSet<>();
    private final Set<String> rows = new LinkedHashSet<>();

    GatewaylessRouter(UUID uuid, String name) {
        this.uuid = uuid;
        this.name = name;
    }

    /** Records one more load balancer (spec name, row name) on the router. */
    void add(String spec, String row) {
        specs.add(spec);
        rows.add(row);
    }

    /** The one finding: the router, its load balancers' rows (the first few), and the fix. */
    Finding finding() {
        List<String> named = new ArrayList<>(rows).subList(0, Math.min(NAMED_ROWS, rows.size()));
        String which = rows.size() == 1 ? "which " + named.get(0) + " is on"
                : "which " + rows.size() + " load balancers are on (" + String.join(", ", named)
                        + (rows.size() > named.size() ? " and " + (rows.size() - named.size()) + " more" : "") + ")";
        List<String> lbs = List.copyOf(specs);
        return new Finding(FindingCode.NO_GATEWAY_CHASSIS, lbs.get(0), Optional.empty(), "router " + name + " (" + uuid + "), "
                + which + ", has no gateway: no port with gateway_chassis or ha_chassis_group, no options:chassis, no"
                + " options:redirect-chassis; nothing answers ARP for its VIPs outside",
                "ovn-nbctl lrp-set-gateway-chassis EXTERNAL-PORT CHASSIS (or set options:chassis on a gateway router)", lbs);
    }
}
