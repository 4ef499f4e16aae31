package dev.ovnj.kubernetes;

import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.nb.eip.EipClaimedException;
import dev.ovnj.nb.eip.EipExhaustedException;
import dev.ovnj.nb.eip.EipRequest;
import dev.ovnj.nb.eip.EipView;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The external addresses of Services, claimed through ovnj's {@link EipAllocator} on the
 * controller's external router port with the Service's {@code namespace/name} (or its sharing
 * group's owner, {@link AddressSharing}) as the claim's owner. The claims live in the Northbound
 * database, so a restarted controller (or the other replica) finds each Service's address where it
 * left it and never moves it. One allocator serves every reconciliation: allocations queued while
 * a claim is in flight are claimed together in the next transaction, and lookups come from its
 * index rather than from decoding the port's claims.
 */
final class ServiceEips {
    private final EipAllocator allocator;
    private final EipView view;
    private final String port;
    private final Duration timeout;
    private final ReleasedAddresses released;

    /** On an allocator, a view and a release history {@link EipPorts} shares among the ports (and closes). */
    ServiceEips(EipAllocator allocator, EipView view, String port, Duration timeout, ReleasedAddresses released) {
        this.allocator = allocator;
        this.view = view;
        this.port = port;
        this.timeout = timeout;
        this.released = released;
    }

    /** An address that cannot be had, with the reason for the Service's condition. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;
        private final String reason;

        Unavailable(String message, boolean conflict) {
            this(message, conflict ? ConditionReasons.ADDRESS_CONFLICT : ConditionReasons.ADDRESS_INVALID);
        }

        Unavailable(String message, String reason) {
            super(message);
            this.reason = reason;
        }

        boolean conflict() {
            return reason.equals(ConditionReasons.ADDRESS_CONFLICT);
        }

        /** The condition's reason: AddressConflict, AddressInvalid or AddressOutsideNetwork. */
        String reason() {
            return reason;
        }
    }

    /**
     * The Service's addresses, one per family: the requested ones (claimed for it when free),
     * else the ones it already claims, else newly allocated ones. Claims of addresses it no
     * longer asks for are released once the new ones are held. Other Services waiting for a
     * requested address that nobody holds yet have a say: when {@code contender} names one (an older
     * Service asking for the same address), this owner does not claim it and gets a conflict.
     * When {@code adopting} (the Service adopts another tool's load balancers), a requested
     * address that another claim owner holds and a load balancer serves is used without a claim
     * of its own: the engine's adoption of that load balancer moves the claim to the Service, in
     * the same transaction. A new address is never one of {@code exclude} (an EipPool's outside).
     */
    List<InetAddress> resolve(String owner, List<IpFamily> families, List<String> requested, boolean adopting,
                              Function<InetAddress, Optional<String>> contender, List<IpRange> exclude) throws Exception {
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
        List<IpNetwork> networks = allocator.networks(port);
        for (InetAddress ip : held) {
            if (!wanted.containsValue(ip) && families.contains(IpFamily.of(ip)) && networks.stream().noneMatch(n -> n.contains(ip))) {
                // The port was renumbered under the address: it is kept (never moved silently) and reported.
                throw new Unavailable(IpAddresses.format(ip) + " is no longer in a network of router port " + port + " "
                        + networks.stream().map(IpNetwork::cidr).toList() + "; the address is kept, not moved: restore the network, "
                        + "or recreate the Service for a new address", ConditionReasons.ADDRESS_OUTSIDE_NETWORK);
            }
        }
        List<InetAddress> out = new ArrayList<>();
        List<InetAddress> othersClaims = new ArrayList<>();
        try {
            for (IpFamily family : families) {
                InetAddress ip = wanted.get(family);
                if (ip != null) {
                    if (!claim(owner, ip, held, adopting, contender)) {
                        othersClaims.add(ip);
                    }
                } else {
                    Optional<InetAddress> existing = held.stream().filter(a -> IpFamily.of(a) == family).findFirst();
                    ip = existing.isPresent() ? existing.get() : allocate(owner, family, exclude);
                }
                out.add(ip);
            }
        } catch (Exception e) {
            // One family cannot be had: the Service is not served, so it keeps no address it
            // claimed for the others in this call (those it held before stay, with its load balancer).
            for (InetAddress fresh : out) {
                if (!held.contains(fresh) && !othersClaims.contains(fresh)) {
                    release(fresh, false);
                }
            }
            throw e;
        }
        for (InetAddress old : held) {
            if (!out.contains(old)) {
                release(old, true);
            }
        }
        return List.copyOf(out);
    }

    /**
     * A new address of a family: the lowest free one that was not released lately; only when no
     * other is free, a released one, least recently released first.
     */
    private InetAddress allocate(String owner, IpFamily family, List<IpRange> exclude) throws Exception {
        List<InetAddress> recent = released.oldestFirst(family).stream().filter(ip -> exclude.stream().noneMatch(r -> r.contains(ip)))
                .toList();
        List<IpRange> avoiding = new ArrayList<>(exclude);
        recent.forEach(ip -> avoiding.add(new IpRange(ip, ip)));
        try {
            InetAddress ip = allocator.allocate(new EipRequest(port, owner, family, avoiding)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            released.taken(ip);
            return ip;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof EipExhaustedException) || recent.isEmpty()) {
                throw e;
            }
            List<IpNetwork> networks = allocator.networks(port);
            for (InetAddress candidate : recent) {
                if (!allocator.holders(candidate).isEmpty() || networks.stream().noneMatch(n -> n.contains(candidate))) {
                    continue;
                }
                try {
                    allocator.claim(EipRequest.of(port, owner).withFamily(family), candidate).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                    released.taken(candidate);
                    return candidate;
                } catch (ExecutionException taken) {
                    if (!(taken.getCause() instanceof EipClaimedException)) {
                        throw taken;
                    }
                }
            }
            throw e;
        }
    }

    /**
     * Releases one address; one that may have been served is remembered as released (given out
     * again last), one never served (no VIP used it) is not: nobody's cache or connection knows it.
     */
    private boolean release(InetAddress ip, boolean mayHaveBeenServed) throws Exception {
        boolean removed = allocator.release(IpAddresses.format(ip)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (mayHaveBeenServed) {
            released.released(ip);
        }
        return removed;
    }

    /** The families of the external port's networks, from the allocator's index; empty when the port does not exist. */
    Set<IpFamily> families() {
        Set<IpFamily> out = EnumSet.noneOf(IpFamily.class);
        allocator.networks(port).forEach(n -> out.add(n.family()));
        return out;
    }

    /**
     * Releases the Service's claims that no load balancer's VIP uses: a Service that cannot be
     * served holds no address it does not serve on (one it is served on stays, with the load
     * balancer, until the Service is served anew or withdrawn).
     */
    boolean releaseUnused(String owner) throws Exception {
        boolean any = false;
        for (InetAddress ip : claimsOf(owner)) {
            if (view.realization(ip).vips().isEmpty()) {
                any |= release(ip, false);
            }
        }
        return any;
    }

    /** Releases every address the Service claims. */
    void releaseAll(String owner) throws Exception {
        for (InetAddress ip : claimsOf(owner)) {
            release(ip, true);
        }
    }

    /** The addresses claimed for {@code owner} on the external port, from the allocator's index. */
    List<InetAddress> claimsOf(String owner) {
        return allocator.held(port, owner);
    }

    /** The owners of every claim on the external port (a scan of the index, for the rare sweep). */
    Set<String> owners() {
        return allocator.owners(port);
    }

    /**
     * Hands a Service's own claims to its sharing group in one transaction, when the group holds
     * nothing yet: the first Service to join a group with an address keeps it, rather than
     * trading it for a new one.
     *
     * @return whether anything was handed over
     */
    boolean handOver(String from, String to) throws Exception {
        if (claimsOf(from).isEmpty() || !claimsOf(to).isEmpty()) {
            return false;
        }
        return allocator.transfer(port, from, to).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Claims a given address through the allocator: refused when another owner holds it, the
     * router uses it, it lies outside the port's networks, or an older Service waits for it.
     *
     * @return false when, adopting, the address is left claimed by the other owner whose load balancer serves it
     */
    private boolean claim(String owner, InetAddress ip, List<InetAddress> held, boolean adopting,
                          Function<InetAddress, Optional<String>> contender) throws Exception {
        if (held.contains(ip)) {
            return true;
        }
        Optional<String> holder = allocator.holders(ip).stream().filter(o -> !o.equals(owner)).findFirst();
        if (holder.isPresent() && adopting && !view.realization(ip).vips().isEmpty()) {
            return false;
        }
        if (holder.isPresent()) {
            throw new Unavailable(IpAddresses.format(ip) + " is claimed by " + holder.get(), true);
        }
        Optional<String> older = contender.apply(ip);
        if (older.isPresent()) {
            throw new Unavailable(IpAddresses.format(ip) + " is also requested by " + older.get()
                    + ", an older Service, which gets it first", true);
        }
        try {
            allocator.claim(EipRequest.of(port, owner).withFamily(IpFamily.of(ip)), ip).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            released.taken(ip);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof EipClaimedException taken) {
                throw new Unavailable(taken.getMessage(), true);
            }
            if (e.getCause() instanceof IllegalArgumentException invalid) {
                throw new Unavailable(invalid.getMessage(), false);
            }
            throw e;
        }
        return true;
    }
}
