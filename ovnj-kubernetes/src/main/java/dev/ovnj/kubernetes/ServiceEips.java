package dev.ovnj.kubernetes;

import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.nb.eip.EipClaim;
import dev.ovnj.nb.eip.EipRealization;
import dev.ovnj.nb.eip.EipRequest;
import dev.ovnj.nb.eip.EipView;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Operations;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The external addresses of Services, claimed through ovnj's {@link EipAllocator} on the
 * controller's external router port with the Service's {@code namespace/name} as the claim's
 * owner. The claims live in the Northbound database, so a restarted controller (or the other
 * replica) finds each Service's address where it left it and never moves it.
 */
final class ServiceEips {
    private final OvsdbClient client;
    private final EipAllocator allocator;
    private final EipView view;
    private final String port;
    private final Duration timeout;

    ServiceEips(OvsdbClient client, String port, Duration timeout) {
        this.client = client;
        this.allocator = new EipAllocator(client);
        this.view = new EipView(client);
        this.port = port;
        this.timeout = timeout;
    }

    /** An address that cannot be had, with the reason for the Service's condition. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean conflict;

        Unavailable(String message, boolean conflict) {
            super(message);
            this.conflict = conflict;
        }

        boolean conflict() {
            return conflict;
        }
    }

    /**
     * The Service's addresses, one per family: the requested ones (claimed for it when free),
     * else the ones it already claims, else newly allocated ones. Claims of addresses it no
     * longer asks for are released once the new ones are held.
     */
    List<InetAddress> resolve(String owner, List<IpFamily> families, List<String> requested) throws Exception {
        return resolve(owner, families, requested, List.of());
    }

    /** As {@link #resolve(String, List, List)}, never allocating an address of {@code exclude} (an EipPool's outside). */
    List<InetAddress> resolve(String owner, List<IpFamily> families, List<String> requested, List<IpRange> exclude) throws Exception {
        Map<IpFamily, InetAddress> wanted = new LinkedHashMap<>();
        for (String literal : requested) {
            InetAddress ip;
            try {
                ip = IpAddresses.parse(literal);
            } catch (IllegalArgumentException e) {
                throw new Unavailable("requested address \"" + literal + "\" is not an IP address", false);
            }
            if (wanted.putIfAbsent(IpFamily.of(ip), ip) != null) {
                throw new Unavailable("more than one requested " + IpFamily.of(ip) + " address: " + requested, false);
            }
            if (!families.contains(IpFamily.of(ip))) {
                throw new Unavailable("requested address " + literal + " is " + ServiceIpFamilies.name(IpFamily.of(ip))
                        + ", and the Service is served in " + String.join(" and ", families.stream().map(ServiceIpFamilies::name).toList())
                        + " only", false);
            }
        }
        List<InetAddress> held = claimsOf(owner);
        List<InetAddress> out = new ArrayList<>();
        try {
            for (IpFamily family : families) {
                InetAddress ip = wanted.get(family);
                if (ip != null) {
                    claim(owner, ip);
                } else {
                    Optional<InetAddress> existing = held.stream().filter(a -> IpFamily.of(a) == family).findFirst();
                    ip = existing.isPresent() ? existing.get()
                            : allocator.allocate(new EipRequest(port, owner, family, exclude)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
                out.add(ip);
            }
        } catch (Exception e) {
            // One family cannot be had: the Service is not served, so it keeps no address it
            // claimed for the others in this call (those it held before stay, with its load balancer).
            for (InetAddress fresh : out) {
                if (!held.contains(fresh)) {
                    allocator.release(IpAddresses.format(fresh)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            throw e;
        }
        for (InetAddress old : held) {
            if (!out.contains(old)) {
                allocator.release(IpAddresses.format(old)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        return List.copyOf(out);
    }

    /** The families of the external port's networks, from the client's cache; empty when the port does not exist. */
    Set<IpFamily> families() {
        Set<IpFamily> out = EnumSet.noneOf(IpFamily.class);
        client.cache().read(() -> {
            client.cache().table(LogicalRouterPort.TABLE.name()).rows().stream()
                    .filter(r -> port.equals(r.get(LogicalRouterPort.NAME.name())))
                    .map(LogicalRouterPort::fromRow)
                    .forEach(p -> p.networks().forEach(cidr -> {
                        try {
                            out.add(IpNetwork.parse(cidr).family());
                        } catch (IllegalArgumentException malformed) {
                            // Another client's malformed network offers no address.
                        }
                    }));
            return null;
        });
        return out;
    }

    /**
     * Releases the Service's claims that no load balancer's VIP uses: a Service that cannot be
     * served holds no address it does not serve on (one it is served on stays, with the load
     * balancer, until the Service is served anew or withdrawn).
     */
    void releaseUnused(String owner) throws Exception {
        for (InetAddress ip : claimsOf(owner)) {
            if (view.realization(ip).vips().isEmpty()) {
                allocator.release(IpAddresses.format(ip)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Releases every address the Service claims. */
    void releaseAll(String owner) throws Exception {
        for (InetAddress ip : claimsOf(owner)) {
            allocator.release(IpAddresses.format(ip)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The addresses claimed for {@code owner} on the external port, from the client's cache. */
    List<InetAddress> claimsOf(String owner) {
        List<InetAddress> out = new ArrayList<>();
        client.cache().read(() -> {
            // Only the external port is decoded: every reconciliation asks, and the other ports
            // (with their own claims) are none of this controller's business.
            client.cache().table(LogicalRouterPort.TABLE.name()).rows().stream()
                    .filter(r -> port.equals(r.get(LogicalRouterPort.NAME.name())))
                    .map(LogicalRouterPort::fromRow)
                    .forEach(p -> p.externalIds().forEach((k, v) -> {
                        if (v.equals(owner)) {
                            EipClaim.ipOf(k).ifPresent(out::add);
                        }
                    }));
            return null;
        });
        return out;
    }

    /**
     * Claims a given address. The claim is an {@code insert} into the port's {@code external_ids},
     * which OVSDB ignores when the key is already there, so of two racing claimants the first
     * wins and the other sees the winner's owner in its cache afterwards.
     */
    private void claim(String owner, InetAddress ip) throws Exception {
        EipRealization r = view.realization(ip);
        Optional<EipClaim> other = r.claims().stream().filter(c -> !c.owner().equals(owner)).findFirst();
        if (other.isPresent()) {
            throw new Unavailable(IpAddresses.format(ip) + " is claimed by " + other.get().owner(), true);
        }
        if (r.claims().stream().anyMatch(c -> c.owner().equals(owner) && c.port().equals(port))) {
            return;
        }
        if (r.portNetworks().stream().noneMatch(pn -> pn.port().equals(port))) {
            throw new Unavailable(IpAddresses.format(ip) + " is not in a network of router port " + port, false);
        }
        if (r.isPortAddress() || !r.nats().isEmpty()) {
            throw new Unavailable(IpAddresses.format(ip) + " is in use by the router (port address or NAT)", true);
        }
        client.transact(client.transaction().add(Operations.mutate(LogicalRouterPort.TABLE.name())
                .where(LogicalRouterPort.NAME.eq(port))
                .mutation(LogicalRouterPort.EXTERNAL_IDS.insert(EipClaim.key(ip), owner))).build())
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!claimsOf(owner).contains(ip)) {
            throw new Unavailable(IpAddresses.format(ip) + " was claimed by another owner first", true);
        }
    }
}
