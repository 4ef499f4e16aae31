package dev.ovnj.kubernetes;

import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.nb.eip.EipView;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link ServiceEips} of every external router port the controller gives addresses on: the
 * command line's and each {@link EipPool}'s. A Service's claims may be on any of them (its pool
 * was edited or deleted after it got its address), so what a Service holds is looked up on every
 * port, and its release reaches every port it holds an address on. One {@link EipAllocator}
 * serves them all.
 */
final class EipPorts implements AutoCloseable {
    private final EipAllocator allocator;
    private final EipView view;
    private final Duration timeout;
    private final Map<String, ServiceEips> byPort = new ConcurrentHashMap<>();
    private final ReleasedAddresses released = new ReleasedAddresses();

    EipPorts(OvsdbClient client, Duration timeout) {
        // One allocator for every port: one index of the claims, and claims batched across ports.
        this.allocator = new EipAllocator(client);
        this.view = new EipView(client);
        this.timeout = timeout;
    }

    /** The Service addresses of one external port. */
    ServiceEips on(String port) {
        return byPort.computeIfAbsent(port, p -> new ServiceEips(allocator, view, p, timeout, released));
    }

    /** The addresses an owner claims, by port, from the allocator's index (a lookup per port). */
    Map<String, List<InetAddress>> held(String owner) {
        return allocator.held(owner);
    }

    /** Every address claimed on a port, whoever claims it. */
    List<InetAddress> claimed(String port) {
        List<InetAddress> out = new ArrayList<>();
        for (String owner : allocator.owners(port)) {
            out.addAll(allocator.held(port, owner));
        }
        return out;
    }

    /** The owners of every claim on any port (a scan of the index, for the rare sweep). */
    Set<String> owners() {
        return allocator.owners();
    }

    /** Releases every address the Service claims, on every port. */
    void releaseAll(String owner) throws Exception {
        for (String port : held(owner).keySet()) {
            on(port).releaseAll(owner);
        }
    }

    /**
     * Releases the Service's claims that no load balancer VIP uses, on every port.
     *
     * @return whether any address was released
     */
    boolean releaseUnused(String owner) throws Exception {
        boolean any = false;
        for (String port : held(owner).keySet()) {
            any |= on(port).releaseUnused(owner);
        }
        return any;
    }

    @Override
    public void close() {
        allocator.close();
    }
}
