package dev.ovnj.kubernetes;

import dev.ovnj.nb.eip.EipClaim;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The {@link ServiceEips} of every external router port the controller gives addresses on: the
 * command line's and each {@link EipPool}'s. A Service's claims may be on any of them (its pool
 * was edited or deleted after it got its address), so what a Service holds is looked up on every
 * port, and its release reaches every port it holds an address on.
 */
final class EipPorts {
    private final OvsdbClient client;
    private final Duration timeout;
    private final Map<String, ServiceEips> byPort = new ConcurrentHashMap<>();

    EipPorts(OvsdbClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    /** The Service addresses of one external port. */
    ServiceEips on(String port) {
        return byPort.computeIfAbsent(port, p -> new ServiceEips(client, p, timeout));
    }

    /**
     * The addresses an owner claims, by port, from the client's cache: one pass over the router
     * ports' {@code external_ids}, decoding only the claims of that owner.
     */
    Map<String, List<InetAddress>> held(String owner) {
        return claims(port -> true, owner::equals);
    }

    /** Every address claimed on a port, whoever claims it. */
    List<InetAddress> claimed(String port) {
        return claims(port::equals, owner -> true).getOrDefault(port, List.of());
    }

    private Map<String, List<InetAddress>> claims(Predicate<String> ports, Predicate<String> owners) {
        Map<String, List<InetAddress>> out = new TreeMap<>();
        client.cache().read(() -> {
            client.cache().table(LogicalRouterPort.TABLE.name()).rows().forEach(row -> {
                String name = String.valueOf(row.get(LogicalRouterPort.NAME.name()));
                if (ports.test(name)) {
                    LogicalRouterPort.fromRow(row).externalIds().forEach((k, v) -> {
                        if (owners.test(v)) {
                            EipClaim.ipOf(k).ifPresent(ip -> out.computeIfAbsent(name, p -> new ArrayList<>()).add(ip));
                        }
                    });
                }
            });
            return null;
        });
        return out;
    }

    /** Releases every address the Service claims, on every port. */
    void releaseAll(String owner) throws Exception {
        for (String port : held(owner).keySet()) {
            on(port).releaseAll(owner);
        }
    }
}
