package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.ovsdb.cache.RowCache;
import dev.ovnj.ovsdb.cache.TableCache;
import dev.ovnj.ovsdb.data.Row;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The networks of every Logical_Router's ports, read from a cache in one consistent read, for
 * asking many times whether an address lies on a router: OVN's ARP/ND responder answers only for
 * VIPs inside one of those networks. Cheap to consult per VIP once read, unlike a full
 * {@link EipView} realization.
 */
public final class RouterNetworks {
    private final Map<String, List<String>> written;
    private final Map<String, List<IpNetwork>> parsed;

    private RouterNetworks(Map<String, List<String>> written, Map<String, List<IpNetwork>> parsed) {
        this.written = written;
        this.parsed = parsed;
    }

    /**
     * Reads the routers and their ports' {@code networks} (Logical_Router and Logical_Router_Port
     * must be monitored; without them no router is known).
     *
     * @param cache the client's cache
     * @return the networks of every router, by router name
     */
    public static RouterNetworks read(RowCache cache) {
        return cache.read(() -> {
            Map<String, List<String>> written = new HashMap<>();
            Map<String, List<IpNetwork>> parsed = new HashMap<>();
            TableCache ports = cache.findTable("Logical_Router_Port").orElse(null);
            TableCache routers = cache.findTable("Logical_Router").orElse(null);
            if (ports == null || routers == null) {
                return new RouterNetworks(written, parsed);
            }
            for (Row router : routers.rows()) {
                List<String> cidrs = new ArrayList<>();
                List<IpNetwork> nets = new ArrayList<>();
                for (Object portId : (Set<?>) router.get("ports")) {
                    ports.get((UUID) portId).ifPresent(port -> {
                        for (Object cidr : (Set<?>) port.get("networks")) {
                            cidrs.add((String) cidr);
                            try {
                                nets.add(IpNetwork.parse((String) cidr));
                            } catch (IllegalArgumentException malformed) {
                                // Another client's malformed network cannot make a VIP routable.
                            }
                        }
                    });
                }
                String name = (String) router.get("name");
                written.put(name, List.copyOf(cidrs));
                parsed.put(name, List.copyOf(nets));
            }
            return new RouterNetworks(written, parsed);
        });
    }

    /**
     * Whether a router of that name exists.
     *
     * @param router the Logical_Router's name
     * @return true when it exists
     */
    public boolean hasRouter(String router) {
        return written.containsKey(router);
    }

    /**
     * The router's port networks as written in the database.
     *
     * @param router the Logical_Router's name
     * @return the CIDRs, empty for an unknown router or one without ports
     */
    public List<String> networks(String router) {
        return written.getOrDefault(router, List.of());
    }

    /**
     * Whether the address lies in a network of one of the router's ports.
     *
     * @param router the Logical_Router's name
     * @param address the address
     * @return true when some port network contains it; false for an unknown router
     */
    public boolean routes(String router, InetAddress address) {
        // A loop, not a stream: the engine asks this for every VIP of every spec it admits.
        for (IpNetwork n : parsed.getOrDefault(router, List.of())) {
            if (n.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
